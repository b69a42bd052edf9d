"""Provider Wallet (/dashboard/provider-wallet; issue 14): the signed-in provider's earnings — pending (inside
the dispute window), available (may be requested as a payout), in payout (an open request) and paid out —
as stat cards, with the rule that pending becomes available `DISPUTE_WINDOW_HOURS` after the visit is
completed, and what pay at visit adds (issue 29): "Owed to MediVisit" (the platform fees the provider
collected in person, netted at their next payout request), what they collected in person and the fees
netted so far; then the per-visit statement (price, platform fee, refunded, earning, when it is or was
released, or "Collected at visit (cash)" / "Payment due $X" for a pay-at-visit visit), 25 a page in the URL
(`?page=2`); and a month picker of the months with activity that downloads that month's statement as PDF
(`GET /api/provider-wallet/statement/{YYYY-MM}.pdf`). With Stripe as the gateway, the payout account
(`payout_setup`: set up payouts with Stripe, its status) stands under the balances. A provider-side account without a provider profile is
told so; a patient is told the page is for providers (the ledger service refuses them anyway). The numbers
are app/services/ledger's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, html, use_state
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.principal import Principal
from app.services.errors import NotFound
from app.services.ledger import get_provider_balances, list_provider_statement, list_statement_months
from app.settings import get_settings
from components.context import use_session
from components.format import format_date, format_money
from components.frame.dashboard_links import PROVIDER_SIDE
from components.hooks import use_query
from components.kit import (
    Badge,
    Column,
    DataTable,
    QueryView,
    Select,
    StaffCard,
    StatCard,
    UserText,
    button_link,
    dashboard_header,
    empty_state,
    hint,
    portal_body,
    portal_page,
    stat_group,
)
from models.ledger import ProviderBalancesRead, StatementLineRead, StatementPageRead
from pages.dashboard.payout_setup import PayoutSetup, after_stripe

PATH = "/dashboard/provider-wallet"
STATEMENT_PATH = "/api/provider-wallet/statement/{month}.pdf"
PAGE_SIZE = 25
MAX_PAGE = 10_000
NO_PROFILE_TITLE = "No provider profile yet"
NO_PROFILE_TEXT = (
    "Earnings appear here once your provider profile is set up and you complete visits. "
    "Finish your provider enrollment to get started."
)
FOR_PROVIDERS_TITLE = "The provider wallet is for providers"
FOR_PROVIDERS_TEXT = (
    "It shows what providers earn from their visits. Your own credit and payments are in your Wallet."
)


OWED_HINT = (
    "Platform fees you collected from patients at pay-at-visit visits; netted from your next payout request."
)


def release_rule(hours: int) -> str:
    """'Pending earnings become available 72 hours after the visit is completed.'"""
    unit = "hour" if hours == 1 else "hours"
    return (
        f"Pending earnings become available {hours} {unit} after the visit is completed "
        "(the time a patient has to raise a dispute)."
    )


def page_of(params: dict[str, list[str]]) -> int:
    text = (params.get("page") or [""])[0].strip()[:6]
    return min(int(text), MAX_PAGE) if text.isdigit() and int(text) > 0 else 1


def page_href(page: int) -> str:
    return f"{PATH}?page={page}" if page > 1 else PATH


async def balances_or_none(*, session: Any, actor: Principal) -> ProviderBalancesRead | None:
    """The provider's balances, or None when the account has no provider profile."""
    try:
        return await get_provider_balances(session=session, actor=actor)
    except NotFound:
        return None


async def statement_or_none(
    *, session: Any, actor: Principal, page: int, page_size: int
) -> StatementPageRead | None:
    try:
        return await list_provider_statement(session=session, actor=actor, page=page, page_size=page_size)
    except NotFound:
        return None


@component
def ProviderWalletPage() -> VdomDict:
    session = use_session()
    params = use_search_params()
    provider_side = session.signed_in_user.role in PROVIDER_SIDE
    body: Any = (
        html._(
            _Balances(),
            PayoutSetup(after_stripe(params)),
            _MonthlyStatements(),
            _Statement(page_of(params)),
        )
        if provider_side
        else html.div(
            {"class_name": "staff-card"},
            empty_state(
                FOR_PROVIDERS_TITLE,
                FOR_PROVIDERS_TEXT,
                action=button_link("Open my Wallet", "/dashboard/wallet", size="sm"),
            ),
        )
    )
    return portal_page(
        dashboard_header(
            "Provider Wallet",
            lead="What you earned from your visits: pending, available to request, in payout and paid out.",
        ),
        portal_body(body),
    )


def no_profile() -> VdomDict:
    return html.div({"class_name": "staff-card"}, empty_state(NO_PROFILE_TITLE, NO_PROFILE_TEXT))


@component
def _Balances() -> VdomDict:
    query = use_query(balances_or_none)
    return QueryView(
        query,
        lambda balances: balance_cards(balances, get_settings().dispute_window_hours),
        is_empty=lambda data: data is None,
        empty=no_profile(),
        loading_label="Loading your balances…",
    )


