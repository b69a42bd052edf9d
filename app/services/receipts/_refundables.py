"""What payments staff may refund for one patient (issue 29 item 3; the help desk's refund chooser, since a
ticket names its requester, not a visit or an order): the patient's recent completed visits with something
left to refund (price and fee share paid, less refunds: the ledger's charges) and paid store orders with
something left (their total less the store's refunds), newest first. Two aggregate queries, no N+1.
Read-only; the refund commands are the ledger's (`refund_visit`) and the store's (`refund_store_order`).
"""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.ledger import dollars
from app.services.ledger.internal import REFUNDED_TO, paid_parts
from app.services.shared.staff_access import require_permission
from models.booking import Appointment, AppointmentStatus, Order
from models.card_refund import RefundableRead
from models.catalog import Service
from models.identity import as_utc
from models.ledger import EntryKind, JournalEntry, Posting, VisitCharge
from models.staff import Permission
from models.store import FulfilmentStatus, StoreOrder

MAX_SHOWN = 10
CARD = "stripe"


async def list_refundables(
    *, session: AsyncSession, actor: Principal, patient_id: str
) -> list[RefundableRead]:
    """Staff (process_payments): the patient's recent visits and store orders with something left to
    refund, newest first (at most MAX_SHOWN of each)."""
    await require_permission(session=session, actor=actor, permission=Permission.process_payments)
    patient_id = (patient_id or "")[:36]
    visits = (
        await session.execute(
            select(VisitCharge, Appointment.starts_at, Service.name, Order.number)
            .join(Appointment, Appointment.id == VisitCharge.appointment_id)
            .join(Service, Service.id == Appointment.service_id)
            .join(Order, Order.id == VisitCharge.order_id)
            .where(
                VisitCharge.patient_id == patient_id,
                Appointment.status == AppointmentStatus.completed,
                VisitCharge.refunded_earning + VisitCharge.refunded_fee < VisitCharge.price + VisitCharge.fee,
            )
            .order_by(Appointment.starts_at.desc(), Appointment.id)
            .limit(MAX_SHOWN)
        )
    ).all()
    found = [
        RefundableRead(
            kind="visit",
            id=charge.appointment_id,
            label=f"{service} (order {number})",
            at=as_utc(starts_at),
            refundable=dollars(left),
        )
        for charge, starts_at, service, number in visits
        for left in [sum(paid_parts(charge)) - charge.refunded_earning - charge.refunded_fee]
        if left > 0
    ]
    refunded = (
        select(JournalEntry.order_id, func.sum(Posting.amount).label("cents"))
        .join(Posting, Posting.entry_id == JournalEntry.id)
        .where(
            JournalEntry.kind == EntryKind.refund,
            Posting.account_kind.in_(REFUNDED_TO),
            # this patient's store orders only: not every refund of the journal for one ticket
            JournalEntry.order_id.in_(select(StoreOrder.id).where(StoreOrder.patient_id == patient_id)),
        )
        .group_by(JournalEntry.order_id)
        .subquery()
    )
    orders = (
        await session.execute(
            select(StoreOrder, func.coalesce(refunded.c.cents, 0))
            .outerjoin(refunded, refunded.c.order_id == StoreOrder.id)
            .where(
                StoreOrder.patient_id == patient_id,
                StoreOrder.fulfilment.not_in(
                    (FulfilmentStatus.canceled.value, FulfilmentStatus.returned.value)
                ),
                or_(
                    (StoreOrder.payment_method == CARD) & StoreOrder.paid_at.is_not(None),
                    StoreOrder.fulfilment == FulfilmentStatus.delivered.value,
                ),
            )
            .order_by(StoreOrder.created_at.desc(), StoreOrder.id)
            .limit(MAX_SHOWN)
        )
    ).all()
    found += [
        RefundableRead(
            kind="store_order",
            id=order.id,
            label=f"Store order {order.number}",
            at=as_utc(order.created_at),
            refundable=dollars(order.total_cents - int(cents)),
        )
        for order, cents in orders
        if order.total_cents - int(cents) > 0
    ]
    return sorted(found, key=lambda r: r.at, reverse=True)
