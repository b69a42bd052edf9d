"""The documents' screen logic: the invoice editor reads what staff typed into an InvoiceCreate or says what
to fix (staff/invoices.py), the staff list's filters in the URL, the wallet's receipt links and Invoices
section (pages/dashboard/wallet.py), and the provider wallet's month labels."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from models.invoice import InvoicePageRead, InvoiceRead, InvoiceStatus, RecipientKind
from models.ledger import EntryKind, WalletLineRead, WalletPageRead
from pages.dashboard import provider_wallet, wallet
from pages.dashboard.wallet import WalletFilters
from staff import invoices
from tests.ui.harness import find, find_all, text

NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)


def test_unit_prices_are_read_as_dollars_and_cents() -> None:
    assert invoices.parse_cents("35") == 3500
    assert invoices.parse_cents(" $1,234.5 ") == 123_450
    assert invoices.parse_cents("0") == 0
    for bad in ("", "twelve", "1.234", "NaN", "Infinity", "1e3", "9" * 20):
        assert invoices.parse_cents(bad) is None, bad
    assert invoices.parse_quantity("12") == 12 and invoices.parse_quantity("1.5") is None


def test_the_editor_reads_the_form_or_names_the_first_line_to_fix() -> None:
    values = {
        "recipient_name": "Acme",
        "recipient_email": "billing@acme.example",
        "due_on": "2026-12-20",
        "d0": "Flu shots",
        "q0": "40",
        "p0": "35",
        "d3": "Travel",
        "q3": "1",
        "p3": "120.50",
    }
    data = invoices.read_form(values, [0, 3], RecipientKind.organization)
    assert not isinstance(data, str)
    assert data.due_on == date(2026, 12, 20) and data.recipient_name == "Acme"
    assert [(line.quantity, line.unit_price_cents) for line in data.lines] == [(40, 3500), (1, 12_050)]
    assert invoices.line_total(values, [0, 3]) == 152_050
    assert invoices.read_form({**values, "p3": "lots"}, [0, 3], RecipientKind.organization) == (
        "Line 2: enter the unit price in dollars, such as 35 or 35.50."
    )
    negative = invoices.read_form({**values, "q0": "-1"}, [0, 3], RecipientKind.organization)
    assert isinstance(negative, str) and negative.startswith("Line 1:")
    assert (
        invoices.read_form({**values, "due_on": ""}, [0], RecipientKind.organization)
        == "Choose the due date."
    )


def test_the_list_filters_live_in_the_url() -> None:
    got = invoices.Filters.from_params({"q": ["  acme  "], "status": ["paid"], "page": ["2"]})
    assert got == invoices.Filters("acme", "paid", 2)
    assert got.href() == "/staff/invoices?q=acme&status=paid&page=2"
    assert got.href(page=1) == "/staff/invoices?q=acme&status=paid"
    assert invoices.Filters.from_params({"status": ["lost"], "page": ["0"]}) == invoices.Filters()


def invoice(**changes) -> InvoiceRead:  # noqa: ANN003
    values = {
        "id": "i1",
        "number": "INV-2026-00007",
        "status": InvoiceStatus.sent,
        "recipient_kind": RecipientKind.patient,
        "patient_id": "u1",
        "recipient_name": "Jordan Lee",
        "recipient_email": "jordan@example.com",
        "recipient_address": "",
        "due_on": date(2026, 12, 20),
        "notes": "",
        "total_cents": 7_000,
        "created_at": NOW,
        "sent_at": NOW,
        "paid_at": None,
        "payment_method": "",
        "payment_reference": "",
        "voided_at": None,
        "void_reason": "",
        "lines": [],
    }
    return InvoiceRead(**{**values, **changes})


def test_the_wallet_lists_invoices_with_their_pdf_and_history_links_receipts() -> None:
    section = wallet.invoices_section(InvoicePageRead(items=[invoice()], total=1, page=1, page_size=100))
    row = text(find(section, "tbody"))
    assert "INV-2026-00007" in row and "Dec 20, 2026" in row and "$70.00" in row and "Sent" in row
    link = find(section, "a", text="PDF")
    assert link["attributes"]["href"] == "/api/invoices/INV-2026-00007.pdf"
    assert link["attributes"]["aria-label"] == "Download invoice INV-2026-00007 (PDF)"

    line = WalletLineRead(
        entry_id="e1",
        kind=EntryKind.refund,
        amount=Decimal("10"),
        description="Refund",
        order_id="o1",
        order_number="MV-7K3Q9P",
        appointment_id="a1",
        created_at=NOW,
    )
    history = wallet.history_section(
        WalletPageRead(items=[line], total=1, page=1, page_size=25), WalletFilters(), "UTC"
    )
    [receipt] = find_all(history, "a", text="Receipt")
    assert receipt["attributes"]["href"] == "/api/orders/MV-7K3Q9P/receipt.pdf"
    assert receipt["attributes"]["aria-label"] == "Receipt for order MV-7K3Q9P (PDF)"


def test_statement_months_read_as_words() -> None:
    assert provider_wallet.month_label("2026-11") == "November 2026"
    assert (
        provider_wallet.STATEMENT_PATH.format(month="2026-11") == "/api/provider-wallet/statement/2026-11.pdf"
    )


def test_removed_lines_are_left_out_and_the_kind_falls_back_to_an_organization() -> None:
    values = {"d0": "a", "q0": "1", "p0": "1", "d1": None, "q1": None, "p1": None, "d12": "b", "notes": "x"}
    assert invoices.line_keys(values) == [0, 12]
    assert invoices.recipient_kind({"recipient_kind": "patient"}) is RecipientKind.patient
    assert invoices.recipient_kind({"recipient_kind": "<script>"}) is RecipientKind.organization
