"""Refunds of store orders (issue 29, item 3): staff refund a paid store order in full or in part, with a
reason, to the card when it was paid by card, else as wallet credit; a card-paid order canceled or returned
is refunded to the card (what is left of it), a pay-on-delivery order returned after delivery as wallet
credit.

- **Paid**: a card order once its payment is in (`paid_at`), a pay-on-delivery order once delivered. A
  canceled or returned order was refunded (or owed nothing): nothing is left to refund.
- **How much**: at most the order's total less what was refunded already (the ledger's refund entries of the
  order: what went into the patient's credit or out to the world). To the card, also at most what is left of
  what the card paid for this order (payments' `store_card_refundable`: in a mixed checkout, the products'
  part of the payment, never the visits').
- **Booked** (`refund_store_order` → `_ledger.record_refund`): the refunded amount taken back from store
  sales, sales tax and the retail fee in proportion (cumulatively, so refunds in parts give back exactly
  what the sale booked to each), into the patient's credit or out to the world (the card); a `refund`
  transaction row for the wallet's readable view; to the card, Stripe is asked last (payments'
  `send_card_refund`): a refusal raises and the unit of work, rolled back, books nothing. Refunded in full,
  the order's status is `refunded`. Audited (`refund_issued`) and told to the patient (`StoreOrderRefunded`; a return or
  cancellation is told with its step).
- **Read** (`get_store_order_money`, the ledger's `store_order_refunds`): the order's refunds with where each went and a card
  refund's status (pending, succeeded, failed: then credited to the wallet instead), in one query.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.domain_events import StoreOrderRefunded
from app.services.errors import NotFound, ValidationFailed
from app.services.ledger import cents, dollars
from app.services.ledger.internal import REFUNDED_TO, store_order_refunds
from app.services.payments.internal import send_card_refund, store_card_refundable
from app.services.shared.locks import write_lock
from app.services.shared.staff_access import require_permission
from app.services.store import _ledger
from app.services.store._paid import CARD
from app.services.store._rules import MAX_REASON, NO_ORDER, PAY_ON_DELIVERY
from models.audit import AuditAction
from models.base import new_id, utcnow
from models.booking import OrderStatus, Transaction, TransactionStatus, TransactionType
from models.card_refund import StoreOrderMoneyRead
from models.ledger import EntryKind, JournalEntry, Posting
from models.staff import Permission
from models.store import FulfilmentStatus, StoreOrder

F = FulfilmentStatus
REASON_REQUIRED = "Please give a reason for the refund."
NOT_PAID = "This store order was not paid yet: cancel it instead, nothing is owed."
NOTHING_LEFT = "This store order was refunded in full already."
TOO_MUCH = "Refund between $0.01 and ${left:,.2f}, what is left of this order."
NOT_BY_CARD = "This store order was not paid by card: it can be refunded as wallet credit only."


def is_paid(order: StoreOrder) -> bool:
    """Whether the order's money was collected: by card at checkout, or on delivery."""
    if order.fulfilment in (F.canceled.value, F.returned.value):
        return False
    if order.payment_method == CARD:
        return order.paid_at is not None
    return order.fulfilment == F.delivered.value


async def refunded_cents(session: AsyncSession, store_order_id: str) -> int:
    """Cents of the order given back so far (into the patient's credit or out to the card)."""
    found = await session.scalar(
        select(func.coalesce(func.sum(Posting.amount), 0))
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .where(
            JournalEntry.order_id == store_order_id,
            JournalEntry.kind == EntryKind.refund,
            Posting.account_kind.in_(REFUNDED_TO),
        )
    )
    return int(found or 0)


async def refund_rest(
    session: AsyncSession, order: StoreOrder, *, actor_id: str, reason: str, at: datetime
) -> int:
    """A paid order canceled or returned: what is left of it refunded, to the card when it was paid by card
    (else as wallet credit); returns the cents refunded (0: nothing was left)."""
    left = order.total_cents - await refunded_cents(session, order.id)
    if left <= 0:
        return 0
    to_card = await store_card_refundable(session, order.id) is not None
    # The patient hears of it with the step (StoreOrderProgressed), not twice.
    await _refund(session, order, left, to_card=to_card, actor_id=actor_id, reason=reason, at=at, tell=False)
    return left


