"""Payout Requests (/dashboard/payout-requests, issue 14 item 6): a provider sees their available balance,
asks for a payout of some of it (at least the minimum, one open request at a time) and follows their
requests' statuses. The rules and the refusals' wording live in app/services/ledger; this screen shows them.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.ledger import get_provider_balances, list_my_payouts, request_payout
from app.settings import get_settings
from components.context import use_session
from components.format import format_date, format_money
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import (
    Badge,
    Button,
    Column,
    DataTable,
    Field,
    QueryView,
    Region,
    ServerForm,
    StaffCard,
    StatCard,
    Tone,
    dashboard_header,
    dialog_actions,
    portal_body,
    portal_page,
    stat_group,
)
from models.ledger import PayoutRead, PayoutStatus

PATH = "/dashboard/payout-requests"
REQUESTED = "Payout requested"
BAD_AMOUNT = "Enter the amount in dollars, e.g. 120 or 120.50."
STATUS_LABELS = {
    PayoutStatus.pending: "Pending",
    PayoutStatus.approved: "Approved",
    PayoutStatus.in_transit: "In transit",
    PayoutStatus.paid: "Paid",
    PayoutStatus.rejected: "Rejected",
    PayoutStatus.failed: "Failed",
}
STATUS_TONES: dict[PayoutStatus, Tone] = {
    PayoutStatus.pending: "warning",
    PayoutStatus.approved: "info",
    PayoutStatus.in_transit: "info",
    PayoutStatus.paid: "success",
    PayoutStatus.rejected: "danger",
    PayoutStatus.failed: "danger",
}


def parse_amount(text: str) -> Decimal | None:
    """'1,234.50' or '$120' → Decimal; None when it is not an amount of dollars and cents."""
    cleaned = (text or "").strip().replace(",", "").removeprefix("$").strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    if not value.is_finite() or value.as_tuple().exponent < -2:  # type: ignore[operator]
        return None
    return value


def status_badge(status: PayoutStatus) -> VdomDict:
    return Badge(STATUS_LABELS[status], tone=STATUS_TONES[status])


def payout_columns() -> list[Column]:
    return [
        Column("requested_at", "Requested", render=lambda p: format_date(p.requested_at)),
        Column("amount", "Amount", render=lambda p: format_money(p.amount), numeric=True),
        Column("status", "Status", render=lambda p: status_badge(p.status)),
        Column("reason", "Note", render=_note),
    ]


def _note(payout: PayoutRead) -> str:
    """Why it was rejected or failed, else the bank transfer's reference once it was sent."""
    if payout.reason:
        return payout.reason
    return f"Transfer reference {payout.transfer_reference}" if payout.transfer_reference else "—"


@component
def PayoutRequestsPage() -> VdomDict:
    balances = use_query(get_provider_balances)
    mine = use_query(list_my_payouts)
    return portal_page(
        dashboard_header(
            "Payout Requests",
            lead="Move your available earnings to your bank account and follow each request.",
        ),
        portal_body(
            QueryView(balances, _balance_cards, loading_label="Loading your balance…"),
            _RequestForm(refetch=[balances, mine]),
            StaffCard(
                "My payout requests",
                QueryView(
                    mine,
                    lambda rows: DataTable(
                        payout_columns(),
                        rows,
                        caption="My payout requests",
                        row_key=lambda p: p.id,
                        empty="You have not requested a payout yet.",
                    ),
                    empty="You have not requested a payout yet.",
                    loading_label="Loading your requests…",
                ),
                title_id="payouts-list-title",
            ),
            class_name="payouts",
        ),
    )


def _balance_cards(balances: Any) -> VdomDict:
    return stat_group(
        StatCard("Available", format_money(balances.available), hint="You can request this"),
        StatCard("Pending", format_money(balances.pending), hint="Inside the dispute window"),
        StatCard("In a payout", format_money(balances.in_payout), hint="In an open request"),
        StatCard("Paid out", format_money(balances.paid_out), hint="All time"),
        label=None,
        tag="div",
    )


@component
def _RequestForm(refetch: list[Any]) -> VdomDict:
    session = use_session()
    form = use_form(amount="")
    problem, set_problem = use_state("")
    minimum = format_money(get_settings().payout_minimum)
    send = use_action(request_payout, refetch=refetch, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        amount = parse_amount(str(form.values.get("amount", "")))
        if amount is None:
            set_problem(BAD_AMOUNT)
            return
        set_problem("")
        done: PayoutRead | None = await send.run(amount=amount)
        if done is not None:
            session.toaster.success(REQUESTED, f"{format_money(done.amount)}: staff will review it shortly.")

    return Region(
        "Request a payout",
        html.p(
            {"class_name": "modal-lead", "id": "payout-rules"},
            f"The smallest payout is {minimum}. You can have one request in progress at a time.",
        ),
        ServerForm(
            Field(
                "Amount (USD)",
                "amount",
                form=form,
                id="payout-amount",
                input_mode="decimal",
                hint=f"At least {minimum}, at most your available balance.",
                error=problem or None,
                required=True,
                max_length=16,
                placeholder="e.g. 150.00",
            ),
            dialog_actions(
                Button("Request payout", type="submit", pending=send.pending, pending_label="Requesting…")
            ),
            on_submit=submit,
            class_name="payout-form",
        ),
        title_id="payout-new-title",
        class_name="staff-card",
    )
