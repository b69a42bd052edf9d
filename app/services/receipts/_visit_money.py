"""A visit's money for payments staff (the staff visit details): what it was charged (price and its share of
the fee), each refund (amount, when, by whom, why: the ledger's refund entries; where it went, as wallet
credit or back to the card, and a card refund's status as Stripe reports it: pending, succeeded or failed),
what `refund_visit` may still refund (of a visit paid in person, at most what was collected; of a visit paid
by card, how much of it may still go back to the card) and what is still due in person. Read-only; the
refund and credit commands are the ledger's.

The refunds are one query: the refund entries' legs that gave money back (into the patient's credit, or out
to the world: the card), each card refund's row joined by its visit, moment and amount (`refund_visit`
writes both with the same). The entry that credits the wallet when a card refund failed is not listed on
its own: the failed card refund says where its money went.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import NotFound
from app.services.ledger import cents, dollars, split_fee
from app.services.ledger.internal import paid_parts, visit_payments, visit_refunds
from app.services.payments.internal import card_refundable
from app.services.shared.staff_access import require_permission
from models.booking import Appointment, AppointmentStatus, Order
from models.ledger import VisitCharge
from models.payment import CardPayment, CardPaymentStatus
from models.receipt import VisitMoneyRead
from models.staff import Permission

NO_VISIT = "No visit has this id."


async def get_visit_money(*, session: AsyncSession, actor: Principal, appointment_id: str) -> VisitMoneyRead:
    """The money of one visit of an order (staff holding process_payments)."""
    await require_permission(session=session, actor=actor, permission=Permission.process_payments)
    row = await session.get(Appointment, (appointment_id or "")[:36])
    if row is None or row.order_id is None:
        raise NotFound(NO_VISIT)
    order = await session.get_one(Order, row.order_id)
    charge = await session.get(VisitCharge, row.id)
    if charge is not None:
        price, fee, refunded_cents = charge.price, charge.fee, charge.refunded_earning + charge.refunded_fee
        refundable_cents = sum(paid_parts(charge))  # refund_visit's own rule
    else:  # not charged in the ledger yet (its order predates it): checkout's split, nothing refunded
        siblings = (
            await session.execute(
                select(Appointment.id, Appointment.price).where(Appointment.order_id == order.id)
            )
        ).all()
        shares = split_fee(cents(order.platform_fee), [(i, cents(p)) for i, p in siblings])
        price, fee, refunded_cents = cents(row.price), shares.get(row.id, 0), 0
        refundable_cents = price + fee
    refunds = (await visit_refunds(session, [row.id]))[row.id]
    card = await session.get(CardPayment, order.id)
    left = refundable_cents - refunded_cents if row.status is AppointmentStatus.completed else 0
    payment = (await visit_payments(session, [row])).get(row.id)
    by_card = charge is not None and charge.paid_ahead and card is not None
    to_card = await card_refundable(session, order.id) if by_card else None
    return VisitMoneyRead(
        appointment_id=row.id,
        patient_id=row.patient_id,
        order_number=order.number,
        status=row.status,
        charged=dollars(price + fee),
        refunded=dollars(refunded_cents),
        refundable=dollars(max(left, 0)),
        paid_by_card=card is not None and card.status is CardPaymentStatus.paid,
        refunds=refunds,
        due=payment.due if payment is not None and row.status is AppointmentStatus.completed else dollars(0),
        card_refundable=dollars(min(max(left, 0), to_card or 0)),
    )
