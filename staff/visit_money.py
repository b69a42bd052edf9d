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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class _Step:
    """One of the section's forms: what it asks and which ledger command it runs."""

    key: str  # refund, credit or record: the form's id and its fields' ("refund-form", "refund-amount" …)
    command: Callable[..., Any]
    label: str  # the form's accessible name
    submit: str
    amount_label: str
    prefill: Callable[[VisitMoneyRead], str]
    amount_hint: Callable[[VisitMoneyRead], str]
    reason_hint: str = ""  # a required Reason with this hint; none: how it was paid (a select) instead
    note: Callable[[VisitMoneyRead], str] = lambda _money: ""
    for_patient: bool = False  # the command takes the visit's patient, not the visit


def _refund_note(money: VisitMoneyRead) -> str:
    card = " It was paid by card: refunds to the card are not made here." if money.paid_by_card else ""
    return f"Refunded as wallet credit to the patient, who is notified.{card}"


STEPS = {
    "refund": _Step(
        "refund",
        refund_visit,
        "Refund this visit",
        "Refund",
        "Amount to refund",
        prefill=lambda money: f"{money.refundable:.2f}",
        amount_hint=lambda money: f"At most {format_money(money.refundable)}, what is left of this visit.",
        reason_hint="Kept with the refund and in the audit log.",
        note=_refund_note,
    ),
    "credit": _Step(
        "credit",
        grant_wallet_credit,
        "Give the patient credit",
        "Give credit",
        "Credit amount",
        prefill=lambda _money: "",
        amount_hint=lambda _money: "Goodwill credit added to this visit's patient's wallet.",
        reason_hint="Kept with the credit and in the audit log.",
        note=lambda _money: "The patient is notified.",
        for_patient=True,
    ),
    "record": _Step(
        "record",
        record_visit_payment,
        "Record a payment collected in person",
        "Record payment",
        "Amount collected",
        prefill=lambda money: f"{money.due:.2f}",
        amount_hint=lambda money: f"At most {format_money(money.due)}, what is still due.",
    ),
}


@component
def VisitMoney(appointment_id: str, on_changed: Callable[[], None]) -> Any:
    """The money section and its Record payment / Refund / Give credit forms (payments staff)."""
    session = use_session()
    money = use_query(get_visit_money, appointment_id=appointment_id)
    mode, set_mode = use_state("")  # "" or a key of STEPS
    problem, set_problem = use_state("")

    def show(which: str) -> None:
        set_problem("")
        set_mode(which)

    def done(title: str, says: Callable[[Any], str]) -> Callable[[Any], None]:
        def after(result: Any) -> None:
            show("")
            session.toaster.success(title, says(result))
            on_changed()

        return after

    toasts = {
        "refund": done(
            "Refund issued", lambda amount: f"{format_money(amount)} credited to the patient's wallet"
        ),
        "credit": done(
            "Credit given", lambda balance: f"The patient's wallet credit is now {format_money(balance)}"
        ),
        "record": done("Payment recorded", lambda _payment: "The visit's payment is up to date"),
    }
    data = money.data
    body: Any = ""
    if data is not None and mode in STEPS:
        body = _MoneyForm(
            STEPS[mode],
            data,
            on_done=toasts[mode],
            on_error=set_problem,
            on_back=lambda: show(""),
            refetch=money,
            key=mode,
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
def _MoneyForm(step: _Step, money: VisitMoneyRead, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    asks_reason = bool(step.reason_hint)
    form = use_form(
        amount=step.prefill(money), **({"reason": ""} if asks_reason else {"method": METHODS[0][0]})
    )
    action = use_action(step.command, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        try:
            amount = parse_amount(str(form.values.get("amount", "")))
        except ValidationFailed as refused:
            on_error(refused.message)
            return
        target = (
            {"patient_id": money.patient_id} if step.for_patient else {"appointment_id": money.appointment_id}
        )
        second = "reason" if asks_reason else "method"
        await action.run(**target, amount=amount, **{second: str(form.values.get(second, ""))})

    note = step.note(money)
    return ServerForm(
        Field(
            step.amount_label,
            "amount",
            form=form,
            id=f"{step.key}-amount",
            required=True,
            max_length=MAX_AMOUNT,
            input_mode="decimal",
            hint=step.amount_hint(money),
        ),
        TextArea(
            "Reason",
            "reason",
            form=form,
            id=f"{step.key}-reason",
            rows=3,
            required=True,
            max_length=MAX_REASON,
            hint=step.reason_hint,
        )
        if asks_reason
        else Select("How it was paid", "method", form=form, options=METHODS, id=f"{step.key}-method"),
        hint(note) if note else "",
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button(step.submit, type="submit", pending=action.pending),
        ),
        on_submit=submit,
        id=f"{step.key}-form",
        label=step.label,
    )