async def _refund(
    session: AsyncSession,
    order: StoreOrder,
    amount: int,
    *,
    to_card: bool,
    actor_id: str,
    reason: str,
    at: datetime,
    tell: bool = True,
) -> None:
    before = await refunded_cents(session, order.id)
    await _ledger.record_refund(
        session, order, amount, before=before, to_card=to_card, actor_id=actor_id, reason=reason, at=at
    )
    row = Transaction(
        id=new_id(),  # known before the flush: a card refund's idempotency key is made from it
        user_id=order.patient_id,
        type=TransactionType.refund,
        status=TransactionStatus.completed,
        amount=dollars(amount),
        description=(
            f"Refund to card (store order {order.number})"
            if to_card
            else f"Refund as wallet credit (store order {order.number})"
        ),
        gateway="wallet",
        settled_at=at,
    )
    session.add(row)
    if to_card:
        await send_card_refund(
            session, refund=row, appointment_id=None, amount_cents=amount, at=at, store_order_id=order.id
        )
    if before + amount >= order.total_cents:
        order.status = OrderStatus.refunded.value
    order.updated_at = at
    await events.publish_event(
        session,
        StoreOrderRefunded(
            store_order_id=order.id,
            number=order.number,
            patient_id=order.patient_id,
            amount_cents=amount,
            to_card=to_card,
            at=at,
            with_step=not tell,
        ),
    )


async def refund_store_order(
    *,
    session: AsyncSession,
    actor: Principal,
    order_id: str,
    reason: str,
    amount: Decimal | None = None,
    to_card: bool | None = None,
    now: datetime | None = None,
) -> Decimal:
    """Staff (process_payments) refund part or all (`amount`, default what is left) of a paid store order,
    with a reason, to the card it was paid with (`to_card`; None: to the card when paid by card) or as
    wallet credit (see the module's notes). Returns the amount refunded."""
    staff = await require_permission(session=session, actor=actor, permission=Permission.process_payments)
    at = now or utcnow()
    reason = (reason or "").strip()[:MAX_REASON]
    if not reason:
        raise ValidationFailed(REASON_REQUIRED)
    await write_lock(session, StoreOrder.id, [(order_id or "")[:36]])
    order = await session.scalar(
        select(StoreOrder)
        .where(StoreOrder.id == (order_id or "")[:36])
        .execution_options(populate_existing=True)
    )
    if order is None:
        raise NotFound(NO_ORDER)
    if not is_paid(order):
        raise ValidationFailed(NOTHING_LEFT if order.status == OrderStatus.refunded.value else NOT_PAID)
    left = order.total_cents - await refunded_cents(session, order.id)
    if left <= 0:
        raise ValidationFailed(NOTHING_LEFT)
    total = left if amount is None else cents(amount)
    if total <= 0 or total > left:
        raise ValidationFailed(TOO_MUCH.format(left=dollars(left)))
    by_card = await store_card_refundable(session, order.id) is not None
    if to_card and not by_card:
        raise ValidationFailed(NOT_BY_CARD, code="not_paid_by_card")
    card = by_card if to_card is None else bool(to_card)
    await _refund(session, order, total, to_card=card, actor_id=staff.id, reason=reason, at=at)
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.refund_issued,
        target=f"store order {order.number}",
        details={"amount_cents": total, "reason": reason, "to": "card" if card else "wallet"},
    )
    return dollars(total)


async def store_money(session: AsyncSession, order: StoreOrder) -> StoreOrderMoneyRead:
    """A store order's money (no access check: callers check who reads it)."""
    refunds = (await store_order_refunds(session, [order.id]))[order.id]
    refunded = await refunded_cents(session, order.id)
    paid = (
        is_paid(order)
        or order.fulfilment == F.returned.value
        or (order.payment_method == CARD and order.paid_at is not None)
    )
    left = max(order.total_cents - refunded, 0) if is_paid(order) else 0
    card_left = await store_card_refundable(session, order.id)
    return StoreOrderMoneyRead(
        store_order_id=order.id,
        number=order.number,
        patient_id=order.patient_id,
        total=dollars(order.total_cents),
        paid=paid,
        paid_by_card=order.payment_method == CARD and order.paid_at is not None,
        pay_on_delivery=order.payment_method == PAY_ON_DELIVERY,
        refunded=dollars(refunded),
        refundable=dollars(left),
        card_refundable=dollars(min(left, card_left or 0)),
        refunds=refunds,
    )


async def get_store_order_money(
    *, session: AsyncSession, actor: Principal, order_id: str
) -> StoreOrderMoneyRead:
    """Staff (process_payments): a store order's money: its total, what was refunded (each refund, where it
    went, by whom and why) and what is left to refund."""
    await require_permission(session=session, actor=actor, permission=Permission.process_payments)
    order = await session.get(StoreOrder, (order_id or "")[:36])
    if order is None:
        raise NotFound(NO_ORDER)
    return await store_money(session, order)
