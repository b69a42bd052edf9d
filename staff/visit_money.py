"""A visit's money in the staff visit details (staff/visit_dialog.py), for members holding process_payments
only (the dialog mounts it for them alone; the services refuse anyone else anyway): what the visit was
charged, each refund (amount, when, by whom, why) and what is left to refund, with two commands:
- Refund (a completed visit): all or part of what is left (the field is prefilled with it), with a required
  reason, as wallet credit (app.services.ledger.refund_visit). Refunds to the card are not made here: a visit
  paid by card is refunded as wallet credit too, and the form says so.
- Give credit: goodwill wallet credit to the visit's patient, with an amount and a reason
  (app.services.ledger.grant_wallet_credit).
- Record payment (a completed pay-at-visit visit with payment due): what was collected in person later, and
  how (app.services.ledger.record_visit_payment, as the provider's own "Record payment").
The patient is notified by the ledger's events (RefundIssued, WalletCreditGranted); every refusal the
service raises (too much, already paid out, no reason …) shows above the form.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.errors import ValidationFailed
from app.services.ledger import grant_wallet_credit, record_visit_payment, refund_visit
from app.services.receipts import get_visit_money
from app.services.validation import amount_cents
from components.appointment_ui import METHODS
from components.context import use_session
from components.format import format_money, format_slot
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    Field,
    QueryView,
    Select,
    ServerForm,
    TextArea,
    UserText,
    button_row,
    dialog_actions,
    facts,
    form_error,
    hint,
)
from models.booking import AppointmentStatus
from models.receipt import VisitMoneyRead, VisitRefundRead

MAX_REASON = 500
MAX_AMOUNT = 16  # characters typed in an amount field ("$1,234,567.89")
BAD_AMOUNT = "Enter an amount in dollars, like 20 or 20.50."
TITLE_ID = "visit-money-title"


def parse_amount(raw: str) -> Decimal:
    """What staff typed ('$20.50', '1,200') as dollars; ValidationFailed(BAD_AMOUNT) for anything else."""
    return Decimal(amount_cents(raw, message=BAD_AMOUNT)) / 100


def refund_row(refund: VisitRefundRead, time_zone: str) -> VdomDict:
    by = f" by {refund.by_name}" if refund.by_name else ""
    return html.li(
        {"class_name": "visit-refund"},
        html.strong(format_money(refund.amount)),
        f" refunded {format_slot(refund.at, time_zone)}{by}",
        html.br(),
        html.span(
            {"class_name": "hint"},
            f"{refund.description}. " if refund.description else "",
            "Reason: ",
            UserText(refund.reason) if refund.reason else "None given",
        ),
    )


def money_view(money: VisitMoneyRead, time_zone: str) -> VdomDict:
    rows: list[tuple[Any, ...]] = [
        ("Charged", format_money(money.charged), " (price and its share of the platform fee)"),
        ("Refunded", format_money(money.refunded)),
    ]
    if money.status is AppointmentStatus.completed:
        rows.append(("Left to refund", format_money(money.refundable)))
    if money.due > 0:
        rows.append(("Payment due", format_money(money.due), " (to be collected in person)"))
    return html.div(
        facts(*rows, class_name="settings-facts visit-facts"),
        html.ul(
            {"class_name": "visit-refunds", "aria-label": "Refunds"},
            *[refund_row(r, time_zone) for r in money.refunds],
        )
        if money.refunds
        else "",
    )


@component
def VisitMoney(appointment_id: str, on_changed: Callable[[], None]) -> Any:
    """The money section and its Refund / Give credit forms (payments staff)."""
    session = use_session()
    money = use_query(get_visit_money, appointment_id=appointment_id)
    mode, set_mode = use_state("")  # "", "refund", "credit" or "record"
    problem, set_problem = use_state("")

    def show(which: str) -> None:
        set_problem("")
        set_mode(which)

    def refunded(amount: Decimal) -> None:
        show("")
        session.toaster.success("Refund issued", f"{format_money(amount)} credited to the patient's wallet")
        on_changed()

    def credited(balance: Decimal) -> None:
        show("")
        session.toaster.success("Credit given", f"The patient's wallet credit is now {format_money(balance)}")
        on_changed()

    def recorded(_payment: Any) -> None:
        show("")
        session.toaster.success("Payment recorded", "The visit's payment is up to date")
        on_changed()

    data = money.data
    body: Any = ""
    if data is not None and mode == "refund":
        body = _RefundForm(
            data, on_done=refunded, on_error=set_problem, on_back=lambda: show(""), refetch=money
        )
    elif data is not None and mode == "credit":
        body = _CreditForm(
            data, on_done=credited, on_error=set_problem, on_back=lambda: show(""), refetch=money
        )
    elif data is not None and mode == "record":
        body = _RecordPaymentForm(
            data, on_done=recorded, on_error=set_problem, on_back=lambda: show(""), refetch=money
        )
    elif data is not None:
        body = button_row(
            Button("Record payment", variant="outline", on_click=lambda: show("record"))
            if data.due > 0
            else "",
            Button("Refund", variant="outline", on_click=lambda: show("refund"))
            if data.status is AppointmentStatus.completed and data.refundable > 0
            else "",
            Button("Give credit", variant="outline", on_click=lambda: show("credit")),
        )
    return html.section(
        {"class_name": "visit-money", "aria-labelledby": TITLE_ID},
        html.h3({"class_name": "visit-day-title", "id": TITLE_ID}, "Payment and refunds"),
        QueryView(
            money,
            lambda found: money_view(found, session.time_zone),
            is_empty=lambda found: found is None,
            loading_label="Loading the visit's money…",
        ),
        form_error(problem),
        body,
    )


@component
def _RefundForm(money: VisitMoneyRead, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    form = use_form(amount=f"{money.refundable:.2f}", reason="")
    action = use_action(refund_visit, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        try:
            amount = parse_amount(str(form.values.get("amount", "")))
        except ValidationFailed as refused:
            on_error(refused.message)
            return
        await action.run(
            appointment_id=money.appointment_id, amount=amount, reason=str(form.values.get("reason", ""))
        )

    card = " It was paid by card: refunds to the card are not made here." if money.paid_by_card else ""
    return ServerForm(
        Field(
            "Amount to refund",
            "amount",
            form=form,
            id="refund-amount",
            required=True,
            max_length=MAX_AMOUNT,
            input_mode="decimal",
            hint=f"At most {format_money(money.refundable)}, what is left of this visit.",
        ),
        TextArea(
            "Reason",
            "reason",
            form=form,
            id="refund-reason",
            rows=3,
            required=True,
            max_length=MAX_REASON,
            hint="Kept with the refund and in the audit log.",
        ),
        hint(f"Refunded as wallet credit to the patient, who is notified.{card}"),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Refund", type="submit", pending=action.pending),
        ),
        on_submit=submit,
        id="refund-form",
        label="Refund this visit",
    )


@component
def _CreditForm(money: VisitMoneyRead, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    form = use_form(amount="", reason="")
    action = use_action(grant_wallet_credit, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        try:
            amount = parse_amount(str(form.values.get("amount", "")))
        except ValidationFailed as refused:
            on_error(refused.message)
            return
        await action.run(
            patient_id=money.patient_id, amount=amount, reason=str(form.values.get("reason", ""))
        )

    return ServerForm(
        Field(
            "Credit amount",
            "amount",
            form=form,
            id="credit-amount",
            required=True,
            max_length=MAX_AMOUNT,
            input_mode="decimal",
            hint="Goodwill credit added to this visit's patient's wallet.",
        ),
        TextArea(
            "Reason",
            "reason",
            form=form,
            id="credit-reason",
            rows=3,
            required=True,
            max_length=MAX_REASON,
            hint="Kept with the credit and in the audit log.",
        ),
        hint("The patient is notified."),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Give credit", type="submit", pending=action.pending),
        ),
        on_submit=submit,
        id="credit-form",
        label="Give the patient credit",
    )


@component
def _RecordPaymentForm(money: VisitMoneyRead, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    form = use_form(amount=f"{money.due:.2f}", method=METHODS[0][0])
    action = use_action(record_visit_payment, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        try:
            amount = parse_amount(str(form.values.get("amount", "")))
        except ValidationFailed as refused:
            on_error(refused.message)
            return
        await action.run(
            appointment_id=money.appointment_id, amount=amount, method=str(form.values.get("method", ""))
        )

    return ServerForm(
        Field(
            "Amount collected",
            "amount",
            form=form,
            id="record-amount",
            required=True,
            max_length=MAX_AMOUNT,
            input_mode="decimal",
            hint=f"At most {format_money(money.due)}, what is still due.",
        ),
        Select("How it was paid", "method", form=form, options=METHODS, id="record-method"),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Record payment", type="submit", pending=action.pending),
        ),
        on_submit=submit,
        id="record-form",
        label="Record a payment collected in person",
    )
