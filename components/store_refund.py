"""A store order's money for payments staff (issue 29 item 3), one component for every screen that refunds a
store order: the staff Store Orders queue (staff/store_orders.py) and the help-desk ticket of an order
(helpdesk/ticket_view.py). It shows the order's total, each refund (amount, when, by whom, why, to the card
with Stripe's status or as wallet credit) and what is left to refund, and a Refund form: all or part of what
is left (prefilled), a required reason and, for an order paid by card, where it goes ("To the card", the
default, at most what the card paid for the products; or "As wallet credit"); an order paid on delivery is
refunded as wallet credit only (the form says so). The service (app.services.store.refund_store_order)
checks process_payments and every rule; its refusals show above the form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.errors import ValidationFailed
from app.services.store import get_store_order_money, refund_store_order
from components.context import use_session
from components.format import format_money
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    Field,
    QueryView,
    ServerForm,
    TextArea,
    button_row,
    dialog_actions,
    facts,
    form_error,
    hint,
)
from components.visit_money import (
    MAX_AMOUNT,
    MAX_REASON,
    RefundDestination,
    parse_amount,
    refund_row,
)
from models.card_refund import StoreOrderMoneyRead

WALLET_ONLY = (
    "This order was paid on delivery: it is refunded as wallet credit to the patient, who is notified."
)
NOT_PAID = "Nothing was paid for this order yet: there is nothing to refund."


def _note(money: StoreOrderMoneyRead) -> str:
    if not (money.paid_by_card and money.card_refundable > 0):
        return WALLET_ONLY
    return (
        f"To the card: at most {format_money(money.card_refundable)} (what the card paid for the products); "
        "the bank may take 5-10 business days. As wallet credit: at once. The patient is notified."
    )


def store_money_view(money: StoreOrderMoneyRead, time_zone: str) -> VdomDict:
    rows: list[tuple[Any, ...]] = [
        ("Total", format_money(money.total), " (paid by card)" if money.paid_by_card else ""),
        ("Refunded", format_money(money.refunded)),
        ("Left to refund", format_money(money.refundable)),
    ]
    return html.div(
        facts(*rows, class_name="settings-facts visit-facts"),
        html.ul(
            {"class_name": "visit-refunds", "aria-label": f"Refunds of order {money.number}"},
            *[refund_row(r, time_zone) for r in money.refunds],
        )
        if money.refunds
        else "",
        "" if money.paid or money.refunds else hint(NOT_PAID),
    )


@component
def StoreOrderRefund(order_id: str, on_changed: Callable[[], None], title_id: str = "") -> Any:
    """The store order's money and its Refund form (payments staff)."""
    session = use_session()
    money = use_query(get_store_order_money, order_id=order_id)
    asking, set_asking = use_state(False)
    problem, set_problem = use_state("")

    def done(amount: Any) -> None:
        set_problem("")
        set_asking(False)
        session.toaster.success("Refund issued", f"{format_money(amount)} refunded to the patient")
        on_changed()

    data = money.data
    body: Any = ""
    if data is not None and asking:
        body = _RefundForm(
            data, on_done=done, on_error=set_problem, on_back=lambda: set_asking(False), refetch=money
        )
    elif data is not None and data.refundable > 0:
        body = button_row(
            Button(
                "Refund",
                variant="outline",
                on_click=lambda: (set_problem(""), set_asking(True)),
                aria_label=f"Refund order {data.number}",
            )
        )
    return html.section(
        {"class_name": "visit-money store-money", **({"aria-labelledby": title_id} if title_id else {})},
        QueryView(
            money,
            lambda found: store_money_view(found, session.time_zone),
            is_empty=lambda found: found is None,
            loading_label="Loading the order's money…",
        ),
        form_error(problem),
        body,
    )


@component
def _RefundForm(money: StoreOrderMoneyRead, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    asks_where = money.paid_by_card and money.card_refundable > 0
    form = use_form(amount=f"{money.refundable:.2f}", reason="", **({"to": "card"} if asks_where else {}))
    action = use_action(refund_store_order, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        try:
            amount = parse_amount(str(form.values.get("amount", "")))
        except ValidationFailed as refused:
            on_error(refused.message)
            return
        await action.run(
            order_id=money.store_order_id,
            amount=amount,
            reason=str(form.values.get("reason", "")),
            to_card=form.values.get("to") == "card",
        )

    return ServerForm(
        Field(
            "Amount to refund",
            "amount",
            form=form,
            id="store-refund-amount",
            required=True,
            max_length=MAX_AMOUNT,
            input_mode="decimal",
            hint=f"At most {format_money(money.refundable)}, what is left of this order.",
        ),
        TextArea(
            "Reason",
            "reason",
            form=form,
            id="store-refund-reason",
            rows=3,
            required=True,
            max_length=MAX_REASON,
            hint="Kept with the refund and in the audit log.",
        ),
        RefundDestination(form=form, id_prefix="store-refund") if asks_where else "",
        hint(_note(money)),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Refund", type="submit", pending=action.pending),
        ),
        on_submit=submit,
        id="store-refund-form",
        label=f"Refund order {money.number}",
    )
