"""Refunds to the card (issue 29, item 3): the Stripe side of a visit or a store order refunded to the card it
was paid with.

- **What may go back** (`card_refundable`, `store_card_refundable`): a refund never exceeds what that card
  payment paid for that part. A visit order's card payment paid its visits (less wallet credit spent) and,
  from one checkout, the store order placed with them: the visits' refunds are capped by the payment less
  that store order's total, the store order's by its own total; each less its own card refunds not failed.
  A store order paid on its own is paid by its own Checkout Session (`StoreCardPayment`).

- **Sending** (`send_card_refund`, called by the ledger's `refund_visit` after it booked the refund, in the
  same unit of work): a Stripe refund of the order's PaymentIntent for the amount in cents, its idempotency
  key made from our refund row's id (a retried request is the same refund), its metadata naming the refund
  row, order and visit; the `CardRefund` row keeps Stripe's refund id, charge and status. At most what is
  left of the card payment (its amount less the card refunds not failed) goes back. Any refusal by Stripe
  (or Stripe unreachable) raises `ValidationFailed` with Stripe's message: the caller's unit of work is
  rolled back, so nothing is booked.
- **Stripe's word on it** (`apply_refund_event`, from the webhook, which verified the event and claimed its
  id, so each event is applied once): `refund.updated` / `refund.failed` carry the Refund; `charge.refunded`
  carries the Charge, with its refunds when the API version expands them. A refund found by its id (or its
  metadata's refund row) moves pending → succeeded (its transaction row completed) or → failed (its
  transaction row failed, the reason kept, `CardRefundFailed` published: the ledger credits the amount to the
  patient's wallet instead, in this transaction). A failed refund stays failed; a repeat changes nothing.
  Automation's `payment.refunded` was queued when the refund was made (the ledger's `RefundIssued`), never
  again here.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.services.domain_events import CardRefundFailed
from app.services.errors import ValidationFailed
from app.services.payments._stripe import stripe_client
from app.services.shared.locks import write_lock
from models.audit import AuditAction
from models.booking import Order, Transaction, TransactionStatus
from models.card_refund import CardRefund, CardRefundStatus
from models.payment import CardPayment, CardPaymentStatus
from models.store import StoreCardPayment, StoreOrder

logger = logging.getLogger(__name__)

REFUND_EVENTS = frozenset({"charge.refunded", "refund.updated", "refund.failed"})
NOT_PAID_BY_CARD = "This visit was not paid by card: it can be refunded as wallet credit only."
STORE_NOT_BY_CARD = "This store order was not paid by card: it can be refunded as wallet credit only."
CARD = "stripe"  # a store order's payment_method when paid by card
CARD_LEFT = "At most ${left} can go back to the card (what is left of its payment)."
STRIPE_REFUSED = "Stripe refused the refund, so nothing was refunded: {message}"
STRIPE_UNREACHABLE = "Stripe could not be reached, so nothing was refunded. Please try again in a moment."
FAILED_REASON = "The card could not take the refund back."


def _text(value: object, limit: int = 255) -> str:
    return str(value or "")[:limit]


async def card_payment_of(session: AsyncSession, order_id: str) -> CardPayment | None:
    """The order's card payment when it was paid by card (and has its PaymentIntent), else None."""
    payment = await session.get(CardPayment, order_id)
    if payment is None or payment.status is not CardPaymentStatus.paid or not payment.payment_intent_id:
        return None
    return payment


async def _sent(session: AsyncSession, *conditions: Any) -> int:
    """Cents of card refunds (not failed) matching `conditions`."""
    found = await session.scalar(
        select(func.coalesce(func.sum(CardRefund.amount), 0)).where(
            CardRefund.status != CardRefundStatus.failed, *conditions
        )
    )
    return int(found or 0)


async def _store_part(session: AsyncSession, order_id: str) -> int:
    """Cents of a visit order's card payment that paid the store order placed with it (one checkout)."""
    found = await session.scalar(
        select(func.coalesce(func.sum(StoreOrder.total_cents), 0)).where(
            StoreOrder.visit_order_id == order_id,
            StoreOrder.payment_method == CARD,
            StoreOrder.paid_at.is_not(None),
        )
    )
    return int(found or 0)


