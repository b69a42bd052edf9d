"""Wallet (/dashboard/wallet; issue 14): the signed-in patient's credit (refunds land here as credit, staff may
add goodwill credit) and what is booked but not yet settled, as stat cards; the history of the credit, 25 a
page, newest first, filtered by kind and by a date range in the URL (`?kind=refund&from=2026-01-01&to=…`,
days in the viewer's time zone, both ends included); and a CSV download of the same filtered history
(`GET /api/wallet/history.csv`, api/wallet.py). Each movement that belongs to an order links to the
order's receipt (PDF). Invoices staff sent to this account (app/services/invoices) are listed with their PDF
under Invoices (`#invoices`), shown once there is one. The numbers are app/services/ledger's. With the card
gateway (PAYMENT_GATEWAY=stripe), the cards the patient saved at checkout (brand, last four digits, expiry,
read from Stripe through app/services/payments), each removable after a confirmation; with pay at visit
that section is absent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from reactpy import component, html, use_state
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.invoices import list_my_invoices
from app.services.ledger import get_my_wallet, list_my_wallet_history
from app.services.payments import get_payment_options, list_my_cards, remove_my_card
from app.services.validation import day_in_url
from components.browser import client_get_form
from components.context import use_session
from components.format import format_date, format_money, format_time
from components.hooks import use_action, use_query
from components.invoice_ui import cents_text, invoice_pdf_link, invoice_status_badge
from components.kit import (
    Button,
    Column,
    DataTable,
    Dialog,
    QueryView,
    StaffCard,
    StatCard,
    UserText,
    browser_field,
    browser_select,
    button_link,
    dashboard_header,
    dialog_actions,
    form_error,
    hint,
    portal_body,
    portal_page,
    stat_group,
)
from components.order_ui import receipt_link
from models.invoice import InvoicePageRead
from models.ledger import EntryKind, WalletLineRead, WalletPageRead, WalletRead
from models.payment import SavedCardRead

PATH = "/dashboard/wallet"
CSV_PATH = "/api/wallet/history.csv"
PAGE_SIZE = 25
INVOICES_SHOWN = 100
MAX_PAGE = 10_000

# The kinds of movement a patient's credit sees (the filter's choices); other kinds get a readable label.
KIND_LABELS: dict[EntryKind, str] = {
    EntryKind.refund: "Refund",
    EntryKind.credit_adjustment: "Goodwill credit",
}


def kind_label(kind: EntryKind) -> str:
    return KIND_LABELS.get(kind) or kind.value.replace("_", " ").capitalize()


@dataclass(frozen=True)
class WalletFilters:
    """The history's filters and page, read from and written to the URL."""

    kind: str = ""
    since: date | None = None  # first day shown
    until: date | None = None  # last day shown (included)
    page: int = 1
    # Why a day in the URL was left out (not a date, or outside 1900–2999), shown above the filters.
    problem: str = field(default="", compare=False)

    @classmethod
    def from_params(cls, params: dict[str, list[str]]) -> WalletFilters:
        def first(name: str) -> str:
            return (params.get(name) or [""])[0].strip()[:40]

        kind, page = first("kind"), first("page")
        (since, since_problem), (until, until_problem) = day_in_url(first("from")), day_in_url(first("to"))
        if since and until and until < since:
            since, until = until, since
        return cls(
            kind=kind if kind in {k.value for k in KIND_LABELS} else "",
            since=since,
            until=until,
            page=min(int(page), MAX_PAGE) if page.isdigit() and int(page) > 0 else 1,
            problem=since_problem or until_problem,
        )

    def params(self, **changes: Any) -> dict[str, str]:
        values = {
            "kind": self.kind,
            "from": self.since.isoformat() if self.since else "",
            "to": self.until.isoformat() if self.until else "",
            "page": str(self.page) if self.page > 1 else "",
        } | {k: str(v) for k, v in changes.items()}
        if values.get("page") == "1":
            values["page"] = ""
        return {k: v for k, v in values.items() if v}

    def href(self, **changes: Any) -> str:
        query = urlencode(self.params(**changes))
        return f"{PATH}?{query}" if query else PATH

    def csv_href(self) -> str:
        query = urlencode(self.params(page=1))
        return f"{CSV_PATH}?{query}" if query else CSV_PATH

    def window(self, time_zone: str) -> tuple[datetime | None, datetime | None]:
        """The half-open range of moments the chosen days cover in `time_zone`."""
        zone = ZoneInfo(time_zone)
        since = datetime.combine(self.since, time(), zone) if self.since else None
        until = datetime.combine(self.until + timedelta(days=1), time(), zone) if self.until else None
        return since, until

    @property
    def filtered(self) -> bool:
        return bool(self.kind or self.since or self.until)


