"""Card payment of a store order placed on its own (a cart of products only, PAYMENT_GATEWAY=stripe).

`start_store_payment` opens the order's Stripe Checkout Session (a line per product, shipping, sales tax:
`_checkout_lines.store_lines`) and records it as the order's `StoreCardPayment`, awaiting. Stripe's webhook
hands the events about it here (`is_store_event`: its metadata names a store order and no visit order, or its
session or PaymentIntent is a store order's): the same rules as a visit order's (`_webhook`) apply: an event
that is not about the session and amount this site asked for changes nothing and is audited
(`card_payment_mismatch`); only an awaiting payment moves, once. Paid publishes `StorePaymentCaptured` (the
store marks the order paid and the ledger records the sale, in this transaction); failed or expired publishes
`StorePaymentFailed` (the store cancels the order and puts its stock back). A store order placed with visits
is paid through the visit order's session instead, and follows `PaymentCaptured` / `PaymentFailed`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.services.domain_events import StorePaymentCaptured, StorePaymentFailed
from app.services.payments._checkout_lines import line_total, store_lines
from app.services.payments._event_fields import (
    PAID_EVENTS,
    event_mismatch,
    failure_reason,
    intent_of,
    metadata_of,
)
from app.services.payments._stripe import CURRENCY, open_checkout
from app.services.shared.locks import write_lock
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.payment import CardPaymentStatus
from models.store import StoreCardPayment, StoreOrder


async def start_store_payment(
    *, session: AsyncSession, order: StoreOrder, patient: AccountRead, now: datetime
) -> str:
    """Open store order `order`'s Checkout Session (placed, flushed, awaiting payment) and record it;
    returns the page to pay on. Raises `Unavailable` when Stripe cannot be asked (nothing is kept)."""
    settings = get_settings()
    lines = await store_lines(session, order)
    metadata = {"store_order_id": order.id, "store_order_number": order.number}
    checkout, expires = await open_checkout(
        session,
        patient=patient,
        lines=lines,
        metadata=metadata,
        reference_id=order.id,
        page=f"{settings.site_url.rstrip('/')}/dashboard/store",
        idempotency_key=f"medivisit-store-checkout-{order.id}",
        now=now,
    )
    session.add(
        StoreCardPayment(
            store_order_id=order.id,
            checkout_session_id=checkout.id,
            payment_intent_id=getattr(checkout, "payment_intent", None) or None,
            checkout_url=checkout.url or "",
            amount=line_total(lines),
            currency=CURRENCY,
            status=CardPaymentStatus.awaiting.value,
            expires_at=expires,
            created_at=now,
        )
    )
    await session.flush()
    return checkout.url or ""


async def _payment_of(session: AsyncSession, kind: str, obj: dict[str, Any]) -> StoreCardPayment | None:
    """The store card payment an event is about (row-locked), if any."""
    metadata = metadata_of(obj)
    object_id = str(obj.get("id") or "")[:255]
    if kind.startswith("checkout.session."):
        where = StoreCardPayment.checkout_session_id == object_id
    else:
        store_id = str(metadata.get("store_order_id") or "")[:36]
        where = or_(
            StoreCardPayment.store_order_id == store_id, StoreCardPayment.payment_intent_id == object_id
        )
    found = await session.scalar(select(StoreCardPayment.store_order_id).where(where).limit(1))
    if found is None:
        return None
    await write_lock(session, StoreCardPayment.store_order_id, [found])
    return await session.scalar(
        select(StoreCardPayment)
        .where(StoreCardPayment.store_order_id == found)
        .execution_options(populate_existing=True)
    )


def is_store_event(obj: dict[str, Any]) -> bool:
    """Whether a Stripe object is about a store order paid on its own (not a visit order's session)."""
    metadata = metadata_of(obj)
    return bool(metadata.get("store_order_id")) and not metadata.get("order_id")


async def _audit(
    session: AsyncSession, action: AuditAction, order: StoreOrder, details: dict[str, Any]
) -> None:
    await audit.record_by_stripe(
        session=session,
        action=action,
        target=f"store order {order.number}",
        details={"store_order": order.number, **details},
    )


async def apply_store_event(
    session: AsyncSession, *, kind: str, obj: dict[str, Any], event_id: str, at: datetime
) -> str:
    """Apply a paid or failed event to its store order's card payment: paid, failed, ignored,
    unknown_order or mismatch (see the module's notes)."""
    payment = await _payment_of(session, kind, obj)
    order = await session.get(StoreOrder, payment.store_order_id) if payment is not None else None
    if payment is None or order is None:
        return "unknown_order"
    intent = intent_of(kind, obj)
    found = event_mismatch(kind, obj, payment, intent)
    if found:
        await _audit(
            session, AuditAction.card_payment_mismatch, order, {"event": event_id, "type": kind, **found}
        )
        return "mismatch"
    if payment.status != CardPaymentStatus.awaiting.value:
        return "ignored"
    if kind in PAID_EVENTS:
        payment.status, payment.paid_at = CardPaymentStatus.paid.value, at
        payment.payment_intent_id = intent or payment.payment_intent_id
        await session.flush()
        await events.publish_event(
            session, StorePaymentCaptured(store_order_id=order.id, patient_id=order.patient_id, at=at)
        )
        await _audit(
            session,
            AuditAction.card_payment_succeeded,
            order,
            {"event": event_id, "amount_cents": payment.amount},
        )
        return "paid"
    payment.status, payment.failure_reason = CardPaymentStatus.failed.value, failure_reason(kind, obj)
    await session.flush()
    await events.publish_event(
        session,
        StorePaymentFailed(
            store_order_id=order.id, patient_id=order.patient_id, reason=payment.failure_reason, at=at
        ),
    )
    await _audit(
        session,
        AuditAction.card_payment_failed,
        order,
        {"event": event_id, "amount_cents": payment.amount, "reason": payment.failure_reason},
    )
    return "failed"