async def card_refundable(session: AsyncSession, order_id: str) -> int | None:
    """Cents of the visit order's card payment for its visits not refunded to the card yet (None: not paid
    by card): the payment less what paid a store order placed with it, less the visits' card refunds."""
    payment = await card_payment_of(session, order_id)
    if payment is None:
        return None
    visits = payment.amount - await _store_part(session, order_id)
    sent = await _sent(session, CardRefund.order_id == order_id, CardRefund.store_order_id.is_(None))
    return max(visits - sent, 0)


async def _store_payment(session: AsyncSession, store: StoreOrder) -> tuple[str, str | None] | None:
    """(PaymentIntent, visit order id or None) of a store order paid by card, else None."""
    if store.payment_method != CARD or store.paid_at is None:
        return None
    if store.visit_order_id is not None:
        payment = await card_payment_of(session, store.visit_order_id)
        return (payment.payment_intent_id or "", store.visit_order_id) if payment is not None else None
    own = await session.get(StoreCardPayment, store.id)
    if own is None or own.status != CardPaymentStatus.paid.value or not own.payment_intent_id:
        return None
    return own.payment_intent_id, None


async def store_card_refundable(session: AsyncSession, store_order_id: str) -> int | None:
    """Cents of a store order's card payment not refunded to the card yet (None: not paid by card)."""
    store = await session.get(StoreOrder, store_order_id)
    if store is None or await _store_payment(session, store) is None:
        return None
    return max(store.total_cents - await _sent(session, CardRefund.store_order_id == store.id), 0)


async def send_card_refund(
    session: AsyncSession,
    *,
    refund: Transaction,
    appointment_id: str | None,
    amount_cents: int,
    at: datetime,
    store_order_id: str | None = None,
) -> CardRefund:
    """Refund `amount_cents` to the card: of the visit order's card payment (`refund.order_id`), or of store
    order `store_order_id`'s (see the module's notes); `refund` is the refund's transaction row (added, not
    yet flushed is fine). Its status and reference follow Stripe's answer. Raises ValidationFailed (nothing
    sent) when it was not paid by card, the amount is more than is left of what the card paid for it, or
    Stripe refuses or cannot be reached."""
    import stripe  # imported when used: see _stripe.py

    order_id: str | None = refund.order_id or ""
    if store_order_id is not None:
        await write_lock(session, StoreOrder.id, [store_order_id])
        store = await session.get(StoreOrder, store_order_id)
        found = await _store_payment(session, store) if store is not None else None
        left = await store_card_refundable(session, store_order_id)
        if store is None or found is None or left is None:
            raise ValidationFailed(STORE_NOT_BY_CARD, code="not_paid_by_card")
        intent, order_id = found
        patient_id, target = store.patient_id, store.number
    else:
        # Two refunds of one payment: one at a time.
        await write_lock(session, CardPayment.order_id, [order_id or ""])
        payment = await card_payment_of(session, order_id or "")
        left = await card_refundable(session, order_id or "")
        if payment is None or left is None:
            raise ValidationFailed(NOT_PAID_BY_CARD, code="not_paid_by_card")
        intent, patient_id, target = payment.payment_intent_id or "", payment.patient_id, order_id or ""
    if amount_cents > left:
        raise ValidationFailed(CARD_LEFT.format(left=f"{left / 100:,.2f}"), code="card_refund_too_much")
    try:
        async with stripe_client() as client:
            created = await client.v1.refunds.create_async(
                params={
                    "payment_intent": intent,
                    "amount": amount_cents,
                    "reason": "requested_by_customer",
                    "metadata": {
                        "refund_row_id": refund.id,
                        "order_id": order_id or "",
                        "appointment_id": appointment_id or "",
                        **({"store_order_id": store_order_id} if store_order_id else {}),
                    },
                },
                options={"idempotency_key": f"medivisit-refund-{refund.id}"},
            )
        answer = created.to_dict()
    except stripe.APIConnectionError:
        logger.warning("Stripe unreachable refunding order %s", target)
        raise ValidationFailed(STRIPE_UNREACHABLE, code="stripe_unreachable") from None
    except stripe.StripeError as error:
        message = _text(getattr(error, "user_message", None) or str(error) or "no reason given", 300)
        logger.info("Stripe refused refunding order %s: %s", target, message)
        raise ValidationFailed(STRIPE_REFUSED.format(message=message), code="stripe_refused") from None
    status = _text(answer.get("status"), 32)
    if status in ("failed", "canceled"):
        reason = _text(answer.get("failure_reason") or status, 200)
        raise ValidationFailed(STRIPE_REFUSED.format(message=reason), code="stripe_refused")
    charge = answer.get("charge")
    row = CardRefund(
        id=refund.id,
        order_id=order_id or None,
        store_order_id=store_order_id,
        appointment_id=appointment_id,
        patient_id=patient_id,
        payment_intent_id=intent,
        refund_id=_text(answer.get("id")) or None,
        charge_id=_text(getattr(charge, "id", charge)),
        amount=amount_cents,
        status=CardRefundStatus.succeeded if status == "succeeded" else CardRefundStatus.pending,
        created_at=at,
        updated_at=at,
    )
    session.add(row)
    refund.gateway = "stripe"
    refund.gateway_reference = _text(row.refund_id, 64)
    refund.status = (
        TransactionStatus.completed if row.status is CardRefundStatus.succeeded else TransactionStatus.pending
    )
    refund.settled_at = at if row.status is CardRefundStatus.succeeded else None
    return row


