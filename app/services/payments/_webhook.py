"""Stripe's webhook: `handle_stripe_webhook` verifies an event and moves its order's card payment on.

- **Verified**: the `Stripe-Signature` header is checked by the SDK (`stripe.Webhook.construct_event`)
  against STRIPE_WEBHOOK_SECRET; its time `t` must be within TOLERANCE (the SDK's 5 minutes) of this
  server's clock either way (the SDK itself refuses only old ones): a bad, missing, old or future-dated
  signature is refused (`WebhookRejected`, 400) and nothing is written.
- **The payment we asked for**: a signed event only proves it came from our Stripe account. Before it moves
  an order, it must be about the Checkout Session recorded for the order (its id) and its PaymentIntent
  (the one recorded, or, before one is, the one Stripe names for that session), and a "paid" event must
  carry the order's total in cents and currency (`payment_mismatch`). One that does not is a bug or fraud:
  it is acknowledged (200, result `mismatch`, so Stripe stops retrying), the order is left as it was, no
  money is booked, and a `card_payment_mismatch` audit entry (and a warning in the log) tells staff.
- **Once**: the event's id is inserted into `payment_events` first (ON CONFLICT DO NOTHING). A replay finds
  it and changes nothing; two deliveries of one event at the same moment serialise on the primary key (the
  second waits for the first unit of work and then finds the id). Different events about the same payment
  (checkout.session.completed and payment_intent.succeeded both say "paid") serialise on the card payment's
  row, and only an `awaiting` payment moves.
- **Paid** (checkout.session.completed with payment_status "paid", checkout.session.async_payment_succeeded,
  payment_intent.succeeded): the payment is `paid`, the order's booking and fee transactions settle (their
  reference becomes the PaymentIntent's id), and `PaymentCaptured` is published: the ledger records the
  order's money as paid ahead (in this transaction), the patient and providers get the booking
  notifications and e-mails (after the commit), and automation queues `payment.succeeded` for the order
  (in this transaction).
- **Failed** (payment_intent.payment_failed, checkout.session.async_payment_failed, checkout.session.expired):
  the payment is `failed`, the order cancelled, its visits cancelled (their times free again), its
  transactions failed; the Checkout Session is expired so it cannot be paid afterwards. The ledger never saw
  the order. `PaymentFailed` is published: a service request booked by that order is open again
  (service_requests, in this transaction); the patient is notified in the app and by e-mail
  (`payment_failed`, notifications) and a provider who had accepted a visit hears it is off (appointments),
  both after the commit; automation queues `payment.failed` (in this transaction).
- A payment confirmed for an order already failed (a race with the expiry) is refunded in full on Stripe, and
  `LatePaymentRefunded` is published for the first event about it (automation queues `payment.refunded`).
- Automation hears each of these once because the event is applied once (above); its subscribers write
  the outbox rows in this unit of work, so a delivery that fails leaves none, and Stripe's retry queues it.
- An ad flight's Checkout Session or PaymentIntent (metadata `ad_flight_id`, issue 29 item 5) goes to
  `_ad_payments` under the same rules: once, only the payment asked for, only an awaiting one moves.
- Other event types are acknowledged and ignored. Every change is audited (no actor: Stripe).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.db import changed_rows
from app.services.domain_events import BookedVisit, LatePaymentRefunded, PaymentCaptured, PaymentFailed
from app.services.errors import NotFound, ServiceError, Unavailable
from app.services.payments._ad_payments import apply_ad_event, is_ad_event
from app.services.payments._connect_webhook import CONNECT_EVENTS, apply_connect_event
from app.services.payments._event_fields import (
    EXPIRED_REASON,
    PAID_EVENTS,
    event_mismatch,
    failure_reason,
    intent_of,
)
from app.services.payments._refunds import REFUND_EVENTS, apply_refund_event
from app.services.payments._store_payments import apply_store_event, is_store_event
from app.services.payments._stripe import NAME, stripe_client
from app.services.shared.locks import write_lock
from app.settings import get_settings
from models.audit import AuditAction
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    OrderStatus,
    Transaction,
    TransactionStatus,
)
from models.payment import CardPayment, CardPaymentStatus, PaymentEvent

logger = logging.getLogger(__name__)

MAX_EVENT_BYTES = 256 * 1024  # Stripe's events are a few kilobytes
NOT_CONFIGURED = "Card payments are not enabled on this site."
BAD_SIGNATURE = (
    "The Stripe-Signature header does not match this event, or its time is more than 5 minutes off."
)
UNREACHABLE = "Stripe could not be asked about this payment; the event can be delivered again."
# Seconds a signature's time may differ from ours, either way (the SDK's stripe.Webhook.DEFAULT_TOLERANCE).
TOLERANCE = 300
BAD_PAYLOAD = "The event is not valid JSON."
TOO_LARGE = f"An event may be at most {MAX_EVENT_BYTES // 1024} KiB."
RELEASED_REASON = "The booking was not completed."  # the visits' cancel reason (providers may read it)

FAILED_EVENTS = frozenset(
    {"payment_intent.payment_failed", "checkout.session.async_payment_failed", "checkout.session.expired"}
)


class WebhookRejected(ServiceError):
    status_code = 400
    code = "invalid_signature"


class EventTooLarge(ServiceError):
    status_code = 413
    code = "payload_too_large"


@dataclass(frozen=True)
class WebhookOutcome:
    """What the webhook did with one event: `processed` false for a replay; `result` paid, failed,
    ignored (an unknown type, or nothing to change), unknown_order, or mismatch (not the payment this
    site asked for: nothing changed, staff told)."""

    event_id: str
    type: str
    processed: bool
    result: str


def _now(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


def _signed_at(signature: str) -> int | None:
    """The `t` of a Stripe-Signature header (the first, as the SDK reads it)."""
    for item in signature.split(","):
        key, _, value = item.partition("=")
        if key == "t":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _verified(payload: bytes, signature: str) -> tuple[str, str, dict[str, Any]]:
    """(event id, type, the event's object) of a payload whose signature the SDK accepts, signed within
    TOLERANCE of now (the SDK checks the past; a time ahead of ours is checked here)."""
    import stripe  # imported when used: see _stripe.py

    try:
        event = stripe.Webhook.construct_event(
            payload.decode("utf-8"), signature, get_settings().stripe_webhook_secret, tolerance=TOLERANCE
        )
    except stripe.SignatureVerificationError:
        raise WebhookRejected(BAD_SIGNATURE) from None
    except (ValueError, UnicodeDecodeError):
        raise ServiceError(BAD_PAYLOAD, code="invalid_payload") from None
    signed_at = _signed_at(signature)
    if signed_at is None or signed_at > time.time() + TOLERANCE:
        raise WebhookRejected(BAD_SIGNATURE)
    body = json.loads(payload)
    found = (body.get("data") or {}).get("object") if isinstance(body, dict) else None
    return str(event.id)[:255], str(event.type)[:100], found if isinstance(found, dict) else {}


async def _claim(session: AsyncSession, event_id: str, kind: str, at: datetime) -> bool:
    """Record the event as processed; False when it already was (a replay)."""
    insert = (postgresql if session.get_bind().dialect.name == "postgresql" else sqlite).insert(PaymentEvent)
    done = await changed_rows(
        session,
        insert.values(id=event_id, gateway=NAME, type=kind, received_at=at).on_conflict_do_nothing(
            index_elements=[PaymentEvent.id]
        ),
    )
    return done == 1


async def _payment_of(session: AsyncSession, kind: str, obj: dict[str, Any]) -> CardPayment | None:
    """The card payment an event's object is about (checkout session, or payment intent), row-locked."""
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
    order_id = str(metadata.get("order_id") or obj.get("client_reference_id") or "")[:36]
    if kind.startswith("checkout.session."):
        where = CardPayment.checkout_session_id == str(obj.get("id") or "")[:255]
    elif order_id:
        where = CardPayment.order_id == order_id
    else:
        where = CardPayment.payment_intent_id == str(obj.get("id") or "")[:255]
    found = await session.scalar(select(CardPayment.order_id).where(where))
    if found is None:
        return None
    await write_lock(session, CardPayment.order_id, [found])
    return await session.scalar(
        select(CardPayment).where(CardPayment.order_id == found).execution_options(populate_existing=True)
    )


async def _intent_of_session(checkout_session_id: str) -> str | None:
    """The PaymentIntent Stripe says the Checkout Session paid through (None before the patient paid)."""
    import stripe  # imported when used: see _stripe.py

    try:
        async with stripe_client() as client:
            checkout = await client.v1.checkout.sessions.retrieve_async(checkout_session_id)
    except stripe.StripeError:
        logger.warning("Retrieving checkout session %s failed", checkout_session_id[:80])
        raise Unavailable(UNREACHABLE) from None
    intent = checkout.payment_intent
    intent = getattr(intent, "id", intent)
    return str(intent) if intent else None


async def _event_mismatch(
    kind: str, obj: dict[str, Any], payment: CardPayment, intent: str | None
) -> dict[str, Any]:
    """`event_mismatch` of one event; a PaymentIntent event for an order whose intent is not recorded yet is
    checked against the intent Stripe names for the order's Checkout Session."""
    if kind.startswith("payment_intent.") and intent and not payment.payment_intent_id:
        named = await _intent_of_session(payment.checkout_session_id)
        if named != intent:
            return {"payment_intent": {"expected": named, "got": intent}}
    return event_mismatch(kind, obj, payment, intent)


async def record_mismatch(
    session: AsyncSession, order: Order, source: str, kind: str, found: dict[str, Any]
) -> None:
    """Tell staff of an answer from Stripe that does not match the order's payment (nothing is changed)."""
    logger.warning("Stripe %s (%s) does not match order %s: %s", kind, source, order.number, found)
    await _audit(session, AuditAction.card_payment_mismatch, order, {"event": source, "type": kind, **found})


async def _audit(session: AsyncSession, action: AuditAction, order: Order, details: dict[str, Any]) -> None:
    await audit.record_by_stripe(
        session=session,
        action=action,
        target=order.id,
        details={"order": order.number, **details},
    )


async def _announce(session: AsyncSession, order: Order) -> None:
    await events.publish_on_commit(session, order_topic(order.id), {"order_id": order.id})


def order_topic(order_id: str) -> str:
    """The event topic of one order (its page refetches when its payment changes)."""
    return f"order:{order_id}"


async def apply_paid(
    session: AsyncSession, payment: CardPayment, order: Order, intent: str | None, event_id: str, at: datetime
) -> str:
    if payment.status is CardPaymentStatus.failed:
        # Paid after the order was given up (the session expired at the same moment): the money goes back.
        await _refund_late_payment(session, payment, order, intent, event_id, at)
        return "refunded"
    if payment.status is not CardPaymentStatus.awaiting:
        return "ignored"
    payment.status, payment.paid_at = CardPaymentStatus.paid, at
    payment.payment_intent_id = intent or payment.payment_intent_id
    reference = (payment.payment_intent_id or payment.checkout_session_id)[:64]
    for row in await session.scalars(
        select(Transaction).where(
            Transaction.order_id == order.id, Transaction.status == TransactionStatus.pending
        )
    ):
        row.status, row.settled_at, row.gateway_reference = TransactionStatus.completed, at, reference
    visits = list(await session.scalars(select(Appointment).where(Appointment.order_id == order.id)))
    await session.flush()
    captured = PaymentCaptured(
        order_id=order.id,
        patient_id=order.patient_id,
        visits=tuple(BookedVisit(v.id, v.provider_id, v.price) for v in visits),
        fee=order.platform_fee,
        at=at,
    )
    await events.publish_event(session, captured)  # the ledger now; the booking e-mails after the commit
    await _audit(
        session,
        AuditAction.card_payment_succeeded,
        order,
        {"event": event_id, "amount_cents": payment.amount, "payment_intent": reference},
    )
    await _announce(session, order)
    return "paid"


async def _refunded_before(session: AsyncSession, order: Order, event_id: str) -> bool:
    """Whether an earlier "paid" event of this failed order was applied (its late payment was refunded
    then: Stripe sends both checkout.session.completed and payment_intent.succeeded for one payment, and
    the refund's idempotency key makes the second refund the same one)."""
    earlier = await session.scalar(
        select(PaymentEvent.id)
        .where(
            PaymentEvent.order_id == order.id,
            PaymentEvent.type.in_(PAID_EVENTS),
            PaymentEvent.id != event_id,
        )
        .limit(1)
    )
    return earlier is not None


async def _refund_late_payment(
    session: AsyncSession,
    payment: CardPayment,
    order: Order,
    intent: str | None,
    event_id: str,
    at: datetime,
) -> None:
    import stripe  # imported when used: see _stripe.py

    if not intent:
        return
    first = not await _refunded_before(session, order, event_id)
    try:
        async with stripe_client() as client:
            await client.v1.refunds.create_async(
                params={"payment_intent": intent, "metadata": {"order_id": order.id}},
                options={"idempotency_key": f"medivisit-late-refund-{intent}"},
            )
    except stripe.StripeError:
        logger.exception("Refunding the late payment of order %s failed", order.number)
        raise
    await _audit(
        session,
        AuditAction.card_payment_failed,
        order,
        {"event": event_id, "refunded_cents": payment.amount, "reason": "paid after the order was released"},
    )
    if first:  # automation hears of the refund (payment.refunded) once
        refunded = LatePaymentRefunded(
            order_id=order.id,
            order_number=order.number,
            patient_id=order.patient_id,
            payment_intent_id=intent,
            amount_cents=payment.amount,
            at=at,
        )
        await events.publish_event(session, refunded)


async def apply_failed(
    session: AsyncSession, payment: CardPayment, order: Order, reason: str, event_id: str, at: datetime
) -> str:
    if payment.status is not CardPaymentStatus.awaiting:
        return "ignored"
    payment.status, payment.failure_reason = CardPaymentStatus.failed, reason
    order.status = OrderStatus.cancelled
    visits = list(
        await session.scalars(
            select(Appointment).where(
                Appointment.order_id == order.id,
                Appointment.status.not_in((AppointmentStatus.cancelled, AppointmentStatus.completed)),
            )
        )
    )
    confirmed = [visit for visit in visits if visit.status is AppointmentStatus.confirmed]
    for visit in visits:
        visit.status, visit.cancelled_at = AppointmentStatus.cancelled, at
        visit.cancelled_by, visit.cancel_reason = "system", RELEASED_REASON
    await session.execute(
        update(Transaction)
        .where(Transaction.order_id == order.id, Transaction.status == TransactionStatus.pending)
        .values(status=TransactionStatus.failed)
        .execution_options(synchronize_session=False)
    )
    # Its service requests open again (in this transaction); a provider who already accepted a visit hears
    # that it is off (the visit's own cancellation notice, after the commit); the others were never told of
    # the order (its booking e-mails wait for the payment).
    failed = PaymentFailed(
        order_id=order.id,
        order_number=order.number,
        patient_id=order.patient_id,
        visit_ids=tuple(visit.id for visit in visits),
        provider_ids=tuple(sorted({visit.provider_id for visit in visits})),
        confirmed_visit_ids=tuple(visit.id for visit in confirmed),
        at=at,
    )
    await events.publish_event(session, failed)
    if reason != EXPIRED_REASON:
        await _expire_checkout(payment.checkout_session_id)
    await _audit(
        session,
        AuditAction.card_payment_failed,
        order,
        {"event": event_id, "amount_cents": payment.amount, "reason": reason},
    )
    await _announce(session, order)
    return "failed"


async def _expire_checkout(checkout_session_id: str) -> None:
    """Close the payment page of a failed order, so it cannot be paid afterwards (it may already be closed:
    expired, or completed, whose payment is then refunded when its event comes)."""
    import stripe  # imported when used: see _stripe.py

    try:
        async with stripe_client() as client:
            await client.v1.checkout.sessions.expire_async(checkout_session_id)
    except stripe.StripeError as error:
        logger.info("Expiring checkout session %s: %s", checkout_session_id[:80], error)


async def handle_stripe_webhook(
    *, session: AsyncSession, payload: bytes, signature: str, now: datetime | None = None
) -> WebhookOutcome:
    """Verify one webhook delivery from Stripe and apply its event once (see the module's notes). Raises
    `WebhookRejected` (400) for a bad signature or one dated outside TOLERANCE, `ServiceError` (400) for a
    body that is not JSON, `EventTooLarge` (413), `NotFound` (404) when the card gateway is not configured,
    `Unavailable` (503, nothing written: Stripe delivers it again) when Stripe cannot be asked about it."""
    if get_settings().payment_gateway != NAME:
        raise NotFound(NOT_CONFIGURED, code="not_configured")
    if len(payload) > MAX_EVENT_BYTES:
        raise EventTooLarge(TOO_LARGE)
    event_id, kind, obj = _verified(payload, signature or "")
    at = _now(now)
    if not await _claim(session, event_id, kind, at):
        return WebhookOutcome(event_id, kind, processed=False, result="duplicate")
    if kind in CONNECT_EVENTS:  # Stripe Connect: provider payout accounts and transfers (_connect_webhook)
        result = await apply_connect_event(
            session, kind=kind, obj=obj, payload=payload, event_id=event_id, at=at
        )
        return WebhookOutcome(event_id, kind, processed=True, result=result)
    if kind in REFUND_EVENTS:  # refunds to the card made by staff (_refunds)
        result = await apply_refund_event(session, kind=kind, obj=obj, event_id=event_id, at=at)
        return WebhookOutcome(event_id, kind, processed=True, result=result)
    if kind not in PAID_EVENTS and kind not in FAILED_EVENTS:
        return WebhookOutcome(event_id, kind, processed=True, result="ignored")
    if kind == "checkout.session.completed" and obj.get("payment_status") != "paid":
        # A delayed payment method: its async_payment_succeeded / _failed event decides.
        return WebhookOutcome(event_id, kind, processed=True, result="ignored")
    if is_ad_event(obj):  # an ad flight's budget paid by card (_ad_payments)
        result = await apply_ad_event(session, kind=kind, obj=obj, event_id=event_id, at=at)
        return WebhookOutcome(event_id, kind, processed=True, result=result)
    if is_store_event(obj):  # a store order paid by card on its own (_store_payments)
        result = await apply_store_event(session, kind=kind, obj=obj, event_id=event_id, at=at)
        return WebhookOutcome(event_id, kind, processed=True, result=result)
    payment = await _payment_of(session, kind, obj)
    order = await session.get(Order, payment.order_id) if payment is not None else None
    if payment is None or order is None:
        return WebhookOutcome(event_id, kind, processed=True, result="unknown_order")
    intent = intent_of(kind, obj)
    found = await _event_mismatch(kind, obj, payment, intent)
    if found:
        await record_mismatch(session, order, event_id, kind, found)
        return WebhookOutcome(event_id, kind, processed=True, result="mismatch")
    await session.execute(update(PaymentEvent).where(PaymentEvent.id == event_id).values(order_id=order.id))
    if kind in PAID_EVENTS:
        result = await apply_paid(session, payment, order, intent, event_id, at)
    else:
        result = await apply_failed(session, payment, order, failure_reason(kind, obj), event_id, at)
    return WebhookOutcome(event_id, kind, processed=True, result=result)
