"""What the staff invoices screen and a patient's wallet both show of an invoice: its status badge, its
amount in cents as money, and the link that downloads its PDF (api/documents.py)."""

from __future__ import annotations

from decimal import Decimal

from reactpy import html
from reactpy.types import VdomDict

from components.format import format_money
from components.kit import Badge, Tone
from models.invoice import InvoiceStatus

PDF_PATH = "/api/invoices/{number}.pdf"
STATUS_LABELS = {
    InvoiceStatus.draft: "Draft",
    InvoiceStatus.sent: "Sent",
    InvoiceStatus.paid: "Paid",
    InvoiceStatus.void: "Void",
}
STATUS_TONES: dict[InvoiceStatus, Tone] = {
    InvoiceStatus.draft: "neutral",
    InvoiceStatus.sent: "info",
    InvoiceStatus.paid: "success",
    InvoiceStatus.void: "danger",
}


def invoice_pdf_href(number: str) -> str:
    return PDF_PATH.format(number=number)


def invoice_pdf_link(number: str, *, label: str = "PDF", class_name: str = "receipt-link") -> VdomDict:
    """A download link whose accessible name says which invoice and that it is a PDF."""
    return html.a(
        {
            "class_name": class_name,
            "href": invoice_pdf_href(number),
            "download": "",
            "aria-label": f"Download invoice {number} (PDF)",
        },
        label,
    )


def invoice_status_badge(status: InvoiceStatus) -> VdomDict:
    return Badge(STATUS_LABELS[status], tone=STATUS_TONES[status])


def cents_text(cents: int) -> str:
    """Cents as ledger money: 175000 → '$1,750.00'."""
    return format_money(Decimal(cents) / 100)