def balance_cards(balances: ProviderBalancesRead, hours: int) -> VdomDict:
    # Pay at visit's card and lines only for a provider who has collected in person (else always $0.00).
    in_person = bool(balances.collected_at_visits or balances.fees_netted or balances.owed_to_platform)
    return html.section(
        {"class_name": "provider-wallet-balances", "aria-label": "Your balances"},
        stat_group(
            StatCard(
                "Pending", format_money(balances.pending), icon="clock", hint="Inside the dispute window."
            ),
            StatCard(
                "Available",
                format_money(balances.available),
                icon="wallet",
                hint="Yours to request as a payout.",
            ),
            StatCard(
                "In payout", format_money(balances.in_payout), icon="arrow-right", hint="In an open payout."
            ),
            StatCard(
                "Paid out", format_money(balances.paid_out), icon="check", hint="Paid to you, all time."
            ),
            StatCard(
                "Owed to MediVisit",
                format_money(balances.owed_to_platform),
                icon="receipt",
                hint=OWED_HINT,
            )
            if in_person
            else "",
            label=None,
            tag="div",
        ),
        html.p({"class_name": "hint provider-wallet-rule"}, release_rule(hours)),
        html.ul(
            {"class_name": "provider-wallet-in-person"},
            html.li(
                "Collected at visits (cash / card reader / other): "
                f"{format_money(balances.collected_at_visits)}, paid to you in person (never pending)."
            ),
            html.li(f"Fees collected at visits, netted: {format_money(balances.fees_netted)}"),
        )
        if in_person
        else "",
    )


async def months_or_none(*, session: Any, actor: Principal) -> list[str] | None:
    try:
        return await list_statement_months(session=session, actor=actor)
    except NotFound:
        return None


def month_label(month: str) -> str:
    """'2026-11' → 'November 2026'."""
    return datetime.strptime(month, "%Y-%m").strftime("%B %Y")


@component
def _MonthlyStatements() -> VdomDict:
    query = use_query(months_or_none)
    # No profile: the balances above already say so.
    return QueryView(
        query,
        lambda months: _MonthPicker(months),
        is_empty=lambda data: data is None,
        empty="",
        loading_label="Loading your statements…",
    )


@component
def _MonthPicker(months: list[str]) -> VdomDict:
    chosen, set_chosen = use_state(months[0] if months else "")
    month = chosen if chosen in months else (months[0] if months else "")
    return StaffCard(
        "Monthly statements",
        html.div(
            {"class_name": "monthly-statement-picker"},
            Select(
                "Month",
                "statement-month",
                options=[(m, month_label(m)) for m in months],
                default=month,
                on_change=set_chosen,
                id="statement-month",
                hint="Opening and closing available balance, earnings released, payouts and each visit (UTC).",
            ),
            button_link(
                "Download PDF",
                STATEMENT_PATH.format(month=month),
                download="",
                size="md",  # the default, named: mypy checks the aria dict below against every keyword left
                **{"aria-label": f"Download the statement for {month_label(month)} (PDF)"},
            ),
        )
        if months
        else hint("No statements yet: a month appears here once money moves on your earnings."),
        title_id="monthly-title",
        class_name="monthly-statements",
    )


@component
def _Statement(page: int) -> VdomDict:
    session = use_session()
    query = use_query(statement_or_none, page=page, page_size=PAGE_SIZE)
    # No profile: the balances above already say so.
    return QueryView(
        query,
        lambda data: statement_section(data, session.time_zone),
        is_empty=lambda data: data is None,
        empty="",
        loading_label="Loading your statement…",
    )


def _day(moment: datetime | None, zone: ZoneInfo) -> str:
    return format_date(moment.astimezone(zone)) if moment else "—"


def release_badge(line: StatementLineRead, zone: ZoneInfo) -> VdomDict:
    if line.payment_due > 0:
        return Badge(
            f"Payment due {format_money(line.payment_due)}", tone="warning", class_name="release-status"
        )
    if line.collected_in_person:
        method = {"card_reader": "card reader"}.get(
            line.collection_method or "", line.collection_method or ""
        )
        return Badge(f"Collected at visit ({method})", tone="success", class_name="release-status")
    if line.released_at is not None:
        return Badge("Available", tone="success", class_name="release-status")
    return html.span(
        Badge("Pending", tone="warning", class_name="release-status"),
        html.span({"class_name": "hint"}, f" until {_day(line.releases_at, zone)}"),
    )


def price_cell(line: StatementLineRead) -> VdomDict | str:
    """The price, and for a visit booked at a sale's price its original price, the discount and who paid it."""
    note = line.discount_note
    if not note or line.original_price is None:
        return format_money(line.price)
    return html.span(
        {"class_name": "statement-price"},
        format_money(line.original_price),
        html.br(),
        html.span({"class_name": "hint discount-note"}, note),
    )


def statement_columns(time_zone: str) -> tuple[Column, ...]:
    zone = ZoneInfo(time_zone)
    return (
        Column("completed", "Completed", render=lambda line: _day(line.completed_at, zone)),
        Column("service", "Service", render=lambda line: UserText(line.service_name)),
        Column("price", "Price", render=price_cell, numeric=True),
        Column("fee", "Platform fee", render=lambda line: format_money(line.platform_fee), numeric=True),
        Column("refunded", "Refunded", render=lambda line: format_money(line.refunded), numeric=True),
        Column("earning", "Earning", render=lambda line: format_money(line.earning), numeric=True),
        Column("status", "Status", render=lambda line: release_badge(line, zone)),
    )


def statement_section(page: StatementPageRead, time_zone: str) -> VdomDict:
    return StaffCard(
        "Statement per visit",
        hint(
            "The platform fee is paid by the patient on top of your price; your earning is the price less refunds. "
            "A sale's discount funded by MediVisit leaves your earning at your full price."
        ),
        DataTable(
            statement_columns(time_zone),
            page.items,
            caption="Statement per visit",
            page=page.page,
            page_size=page.page_size,
            total=page.total,
            page_href=page_href,
            row_key=lambda line: line.appointment_id,
            empty="No completed visits yet. Each completed visit's earning will appear here.",
        ),
        title_id="statement-title",
        class_name="provider-statement",
    )
