"""Invoices (issue 14 part 8): staff holding create_invoices bill an organization or a patient for line
items (`_commands`: create, edit while a draft, send with the PDF attached, void with a reason; marking one
paid needs process_payments and posts the payment to the ledger), and read them back (`_reads`: staff's
list and search, a patient's own invoices, the PDF). `_rules` holds the words, limits and gates,
`_document` the PDF and the e-mail. See models/invoice.py for the numbering.

Its public surface: the names below (`__all__`).
"""

from app.services.invoices._commands import (
    create_invoice,
    mark_invoice_paid,
    send_invoice,
    update_invoice,
    void_invoice,
)
from app.services.invoices._reads import get_invoice, get_invoice_pdf, list_invoices, list_my_invoices
from app.services.invoices._rules import METHOD_LABELS

__all__ = [
    "METHOD_LABELS",
    "create_invoice",
    "get_invoice",
    "get_invoice_pdf",
    "list_invoices",
    "list_my_invoices",
    "mark_invoice_paid",
    "send_invoice",
    "update_invoice",
    "void_invoice",
]
