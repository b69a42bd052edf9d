"""Card payment of an ad flight's budget (issue 29 item 5, PAYMENT_GATEWAY=stripe), and the refund of what
it did not spend.

`start_ad_checkout` opens a Stripe Checkout Session for the budget on the advertiser's Stripe Customer
(one line: the flight), its metadata naming the flight (`ad_flight_id`), and records it as an awaiting
`AdPayment`. Stripe's webhook hands the events about it here (`is_ad_event`: the metadata names a flight and
no order): the same rules as an order's (`_webhook`): an event that is not about the session, PaymentIntent,
amount and currency this site asked for changes nothing and is audited (`card_payment_mismatch`); only an
awaiting payment moves, once, however often Stripe delivers. Paid or failed publishes `AdPaymentSettled`:
the ads domain starts the flight and the ledger books the budget, in this transaction.

`refund_ad_payment` gives part of a paid budget back to the card (a Stripe refund with an idempotency key
from the payment, so a retried end refunds once).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.services.domain_events import AdPaymentSettled
from app.services.errors import Unavailable
from app.services.payments._event_fields import (
    PAID_EVENTS,
    event_mismatch,
    failure_reason,
    intent_of,
    metadata_of,
)
from app.services.payments._stripe import CURRENCY, open_checkout, stripe_client
from app.services.shared.locks import write_lock
from app.settings import get_settings
from models.account import AccountRead
from models.ads import AdPayment, AdPaymentStatus
from models.audit import AuditAction
from models.base import new_id
from models.identity import as_utc

logger = logging.getLogger(__name__)

REFUND_UNREACHABLE = (
    "The unspent budget could not be refunded to the card, so the flight was not ended. Please try again "
    "in a moment."
)
AD_PAGE = "/ad-purchase"


def is_ad_event(obj: dict[str, Any]) -> bool:
    """Whether a Stripe object is about an ad flight's payment (not an order's)."""
    metadata = metadata_of(obj)
    return bool(metadata.get("ad_flight_id")) and not metadata.get("order_id")


async def start_ad_checkout(
    *,
    session: AsyncSession,
    advertiser: AccountRead,
    flight_id: str,
    flight_name: str,
    amount_cents: int,
    now: datetime,
) -> AdPayment:
    """Open a Checkout Session for flight `flight_id`'s budget and record it (awaiting). Raises
    `Unavailable` when Stripe cannot be asked (nothing is kept)."""
    payment_id = new_id()
    lines = [
        {
            "price_data": {
                "currency": CURRENCY,
                "unit_amount": amount_cents,
                "product_data": {"name": f"Ad flight “{flight_name}”"[:250]},
            },
            "quantity": 1,
        }
    ]
    checkout, expires = await open_checkout(
        session,
        patient=advertiser,
        lines=lines,
        metadata={"ad_flight_id": flight_id, "ad_payment_id": payment_id},
        reference_id=flight_id,
        page=f"{get_settings().site_url.rstrip('/')}{AD_PAGE}",
        idempotency_key=f"medivisit-ad-checkout-{payment_id}",
        now=now,
    )
    payment = AdPayment(
        id=payment_id,
        flight_id=flight_id,
        checkout_session_id=checkout.id,
        payment_intent_id=getattr(checkout, "payment_intent", None) or None,
        checkout_url=checkout.url or "",
        amount=amount_cents,
        currency=CURRENCY,
        status=AdPaymentStatus.awaiting.value,
        expires_at=expires,
        created_at=now,
    )
    session.add(payment)
    await session.flush()
    return payment


async def _payment_of(session: AsyncSession, kind: str, obj: dict[str, Any]) -> AdPayment | None:
    """The ad payment an event is about (row-locked), if any: by its Checkout Session, else by the payment
    the metadata names or by its PaymentIntent."""
    object_id = str(obj.get("id") or "")[:255]
    if kind.startswith("checkout.session."):
        where = AdPayment.checkout_session_id == object_id
    else:
        named = str(metadata_of(obj).get("ad_payment_id") or "")[:36]
        where = AdPayment.id == named if named else AdPayment.payment_intent_id == object_id
    return await _locked(session, await session.scalar(select(AdPayment.id).where(where).limit(1)))


async def _locked(session: AsyncSession, payment_id: str | None) -> AdPayment | None:
    """The ad payment, row-locked and read again after the lock (None: no such payment)."""
    if payment_id is None:
        return None
    await write_lock(session, AdPayment.id, [payment_id])
    return await session.scalar(
        select(AdPayment).where(AdPayment.id == payment_id).execution_options(populate_existing=True)
    )


async def _audit(
    session: AsyncSession, action: AuditAction, payment: AdPayment, details: dict[str, Any]
) -> None:
    await audit.record_by_stripe(
        session=session,
        action=action,
        target=f"ad flight {payment.flight_id}",
        details={"ad_payment": payment.id, **details},
    )


async def apply_ad_event(
    session: AsyncSession, *, kind: str, obj: dict[str, Any], event_id: str, at: datetime
) -> str:
    """Apply a paid or failed event to its flight's card payment: paid, failed, ignored, unknown_order or
    mismatch (see the module's notes)."""
    payment = await _payment_of(session, kind, obj)
    if payment is None:
        return "unknown_order"
    intent = intent_of(kind, obj)
    found = event_mismatch(kind, obj, payment, intent)
    if found:
        logger.warning("Stripe %s (%s) does not match ad payment %s: %s", kind, event_id, payment.id, found)
        await _audit(session, AuditAction.card_payment_mismatch, payment, {"event": event_id, **found})
        return "mismatch"
    if payment.status != AdPaymentStatus.awaiting.value:
        return "ignored"
    paid = kind in PAID_EVENTS
    if paid:
        payment.status, payment.paid_at = AdPaymentStatus.paid.value, at
        payment.payment_intent_id = intent or payment.payment_intent_id
    else:
        payment.status, payment.failure_reason = AdPaymentStatus.failed.value, failure_reason(kind, obj)
    await session.flush()
    await events.publish_event(
        session,
        AdPaymentSettled(
            flight_id=payment.flight_id,
            payment_id=payment.id,
            paid=paid,
            amount_cents=payment.amount,
            at=at,
        ),
    )
    await _audit(
        session,
        AuditAction.card_payment_succeeded if paid else AuditAction.card_payment_failed,
        payment,
        {"event": event_id, "amount_cents": payment.amount}
        | ({} if paid else {"reason": payment.failure_reason}),
    )
    return "paid" if paid else "failed"


async def paid_ad_payment(session: AsyncSession, flight_id: str) -> AdPayment | None:
    """The flight's paid card payment (row-locked), if it has one."""
    found = await session.scalar(
        select(AdPayment.id).where(
            AdPayment.flight_id == flight_id, AdPayment.status == AdPaymentStatus.paid.value
        )
    )
    return await _locked(session, found)


async def open_ad_payment(session: AsyncSession, flight_id: str, now: datetime) -> AdPayment | None:
    """The flight's awaiting payment whose page has not expired yet, if any (to send the advertiser back)."""
    rows = await session.scalars(
        select(AdPayment)
        .where(AdPayment.flight_id == flight_id, AdPayment.status == AdPaymentStatus.awaiting.value)
        .order_by(AdPayment.created_at.desc())
    )
    return next((row for row in rows if as_utc(row.expires_at) > now and row.checkout_url), None)


async def refund_ad_payment(
    session: AsyncSession, payment: AdPayment, *, amount_cents: int, at: datetime
) -> None:
    """Refund `amount_cents` of a paid flight budget to its card (once: the idempotency key is the payment's,
    and a payment already refunded is left alone). Raises `Unavailable` when Stripe cannot be asked."""
    import stripe  # imported when used: see _stripe.py

    if amount_cents <= 0 or payment.refunded_cents or not payment.payment_intent_id:
        return
    try:
        async with stripe_client() as client:
            refund = await client.v1.refunds.create_async(
                params={
                    "payment_intent": payment.payment_intent_id,
                    "amount": amount_cents,
                    "reason": "requested_by_customer",
                    "metadata": {"ad_flight_id": payment.flight_id, "ad_payment_id": payment.id},
                },
                options={"idempotency_key": f"medivisit-ad-refund-{payment.id}"},
            )
    except stripe.StripeError:
        logger.exception("Refunding the unspent budget of ad payment %s failed", payment.id)
        raise Unavailable(REFUND_UNREACHABLE) from None
    payment.refunded_cents, payment.refund_id, payment.refunded_at = amount_cents, refund.id, at
    await session.flush()


async def expire_ad_checkouts(session: AsyncSession, flight_id: str) -> None:
    """Close the open payment pages of a flight that ended before it was paid, so they cannot be paid
    afterwards (their checkout.session.expired event then fails the payment; a page paid at the same moment
    is refunded in full when its event comes, app/services/ads `settle_ad_payment`)."""
    import stripe  # imported when used: see _stripe.py

    rows = list(
        await session.scalars(
            select(AdPayment).where(
                AdPayment.flight_id == flight_id, AdPayment.status == AdPaymentStatus.awaiting.value
            )
        )
    )
    if not rows:
        return
    async with stripe_client() as client:
        for row in rows:
            try:
                await client.v1.checkout.sessions.expire_async(row.checkout_session_id)
            except stripe.StripeError as error:
                logger.info("Expiring ad checkout session %s: %s", row.checkout_session_id[:80], error)
