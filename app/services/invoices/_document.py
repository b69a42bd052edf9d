"""An invoice as PDF (app/pdf's layout) and the e-mail that carries it."""

from __future__ import annotations

from datetime import date, datetime
from html import escape
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.pdf import Column, Document, Party, PdfFile, Table, money_cents, render
from app.services.invoices._rules import METHOD_LABELS
from app.settings import get_settings
from models.identity import as_utc
from models.invoice import InvoiceRead, InvoiceStatus, PaymentMethod

# As the recipient reads them on the PDF.
STATUS_LABELS = {
    InvoiceStatus.draft: "Draft",
    InvoiceStatus.sent: "Payment due",
    InvoiceStatus.paid: "Paid",
    InvoiceStatus.void: "Void",
}


def zone_of(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name) if name and len(name) < 64 else ZoneInfo(get_settings().default_time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(get_settings().default_time_zone)


def day(value: date | datetime | None, zone: ZoneInfo) -> str:
    if value is None:
        return "—"
    if isinstance(value, datetime):
        value = as_utc(value).astimezone(zone)
    return f"{value:%b} {value.day}, {value:%Y}"


def method_label(method: str) -> str:
    return METHOD_LABELS.get(PaymentMethod(method), method) if method in PaymentMethod.__members__ else method


def invoice_pdf(invoice: InvoiceRead, time_zone: str | None = None) -> PdfFile:
    settings = get_settings()
    zone = zone_of(time_zone)
    dates = [("Issued", day(invoice.sent_at or invoice.created_at, zone)), ("Due", day(invoice.due_on, zone))]
    if invoice.status is InvoiceStatus.paid:
        dates.append(("Paid", day(invoice.paid_at, zone)))
    recipient = (
        invoice.recipient_name,
        invoice.recipient_email,
        *(line.strip() for line in invoice.recipient_address.splitlines() if line.strip()),
    )
    total = money_cents(invoice.total_cents)
    grand = {
        InvoiceStatus.paid: "Total paid",
        InvoiceStatus.void: "Total (void)",
    }.get(invoice.status, "Amount due")
    notes = [invoice.notes] if invoice.notes else []
    if invoice.status is InvoiceStatus.paid:
        paid = f"Paid by {method_label(invoice.payment_method).lower()}"
        notes.append(
            paid + (f", reference {invoice.payment_reference}." if invoice.payment_reference else ".")
        )
    elif invoice.status is InvoiceStatus.void:
        notes.append(f"This invoice was voided: {invoice.void_reason}. Nothing is owed on it.")
    else:
        notes.append(
            f"Please pay {total} by {day(invoice.due_on, zone)}, quoting {invoice.number}. "
            f"Questions about this invoice: {settings.support_email}."
        )
    document = Document(
        title="Invoice",
        number=invoice.number,
        status=STATUS_LABELS[invoice.status],
        dates=tuple(dates),
        parties=(
            Party("From", (f"{settings.brand_name} Medical Services, LLC", settings.support_email)),
            Party("Billed to", recipient),
        ),
        tables=(
            Table(
                "Items",
                (
                    Column("Description", 5),
                    Column("Qty", 0.9, "RIGHT"),
                    Column("Unit price", 1.4, "RIGHT"),
                    Column("Amount", 1.4, "RIGHT"),
                ),
                tuple(
                    (
                        line.description,
                        f"{line.quantity:,}",
                        money_cents(line.unit_price_cents),
                        money_cents(line.amount_cents),
                    )
                    for line in invoice.lines
                ),
                totals=(("Subtotal", total), (grand, total)),
            ),
        ),
        notes=tuple(notes),
    )
    return PdfFile(filename=f"medivisit-invoice-{invoice.number}.pdf", content=render(document))


def invoice_email_html(invoice: InvoiceRead, link: str) -> str:
    """The e-mail sent with the PDF: who it is from, the amount and due date, and where to ask."""
    settings = get_settings()
    brand = escape(settings.brand_name)
    zone = zone_of(None)
    total = escape(money_cents(invoice.total_cents))
    button = (
        f"<p><a href='{escape(link)}' style='display:inline-block;padding:10px 16px;background:#0f766e;"
        f"color:#ffffff;border-radius:6px;text-decoration:none'>Open in {brand}</a></p>"
        if link
        else ""
    )
    return (
        "<div style='font-family:system-ui,sans-serif;max-width:560px;color:#0f172a'>"
        f"<h1 style='font-size:20px'>Invoice {escape(invoice.number)}</h1>"
        f"<p>Hello {escape(invoice.recipient_name)},</p>"
        f"<p>{brand} Medical Services, LLC has sent you invoice {escape(invoice.number)} for <strong>{total}</strong>, "
        f"due on {escape(day(invoice.due_on, zone))}. The invoice is attached as a PDF.</p>"
        f"{button}"
        f"<p>Questions about this invoice: <a href='mailto:{escape(settings.support_email)}'>"
        f"{escape(settings.support_email)}</a>.</p>"
        f"<p style='color:#64748b;font-size:13px'>{brand} — mobile healthcare at your door.</p></div>"
    )
