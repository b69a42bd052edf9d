"""The Wallet and Provider Wallet screens' logic (pages/dashboard/wallet.py, provider_wallet.py): filters read
from and written to the URL, the day range in the viewer's zone, money always with two decimals, the
balance cards, the statement's release status and the "for providers" / "no profile" messages."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from components.format import format_money
from models.ledger import (
    EntryKind,
    ProviderBalancesRead,
    StatementLineRead,
    StatementPageRead,
    WalletLineRead,
    WalletPageRead,
    WalletRead,
)
from pages.dashboard import provider_wallet, wallet
from pages.dashboard.wallet import WalletFilters
from tests.ui.harness import find, find_all, text

NOW = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)


def test_money_always_has_two_decimals() -> None:
    assert format_money(Decimal("120")) == "$120.00"
    assert format_money(Decimal("89.5")) == "$89.50"
    assert format_money(Decimal("-5")) == "-$5.00"
    assert format_money(Decimal("1234.567")) == "$1,234.57"


def test_filters_come_from_the_url_and_ignore_nonsense() -> None:
    got = WalletFilters.from_params(
        {"kind": ["refund"], "from": ["2026-01-01"], "to": ["2026-01-31"], "page": ["3"]}
    )
    assert got == WalletFilters("refund", date(2026, 1, 1), date(2026, 1, 31), 3)
    bad = WalletFilters.from_params({"kind": ["payout_paid"], "from": ["soon"], "page": ["-2"]})
    assert bad == WalletFilters()
    swapped = WalletFilters.from_params({"from": ["2026-02-01"], "to": ["2026-01-01"]})
    assert (swapped.since, swapped.until) == (date(2026, 1, 1), date(2026, 2, 1))


def test_filters_write_the_url_and_the_csv_link_with_the_same_filters() -> None:
    filters = WalletFilters("credit_adjustment", date(2026, 1, 1), None, 2)
    assert filters.href() == "/dashboard/wallet?kind=credit_adjustment&from=2026-01-01&page=2"
    assert filters.href(page=1) == "/dashboard/wallet?kind=credit_adjustment&from=2026-01-01"
    assert filters.csv_href() == "/api/wallet/history.csv?kind=credit_adjustment&from=2026-01-01"
    assert (
        WalletFilters().href() == "/dashboard/wallet"
        and WalletFilters().csv_href() == "/api/wallet/history.csv"
    )


def test_the_day_range_covers_whole_days_in_the_viewers_zone() -> None:
    since, until = WalletFilters(since=date(2026, 1, 1), until=date(2026, 1, 1)).window("America/New_York")
    assert since is not None and until is not None
    assert since.astimezone(UTC) == datetime(2026, 1, 1, 5, tzinfo=UTC)
    assert until - since == timedelta(days=1)
    assert WalletFilters().window("UTC") == (None, None)


def test_wallet_cards_and_history_rows() -> None:
    cards = wallet.balance_cards(WalletRead(credit=Decimal("25"), booked=Decimal("79.5")))
    assert "Credit $25.00" in text(cards) and "$79.50" in text(cards)
    page = WalletPageRead(
        items=[
            WalletLineRead(
                entry_id="e1",
                kind=EntryKind.refund,
                amount=Decimal("79"),
                description="Visit cancelled",
                order_id="o1",
                appointment_id="a1",
                created_at=NOW,
            )
        ],
        total=1,
        page=1,
        page_size=25,
    )
    section = wallet.history_section(page, WalletFilters(kind="refund"), "America/New_York")
    row = text(find(section, "tbody"))
    assert "Mar 10, 2026" in row and "Refund" in row and "Visit cancelled" in row and "$79.00" in row
    link = find(section, "a", text="Download CSV")
    assert link["attributes"]["href"] == "/api/wallet/history.csv?kind=refund"
    empty = wallet.history_section(
        WalletPageRead(items=[], total=0, page=1, page_size=25), WalletFilters(), "UTC"
    )
    assert "No credit movements yet" in text(empty)


def test_provider_cards_say_when_pending_becomes_available() -> None:
    balances = ProviderBalancesRead(
        provider_id="p1",
        pending=Decimal("79"),
        available=Decimal("150.5"),
        in_payout=Decimal("0"),
        paid_out=Decimal("1200"),
    )
    shown = provider_wallet.balance_cards(balances, 72)
    labels = [text(find(card, "h2")) for card in find_all(shown, "article")]
    assert labels == ["Pending", "Available", "In payout", "Paid out"]
    assert "$79.00" in text(shown) and "$150.50" in text(shown) and "$1,200.00" in text(shown)
    assert "available 72 hours after the visit is completed" in text(shown)


def test_statement_lines_show_money_and_release_status() -> None:
    line = StatementLineRead(
        appointment_id="a1",
        order_id="o1",
        starts_at=NOW - timedelta(days=1),
        completed_at=NOW,
        service_name="Routine Blood Draw",
        price=Decimal("79"),
        platform_fee=Decimal("3.95"),
        refunded=Decimal("0"),
        earning=Decimal("79"),
        released_at=None,
        releases_at=NOW + timedelta(hours=72),
    )
    released = line.model_copy(update={"appointment_id": "a2", "released_at": NOW, "releases_at": None})
    page = StatementPageRead(items=[line, released], total=30, page=1, page_size=25)
    section = provider_wallet.statement_section(page, "UTC")
    rows = find_all(section, "tr")[1:]
    assert (
        "Routine Blood Draw" in text(rows[0])
        and "$3.95" in text(rows[0])
        and "Pending until Mar 13, 2026" in text(rows[0])
    )
    assert "Available" in text(rows[1])
    assert "Page 1 of 2" in text(section)
    assert find(section, "a", text="Next")["attributes"]["href"] == "/dashboard/provider-wallet?page=2"


def test_pay_at_visit_shows_what_is_owed_collected_and_due() -> None:
    balances = ProviderBalancesRead(
        provider_id="p1",
        pending=Decimal("0"),
        available=Decimal("0"),
        in_payout=Decimal("0"),
        paid_out=Decimal("0"),
        owed_to_platform=Decimal("3.95"),
        fees_netted=Decimal("7.90"),
        collected_at_visits=Decimal("237"),
    )
    shown = provider_wallet.balance_cards(balances, 72)
    labels = [text(find(card, "h2")) for card in find_all(shown, "article")]
    assert labels == ["Pending", "Available", "In payout", "Paid out", "Owed to MediVisit"]
    assert "$3.95" in text(shown) and "netted from your next payout request" in text(shown)
    assert "Fees collected at visits, netted: $7.90" in text(shown)
    assert "Collected at visits (cash / card reader / other): $237.00" in text(shown)
    line = StatementLineRead(
        appointment_id="a1",
        order_id="o1",
        starts_at=NOW - timedelta(days=1),
        completed_at=NOW,
        service_name="Routine Blood Draw",
        price=Decimal("79"),
        platform_fee=Decimal("3.95"),
        refunded=Decimal("0"),
        earning=Decimal("79"),
        released_at=NOW,
        releases_at=None,
        collected_in_person=True,
        collection_method="card_reader",
    )
    due = line.model_copy(update={"appointment_id": "a2", "payment_due": Decimal("32.95")})
    page = StatementPageRead(items=[line, due], total=2, page=1, page_size=25)
    rows = find_all(provider_wallet.statement_section(page, "UTC"), "tr")[1:]
    assert "Collected at visit (card reader)" in text(rows[0])
    assert "Payment due $32.95" in text(rows[1])


def test_page_numbers_in_the_url() -> None:
    assert provider_wallet.page_of({"page": ["4"]}) == 4
    assert provider_wallet.page_of({"page": ["x"]}) == 1 and provider_wallet.page_of({}) == 1
    assert provider_wallet.page_href(1) == "/dashboard/provider-wallet"