@component
def WalletPage() -> VdomDict:
    filters = WalletFilters.from_params(use_search_params())
    return portal_page(
        dashboard_header(
            "Wallet", lead="Your credit (refunds and goodwill credit land here) and every movement of it."
        ),
        portal_body(
            _Balances(),
            _Invoices(),
            _Cards() if get_payment_options().cards_on_file else "",
            date_notice(filters),
            filter_form(filters),
            _History(filters, key="history " + filters.href()),
        ),
    )


@component
def _Balances() -> VdomDict:
    query = use_query(get_my_wallet)
    return QueryView(
        query, balance_cards, is_empty=lambda data: data is None, loading_label="Loading your wallet…"
    )


def balance_cards(wallet: WalletRead) -> VdomDict:
    return stat_group(
        StatCard(
            "Credit",
            format_money(wallet.credit),
            icon="wallet",
            hint="Refunds and goodwill credit, yours to spend on visits.",
        ),
        StatCard(
            "Booked",
            format_money(wallet.booked),
            icon="calendar",
            hint="Visits booked, not yet settled: paid when completed.",
        ),
        label="Your balances",
        class_name="wallet-stats",
    )


@component
def _Invoices() -> VdomDict:
    query = use_query(list_my_invoices, page=1, page_size=INVOICES_SHOWN)
    return QueryView(
        query,
        invoices_section,
        is_empty=lambda page: page is None or not page.items,
        empty="",
        loading_label="Loading your invoices…",
    )


def invoices_section(page: InvoicePageRead) -> VdomDict:
    columns = (
        Column("number", "Invoice", render=lambda i: i.number),
        Column("issued", "Issued", render=lambda i: format_date(i.sent_at) if i.sent_at else "—"),
        Column("due", "Due", render=lambda i: format_date(i.due_on)),
        Column("amount", "Amount", render=lambda i: cents_text(i.total_cents), numeric=True),
        Column("status", "Status", render=lambda i: invoice_status_badge(i.status)),
        Column("pdf", "PDF", render=lambda i: invoice_pdf_link(i.number)),
    )
    return StaffCard(
        "Invoices",
        hint("Invoices we sent you. Pay them as each one says; questions go to our support team."),
        DataTable(
            columns,
            page.items,
            caption="Your invoices, newest first",
            page_size=INVOICES_SHOWN,
            row_key=lambda i: i.id,
        ),
        title_id="invoices",
        class_name="wallet-invoices",
        id="invoices-section",
    )


def card_name(card: SavedCardRead) -> str:
    """'Visa ending in 4242' (the brand as Stripe names it, readable)."""
    brand = {"amex": "American Express", "diners": "Diners Club", "unionpay": "UnionPay"}.get(
        card.brand, card.brand.replace("_", " ").title()
    )
    return f"{brand} ending in {card.last4}"


def card_expiry(card: SavedCardRead) -> str:
    return f"Expires {card.exp_month:02d}/{card.exp_year}"


@component
def _Cards() -> VdomDict:
    session = use_session()
    query = use_query(list_my_cards)
    removing, set_removing = use_state(None)

    def removed(_result: object) -> None:
        session.toaster.success("Card removed", card_name(removing) if removing else "")
        set_removing(None)

    remove = use_action(remove_my_card, refetch=[query], on_success=removed)

    async def confirm() -> None:
        if removing is not None:
            await remove.run(card_id=removing.id)

    def body(cards: list[SavedCardRead]) -> VdomDict:
        if not cards:
            return hint("No saved cards. A card you pay with at checkout is kept here.")
        return html.ul(
            {"class_name": "summary-lines wallet-cards"},
            *[
                html.li(
                    {"key": card.id},
                    html.div(
                        {"class_name": "summary-line-text"},
                        html.strong(card_name(card)),
                        html.span({"class_name": "hint"}, card_expiry(card)),
                    ),
                    Button(
                        "Remove",
                        on_click=lambda card=card: set_removing(card),
                        variant="outline",
                        size="sm",
                        aria_label=f"Remove {card_name(card)}",
                    ),
                )
                for card in cards
            ],
        )

    dialog = Dialog(
        "Remove this card?",
        dialog_actions(
            Button("Keep it", on_click=lambda: set_removing(None), variant="outline"),
            Button(
                "Remove card",
                on_click=confirm,
                variant="danger",
                pending=remove.pending,
                pending_label="Removing…",
            ),
        ),
        open=removing is not None,
        on_close=lambda: set_removing(None),
        id="remove-card",
        busy=remove.pending,
        description=(
            f"{card_name(removing)} will no longer be saved for your payments. You can add it again at checkout."
            if removing is not None
            else None
        ),
    )
    return StaffCard(
        "Saved cards",
        QueryView(query, body, is_empty=lambda data: data is None, loading_label="Loading your cards…"),
        dialog,
        title_id="wallet-cards-title",
        class_name="wallet-cards-section",
    )


