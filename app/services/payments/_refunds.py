"""Refunds to the card (issue 29, item 3): the Stripe side of a visit refunded to the card it was paid with.

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

logger = logging.getLogger(__name__)

REFUND_EVENTS = frozenset({"charge.refunded", "refund.updated", "refund.failed"})
NOT_PAID_BY_CARD = "This visit was not paid by card: it can be refunded as wallet credit only."
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


async def card_refundable(session: AsyncSession, order_id: str) -> int | None:
    """Cents of the order's card payment not refunded to the card yet (None: not paid by card)."""
    payment = await card_payment_of(session, order_id)
    if payment is None:
        return None
    sent = await session.scalar(
        select(func.coalesce(func.sum(CardRefund.amount), 0)).where(
            CardRefund.order_id == order_id, CardRefund.status != CardRefundStatus.failed
        )
    )
    return max(payment.amount - int(sent or 0), 0)


async def send_card_refund(
    session: AsyncSession,
    *,
    refund: Transaction,
    appointment_id: str | None,
    amount_cents: int,
    at: datetime,
) -> CardRefund:
    """Refund `amount_cents` of the order's card payment to the card (see the module's notes); `refund` is the
    refund's transaction row (added, not yet flushed is fine). Its status and reference follow Stripe's
    answer. Raises ValidationFailed (nothing sent) when the order was not paid by card, the amount is more
    than is left of the card payment, or Stripe refuses or cannot be reached."""
    import stripe  # imported when used: see _stripe.py

    order_id = refund.order_id or ""
    await write_lock(session, CardPayment.order_id, [order_id])  # two refunds of one payment: one at a time
    payment = await card_payment_of(session, order_id)
    left = await card_refundable(session, order_id)
    if payment is None or left is None:
        raise ValidationFailed(NOT_PAID_BY_CARD, code="not_paid_by_card")
    if amount_cents > left:
        raise ValidationFailed(CARD_LEFT.format(left=f"{left / 100:,.2f}"), code="card_refund_too_much")
    intent = payment.payment_intent_id or ""
    try:
        async with stripe_client() as client:
            created = await client.v1.refunds.create_async(
                params={
                    "payment_intent": intent,
                    "amount": amount_cents,
                    "reason": "requested_by_customer",
                    "metadata": {
                        "refund_row_id": refund.id,
                        "order_id": order_id,
                        "appointment_id": appointment_id or "",
                    },
                },
                options={"idempotency_key": f"medivisit-refund-{refund.id}"},
            )
        answer = created.to_dict()
    except stripe.APIConnectionError:
        logger.warning("Stripe unreachable refunding order %s", order_id)
        raise ValidationFailed(STRIPE_UNREACHABLE, code="stripe_unreachable") from None
    except stripe.StripeError as error:
        message = _text(getattr(error, "user_message", None) or str(error) or "no reason given", 300)
        logger.info("Stripe refused refunding order %s: %s", order_id, message)
        raise ValidationFailed(STRIPE_REFUSED.format(message=message), code="stripe_refused") from None
    status = _text(answer.get("status"), 32)
    if status in ("failed", "canceled"):
        reason = _text(answer.get("failure_reason") or status, 200)
        raise ValidationFailed(STRIPE_REFUSED.format(message=reason), code="stripe_refused")
    charge = answer.get("charge")
    row = CardRefund(
        id=refund.id,
        order_id=order_id,
        appointment_id=appointment_id,
        patient_id=payment.patient_id,
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
        order = await session.get_one(Order, row.order_id)
        await audit.record(
            session=session,
            actor_id=None,
            actor_email="stripe",
            action=AuditAction.card_refund_failed,
            target=order.id,
            ip=None,
            user_agent=None,
            details={
                "order": order.number,
                "event": event_id,
                "refund": row.refund_id,
                "refunded_cents": row.amount,
                "reason": f"card refund failed: {row.failure_reason}",
            },
        )
        failed = CardRefundFailed(
            refund_row_id=row.id,
            order_id=row.order_id,
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
