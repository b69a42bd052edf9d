"""A visit's money for payments staff (issue 29 item 3), one component for every screen that refunds a
visit: the staff visit details (staff/visit_dialog.py) and the help-desk ticket of a visit
(helpdesk/ticket_view.py), for members holding process_payments only (the screens mount it for them alone;
the services refuse anyone else anyway): what the visit was charged, each refund (amount, when, by whom,
why, where it went: "to the card" with Stripe's status, or "as wallet credit") and what is left to refund,
with three commands:
- Refund (a completed visit): all or part of what is left (the field is prefilled with it), with a required
  reason (app.services.ledger.refund_visit). A visit paid by card asks where it goes: "To the card" (the
  default: a Stripe refund, at most what is left of the card payment for visits) or "As wallet credit"; a
  visit paid at the visit or with wallet credit is refunded as wallet credit only, and the form says so.
- Give credit: goodwill wallet credit to the visit's patient, with an amount and a reason
  (app.services.ledger.grant_wallet_credit).
- Record payment (a completed pay-at-visit visit with payment due): what was collected in person later, and
  how (app.services.ledger.record_visit_payment, as the provider's own "Record payment").
The patient is notified by the ledger's events (RefundIssued, WalletCreditGranted); every refusal the
service raises (too much, already paid out, Stripe refused, no reason …) shows above the form. A card
refund Stripe later reports failed shows "Failed" here (its money was credited to the wallet instead).
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
    field_group,
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


TO_CARD = "To the card"
AS_CREDIT = "As wallet credit"
DESTINATIONS = (("card", TO_CARD), ("wallet", AS_CREDIT))
CARD_STATUS = {
    "pending": "pending at the bank",
    "succeeded": "succeeded",
    "failed": "failed: credited to the wallet instead",
}
WALLET_ONLY = (
    "This visit was paid at the visit or with wallet credit: it is refunded as wallet credit to the "
    "patient, who is notified."
)


def where_it_went(refund: VisitRefundRead) -> str:
    """'to the card (succeeded)' or 'as wallet credit'."""
    if not refund.to_card:
        return "as wallet credit"
    status = CARD_STATUS.get(refund.card_status, refund.card_status)
    return f"to the card ({status})" if status else "to the card"


def refund_row(refund: VisitRefundRead, time_zone: str) -> VdomDict:
    by = f" by {refund.by_name}" if refund.by_name else ""
    failed = refund.card_status == "failed"
    return html.li(
        {"class_name": "visit-refund is-failed" if failed else "visit-refund"},
        html.strong(format_money(refund.amount)),
        f" refunded {where_it_went(refund)} {format_slot(refund.at, time_zone)}{by}",
        html.br(),
        html.span({"class_name": "form-error"}, f"The card refund failed: {refund.failure_reason}")
        if failed and refund.failure_reason
        else "",
        html.br() if failed and refund.failure_reason else "",
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


def by_card(money: VisitMoneyRead) -> bool:
    """Whether this visit's refund may go back to the card (paid by card, something left on the card)."""
    return money.paid_by_card and money.card_refundable > 0


def _refund_note(money: VisitMoneyRead) -> str:
    if not by_card(money):
        return WALLET_ONLY
    return (
        f"To the card: at most {format_money(money.card_refundable)} (what is left of the card payment for "
        "visits); the bank may take 5-10 business days. As wallet credit: at once. The patient is notified."
    )


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
        "refund": done("Refund issued", lambda amount: f"{format_money(amount)} refunded to the patient"),
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
    asks_where = step.key == "refund" and by_card(money)
    form = use_form(
        amount=step.prefill(money),
        **({"reason": ""} if asks_reason else {"method": METHODS[0][0]}),
        **({"to": "card"} if asks_where else {}),
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
        where = {"to_card": form.values.get("to") == "card"} if step.key == "refund" else {}
        await action.run(**target, amount=amount, **{second: str(form.values.get(second, ""))}, **where)

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
        RefundDestination(form=form, id_prefix=step.key) if asks_where else "",
        hint(note) if note else "",
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button(step.submit, type="submit", pending=action.pending),
        ),
        on_submit=submit,
        id=f"{step.key}-form",
        label=step.label,
    )


@component
def RefundDestination(form: Any, id_prefix: str) -> VdomDict:
    """Where a refund of a visit paid by card goes: a labelled radio group, To the card by default."""
    chosen, set_chosen = use_state(str(form.values.get("to", "card")))

    def pick(value: str) -> Callable[[dict], None]:
        def changed(_event: dict) -> None:
            form.values["to"] = value
            set_chosen(value)

        return changed

    return field_group(
        "Refund to",
        *[
            html.div(
                {"class_name": "field field-check", "key": value},
                html.div(
                    {"class_name": "field-check-row"},
                    html.input(
                        {
                            "type": "radio",
                            "name": f"{id_prefix}-to",
                            "id": f"{id_prefix}-to-{value}",
                            "value": value,
                            "checked": chosen == value,
                            "on_change": pick(value),
                        }
                    ),
                    html.label({"html_for": f"{id_prefix}-to-{value}"}, label),
                ),
            )
            for value, label in DESTINATIONS
        ],
        class_name="invoice-fieldset radio-group",  # the kit's bordered group (staff.css), both themes
        attributes={"role": "radiogroup", "aria-label": "Refund to"},
    )