def date_notice(filters: WalletFilters) -> VdomDict | str:
    """Why a date in the URL was not used (a hand-edited or old link), or nothing."""
    if not filters.problem:
        return ""
    return form_error(f"A date in the address was left out. {filters.problem}")


def filter_form(filters: WalletFilters) -> VdomDict:
    """A GET form the browser handles alone (the filters live in the URL); keyed by them so a new URL
    remounts it with its values."""
    return html.form(
        {
            "key": "filters " + filters.href(page=1),
            "class_name": "form audit-filters",
            "method": "get",
            "action": PATH,
            "role": "search",
            "aria-label": "Filter the wallet history",
            **client_get_form(),
        },
        browser_select(
            "Kind",
            "kind",
            options=[("", "Every kind"), *((k.value, label) for k, label in KIND_LABELS.items())],
            value=filters.kind,
            id_prefix="wallet",
        ),
        browser_field(
            "From",
            "from",
            value=filters.since.isoformat() if filters.since else "",
            type="date",
            id_prefix="wallet",
        ),
        browser_field(
            "To",
            "to",
            value=filters.until.isoformat() if filters.until else "",
            type="date",
            id_prefix="wallet",
        ),
        html.div(
            {"class_name": "audit-filter-actions"},
            Button("Filter", type="submit", icon="search"),
            button_link("Clear", PATH, variant="outline"),
        ),
    )


@component
def _History(filters: WalletFilters) -> VdomDict:
    session = use_session()
    since, until = filters.window(session.time_zone)
    query = use_query(
        list_my_wallet_history,
        kinds=(EntryKind(filters.kind),) if filters.kind else (),
        since=since,
        until=until,
        page=filters.page,
        page_size=PAGE_SIZE,
    )
    return QueryView(
        query,
        lambda page: history_section(page, filters, session.time_zone),
        is_empty=lambda page: page is None,
        loading_label="Loading your history…",
    )


def history_columns(time_zone: str) -> tuple[Column, ...]:
    zone = ZoneInfo(time_zone)

    def when(line: WalletLineRead) -> str:
        local = line.created_at.astimezone(zone)
        return f"{format_date(local)} · {format_time(line.created_at, time_zone)}"

    return (
        Column("date", "Date", render=when),
        Column("kind", "Kind", render=lambda line: kind_label(line.kind)),
        Column("description", "Description", render=lambda line: UserText(line.description or "—")),
        Column("amount", "Amount", render=lambda line: format_money(line.amount), numeric=True),
        Column(
            "receipt",
            "Receipt",
            render=lambda line: receipt_link(line.order_number) if line.order_number else "—",
        ),
    )


def history_section(page: WalletPageRead, filters: WalletFilters, time_zone: str) -> VdomDict:
    empty = (
        "No movement matches these filters."
        if filters.filtered
        else "No credit movements yet. Refunds and goodwill credit will appear here."
    )
    return StaffCard(
        "History",
        DataTable(
            history_columns(time_zone),
            page.items,
            caption="Wallet history",
            page=page.page,
            page_size=page.page_size,
            total=page.total,
            page_href=lambda number: filters.href(page=number),
            row_key=lambda line: line.entry_id,
            empty=empty,
        ),
        title_id="wallet-history-title",
        head=(button_link("Download CSV", filters.csv_href(), variant="outline", size="sm", download=""),),
        class_name="wallet-history",
    )