async def _refund_row(session: AsyncSession, refund_id: str, metadata: object) -> CardRefund | None:
    """Our refund Stripe's refund `refund_id` is (by its id, else its metadata's refund row), row-locked."""
    found = await session.scalar(select(CardRefund.id).where(CardRefund.refund_id == refund_id))
    if found is None and isinstance(metadata, dict) and metadata.get("refund_row_id"):
        found = await session.scalar(
            select(CardRefund.id).where(CardRefund.id == _text(metadata["refund_row_id"], 36))
        )
    if found is None:
        return None
    await write_lock(session, CardRefund.id, [found])
    return await session.scalar(
        select(CardRefund).where(CardRefund.id == found).execution_options(populate_existing=True)
    )


async def _apply_one(session: AsyncSession, obj: dict[str, Any], event_id: str, at: datetime) -> str:
    """One Stripe Refund object's status applied to our refund; the outcome's result."""
    row = await _refund_row(session, _text(obj.get("id")), obj.get("metadata"))
    if row is None:
        return "unknown_refund"
    status = _text(obj.get("status"), 32)
    if row.refund_id is None:
        row.refund_id = _text(obj.get("id")) or None
    if not row.charge_id and obj.get("charge"):
        row.charge_id = _text(obj.get("charge"))
    transaction = await session.get_one(Transaction, row.id)
    if status == "succeeded" and row.status is CardRefundStatus.pending:
        row.status, row.updated_at = CardRefundStatus.succeeded, at
        transaction.status, transaction.settled_at = TransactionStatus.completed, at
        return "refunded"
    if status in ("failed", "canceled") and row.status is not CardRefundStatus.failed:
        row.status, row.updated_at = CardRefundStatus.failed, at
        row.failure_reason = _text(obj.get("failure_reason") or FAILED_REASON, 200)
        transaction.status = TransactionStatus.failed
        order = await session.get(Order, row.order_id) if row.order_id else None
        store = await session.get(StoreOrder, row.store_order_id) if row.store_order_id else None
        await audit.record_by_stripe(
            session=session,
            action=AuditAction.card_refund_failed,
            target=store.id if store is not None else (order.id if order is not None else row.id),
            details={
                "order": store.number if store is not None else (order.number if order is not None else ""),
                "event": event_id,
                "refund": row.refund_id,
                "refunded_cents": row.amount,
                "reason": f"card refund failed: {row.failure_reason}",
            },
        )
        failed = CardRefundFailed(
            refund_row_id=row.id,
            order_id=row.order_id,
            store_order_id=row.store_order_id,
            appointment_id=row.appointment_id,
            patient_id=row.patient_id,
            amount_cents=row.amount,
            reason=row.failure_reason,
            at=at,
        )
        await events.publish_event(session, failed)  # the ledger credits the wallet instead
        return "refund_failed"
    return "ignored"


async def apply_refund_event(
    session: AsyncSession, *, kind: str, obj: dict[str, Any], event_id: str, at: datetime
) -> str:
    """Apply one refund event (verified, claimed by the webhook); the webhook outcome's result."""
    if kind != "charge.refunded":
        return await _apply_one(session, obj, event_id, at)
    refunds = obj.get("refunds")
    listed = refunds.get("data") if isinstance(refunds, dict) else None
    results = [
        await _apply_one(session, {"charge": obj.get("id"), **item}, event_id, at)
        for item in (listed if isinstance(listed, list) else [])
        if isinstance(item, dict)
    ]
    for result in ("refund_failed", "refunded", "ignored"):
        if result in results:
            return result
    return "unknown_refund" if results else "ignored"
