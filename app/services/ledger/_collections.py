"""Pay at visit (issue 29, item 1): what the provider collected in person, and the platform's fee it carries.

With a gateway that does not collect at checkout the order only records what the patient owes
(world → patient_booked). Completing such a visit moves nothing by itself (`settle_completed_visit`); the
provider says what they collected, at Complete or later ("Record payment"), and each collection of `a` cents
is one `collected_at_visit` entry:
- patient_booked(patient) −a;
- world +p: the provider's share first (p = what is left of the price, at most a), paid to them at the door,
  so it leaves the books (we never hold it, never pay it out, and there is no dispute window on it);
- provider_receivable(provider) +(a − p): the platform's fee, in the provider's hands, owed to us.
A discount the platform funds (`VisitCharge.platform_discount`, the business setting "Who pays for discounts")
is settled by the collection that covers the visit's discounted price: the provider keeps their full price, so
the receivable is the fee minus the discount, and when the discount is more than the fee (the flash sale's
30 % against a 5 % fee) the platform owes the provider the difference: platform_fees −x, provider_available
+x. Available, not pending: a pay-at-visit visit has no dispute window (its charge is released when it is
completed, so the release job would never move a pending amount), and the money is ours to pay out like a
card earning, so a refund can take it back from there.
Whatever stays in patient_booked is still due from the patient: the visit shows "Payment due $X" to the
patient, the provider and staff until it is recorded. The receivable is netted against the provider's card
earnings when they request a payout (`_payouts`, `fee_netted`).

The SPEC's readable view follows the money: the part of the visit's `booking` transaction (the price) and of
the order's `fee` transaction that a collection covers is settled (the transaction itself when it covers all
of what is pending, else a settled row for the part, the pending one keeping the rest), so settled bookings
and fees always equal what was collected; the order is paid once no visit of it is open or due.

Who may record: the visit's provider (the account linked to its provider profile) or staff holding
process_payments; the amount is more than $0 and at most what is due, in cents.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.events import publish_event
from app.principal import Principal
from app.services.domain_events import PaymentCollected
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger._journal import FEES, WORLD, Leg, cents, dollars, post
from app.services.ledger._rules import NO_VISIT, require_payments_staff
from app.services.ledger._visits import _charge, _close_order, _money_of, _transactions, visit_payment_of
from app.services.payments import get_gateway
from app.services.shared.signed_in import require_account
from app.services.validation import amount_cents
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus, Transaction, TransactionStatus, TransactionType
from models.ledger import AccountKind, CollectionMethod, EntryKind, VisitCharge, VisitPaymentRead
from models.provider import Provider

PAID_AHEAD = "This visit was paid at booking: there is nothing to collect."
NOT_DONE = "A visit's payment is recorded when it is completed."
NOTHING_DUE = "Nothing is due for this visit."
BAD_METHOD = "Choose how the payment was collected: card reader, cash or other."
NOT_YOURS = "Only the visit's provider or payments staff can record its payment."
AMOUNT_RANGE = (
    "Enter the amount collected, between $0.01 and ${due} (what is due), with at most two decimals."
)


def due_of(charge: VisitCharge) -> int:
    """Cents still owed by the patient for a completed pay-at-visit visit (0 otherwise)."""
    if charge.paid_ahead or charge.voided_at is not None or charge.completed_at is None:
        return 0
    return max(charge.price + charge.fee - charge.collected - charge.credit, 0)


async def _settle_part(row: Transaction, part: int, at: datetime, note: str) -> Transaction | None:
    """Settle `part` cents of the pending `row`: the row itself when it is all that is pending, else a new
    settled row for the part (returned, to be added), the pending row keeping the rest."""
    if part <= 0:
        return None
    if part >= cents(row.amount):
        await get_gateway().settle(row, at=at)
        row.description = f"{row.description} ({note})"[:200]
        return None
    row.amount = dollars(cents(row.amount) - part)
    return Transaction(
        order_id=row.order_id,
        appointment_id=row.appointment_id,
        user_id=row.user_id,
        type=row.type,
        status=TransactionStatus.completed,
        amount=dollars(part),
        description=f"{row.description} ({note})"[:200],
        gateway=row.gateway,
        gateway_reference=row.gateway_reference,
        settled_at=at,
    )


async def collect(
    *,
    session: AsyncSession,
    charge: VisitCharge,
    amount: int,
    method: CollectionMethod,
    recorded_by: str | None,
    at: datetime,
) -> None:
    """Post one collection of `amount` cents (already checked: 0 < amount ≤ due) and settle its share of the
    visit's and the order's transactions."""
    earned = min(charge.collected + charge.credit, charge.price)  # wallet credit covers the price first
    price_part = min(amount, charge.price - earned)
    fee_part = amount - price_part
    # A discount the platform funds is settled with the collection that covers the (discounted) price: the
    # provider keeps their full price, so of the fee in their hands they owe us the fee minus the discount,
    # and what the discount exceeds it by we owe them (see `discount_owed`).
    discount = charge.platform_discount if earned < charge.price <= earned + price_part else 0
    owed = max(fee_part - discount, 0)
    ours = max(discount - fee_part, 0)
    await post(
        session=session,
        kind=EntryKind.collected_at_visit,
        legs=[
            Leg(AccountKind.patient_booked, charge.patient_id, -amount),
            Leg(WORLD[0], WORLD[1], amount - owed),
            Leg(AccountKind.provider_receivable, charge.provider_id, owed),
            Leg(AccountKind.provider_available, charge.provider_id, ours),
            Leg(FEES[0], FEES[1], -ours),
        ],
        description=f"Collected at visit ({method.label})",
        order_id=charge.order_id,
        appointment_id=charge.appointment_id,
        actor_id=recorded_by,
        at=at,
    )
    charge.collected += amount
    charge.collection_method = method.value
    charge.collected_by = recorded_by
    charge.collected_at = at
    note = f"collected at visit, {method.label}"
    added: list[Transaction] = []
    bookings = await _transactions(
        session, TransactionType.booking, appointment_id=charge.appointment_id, order_id=charge.order_id
    )
    for booking in bookings:
        if booking.status is TransactionStatus.pending and price_part > 0:
            part = min(price_part, cents(booking.amount))
            if (extra := await _settle_part(booking, part, at, note)) is not None:
                added.append(extra)
            price_part -= part
    for fee in await _transactions(session, TransactionType.fee, order_id=charge.order_id):
        if fee.status is TransactionStatus.pending and fee_part > 0:
            part = min(fee_part, cents(fee.amount))
            if (extra := await _settle_part(fee, part, at, note)) is not None:
                added.append(extra)
            fee_part -= part
    session.add_all(added)
    await publish_event(session, PaymentCollected(**_money_of(charge), amount_cents=amount, at=at))
    await _close_order(session, charge.order_id, at)


def parse_method(method: str) -> CollectionMethod:
    try:
        return CollectionMethod((method or "").strip()[:16])
    except ValueError:
        raise ValidationFailed(BAD_METHOD) from None


async def _may_record(session: AsyncSession, actor: Principal, row: Appointment) -> str:
    """The recorder's account id: the visit's provider, or staff with process_payments."""
    account = await require_account(session=session, actor=actor)
    owner = await session.scalar(select(Provider.user_id).where(Provider.id == row.provider_id))
    if owner is not None and owner == account.id:
        return account.id
    try:
        staff = await require_payments_staff(session=session, actor=actor)
    except PermissionDenied:
        raise PermissionDenied(NOT_YOURS) from None
    return staff.id


async def record_visit_payment(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    amount: Decimal | str,
    method: str,
    now: datetime | None = None,
) -> VisitPaymentRead:
    """The visit's provider (or staff with process_payments) records what they collected in person for a
    completed pay-at-visit visit: `amount` (dollars, more than 0 and at most what is due) and `method` (a
    CollectionMethod's value). Returns the visit's money after it."""
    at = now or utcnow()
    row = await session.get(Appointment, (appointment_id or "")[:36])
    if row is None or row.order_id is None:
        raise NotFound(NO_VISIT)
    recorder = await _may_record(session, actor, row)
    if row.status is not AppointmentStatus.completed:
        raise ValidationFailed(NOT_DONE)
    chosen = parse_method(method)
    charge = await _charge(session, row)
    if charge.paid_ahead:
        raise ValidationFailed(PAID_AHEAD)
    due = due_of(charge)
    if due <= 0:
        raise ValidationFailed(NOTHING_DUE)
    value = amount_cents(amount, message=AMOUNT_RANGE.format(due=f"{dollars(due):,.2f}"), least=1, most=due)
    await collect(session=session, charge=charge, amount=value, method=chosen, recorded_by=recorder, at=at)
    return visit_payment_of(charge)
