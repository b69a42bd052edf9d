"""The safety net for a webhook that never came (an endpoint misconfigured or down for longer than Stripe
retries): `reconcile_card_payments`, a periodic job, asks Stripe about each card payment still awaiting
RECONCILE_AFTER past its payment page's expiry, and applies what Stripe says exactly as the webhook would
(`_webhook.apply_paid` / `apply_failed`, under the same row lock: a webhook arriving meanwhile changes
nothing twice). A paid session whose amount, currency or PaymentIntent is not what the order asked for
changes nothing, as with the webhook: it is audited once (`card_payment_mismatch`) and not asked about again.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.payments._event_fields import EXPIRED_REASON, payment_mismatch
from app.services.payments._stripe import NAME, stripe_client
from app.services.payments._webhook import apply_failed, apply_paid, record_mismatch
from app.services.shared.locks import write_lock
from app.settings import get_settings
from models.audit import AuditAction, AuditEntry
from models.booking import Order
from models.payment import CardPayment, CardPaymentStatus

logger = logging.getLogger(__name__)

RECONCILE_AFTER = timedelta(minutes=10)
BATCH = 20
SOURCE = "reconciliation"  # in the audit entries, where an event id would be


async def _locked(session: AsyncSession, order_id: str) -> CardPayment | None:
    await write_lock(session, CardPayment.order_id, [order_id])
    return await session.scalar(
        select(CardPayment).where(CardPayment.order_id == order_id).execution_options(populate_existing=True)
    )


async def reconcile_card_payments(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Settle card payments left awaiting past their page's expiry from Stripe's own record of their
    Checkout Session: paid, or failed (expired; an open one is expired first). Returns how many changed."""
    import stripe  # imported when used: see _stripe.py

    if get_settings().payment_gateway != NAME:
        return 0
    at = (now or datetime.now(UTC)).astimezone(UTC)
    due = (
        await session.scalars(
            select(CardPayment.order_id)
            .where(
                CardPayment.status == CardPaymentStatus.awaiting,
                CardPayment.expires_at < at - RECONCILE_AFTER,
                # One that did not match is for staff now (it would fill every batch).
                ~exists().where(
                    AuditEntry.action == AuditAction.card_payment_mismatch.value,
                    AuditEntry.target == CardPayment.order_id,
                ),
            )
            .order_by(CardPayment.expires_at)
            .limit(BATCH)
        )
    ).all()
    changed = 0
    for order_id in due:
        payment = await _locked(session, order_id)
        order = await session.get(Order, order_id)
        if payment is None or order is None or payment.status is not CardPaymentStatus.awaiting:
            continue
        try:
            async with stripe_client() as client:
                checkout = await client.v1.checkout.sessions.retrieve_async(payment.checkout_session_id)
                if checkout.status == "open":
                    checkout = await client.v1.checkout.sessions.expire_async(payment.checkout_session_id)
        except stripe.StripeError as error:
            logger.warning("Reconciling order %s: Stripe answered %s", order.number, error)
            continue
        if checkout.status == "complete" and checkout.payment_status == "paid":
            intent = checkout.payment_intent
            intent = str(getattr(intent, "id", intent) or "") or None
            found = payment_mismatch(
                payment,
                intent=intent,
                amount=getattr(checkout, "amount_total", None),
                currency=getattr(checkout, "currency", None),
                paid=True,
            )
            if found:
                await record_mismatch(session, order, SOURCE, "checkout.session", found)
                continue
            result = await apply_paid(session, payment, order, intent, SOURCE, at)
        elif checkout.status == "expired":
            result = await apply_failed(session, payment, order, EXPIRED_REASON, SOURCE, at)
        else:
            continue
        changed += result in {"paid", "failed"}
    return changed
