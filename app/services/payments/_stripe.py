"""The card gateway (PAYMENT_GATEWAY=stripe), with Stripe's official SDK (`stripe.StripeClient`).

Card numbers never reach this site: placing an order creates a Stripe Checkout Session (Stripe's hosted
payment page, payment mode, which creates the PaymentIntent) for the order's total, on the patient's Stripe
Customer with `setup_future_usage`, so the card is kept on file for the wallet. The browser is sent to the
session's address; Stripe sends it back to the order's page (success or cancel). Until Stripe's webhook
confirms the payment the order awaits payment, its visits holding their times (`_webhook`).

Every API call goes through `stripe_client()`: a client on its own httpx connection pool, closed after use
(a pool belongs to the event loop that opened it), pointed at STRIPE_API_BASE. The SDK is imported where
it is used, not with this module: it costs about 0.7 s of CPU, which every process that starts the site (each
CLI command, server and test process) would pay even when the card gateway is off.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import Unavailable
from app.services.payments._checkout_lines import line_total, linked_store_order, order_lines
from app.settings import get_settings
from models.account import AccountRead
from models.base import utcnow
from models.booking import Order, Transaction, TransactionStatus
from models.payment import CardPayment, CardPaymentStatus, PaymentCustomer

if TYPE_CHECKING:
    import stripe

NAME = "stripe"
CURRENCY = "usd"  # prices are in US dollars (the catalog's currency)
UNREACHABLE = "Card payments are unavailable right now, so nothing was booked. Please try again in a moment."


def cents(amount: Decimal) -> int:
    return int((Decimal(amount) * 100).to_integral_value())


@asynccontextmanager
async def stripe_client() -> AsyncIterator[stripe.StripeClient]:
    """A Stripe client for the calls of one command (its connections are closed afterwards)."""
    import stripe  # imported when used: see the module's docstring

    settings = get_settings()
    http = stripe.HTTPXClient(timeout=20)
    try:
        yield stripe.StripeClient(
            settings.stripe_secret_key,
            base_addresses={"api": settings.stripe_api_base.rstrip("/")},
            http_client=http,
            max_network_retries=2,
        )
    finally:
        await http.close_async()


def _insert(session: AsyncSession) -> postgresql.Insert | sqlite.Insert:
    """The dialect's INSERT construct (ON CONFLICT)."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(PaymentCustomer)
    return sqlite.insert(PaymentCustomer)


async def customer_id_of(session: AsyncSession, user_id: str) -> str | None:
    return await session.scalar(
        select(PaymentCustomer.customer_id).where(
            PaymentCustomer.user_id == user_id, PaymentCustomer.gateway == NAME
        )
    )


async def customer_for(session: AsyncSession, client: stripe.StripeClient, patient: AccountRead) -> str:
    """The patient's Stripe Customer, created on their first card order. The idempotency key makes two
    first orders at once get the same customer from Stripe; the row is written once."""
    found = await customer_id_of(session, patient.id)
    if found:
        return found
    customer = await client.v1.customers.create_async(
        params={
            "email": patient.email or "",
            "name": patient.name[:200],
            "metadata": {"user_id": patient.id},
        },
        options={"idempotency_key": f"medivisit-customer-{patient.id}"},
    )
    await session.execute(
        _insert(session)
        .values(user_id=patient.id, gateway=NAME, customer_id=customer.id, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[PaymentCustomer.user_id])
    )
    return await customer_id_of(session, patient.id) or customer.id


async def open_checkout(
    session: AsyncSession,
    *,
    patient: AccountRead,
    lines: list[Any],
    metadata: dict[str, str],
    reference_id: str,
    page: str,
    idempotency_key: str,
    now: datetime,
) -> tuple[Any, datetime]:
    """A Checkout Session (payment mode, card, the card kept on file) of `lines` on the patient's Stripe
    Customer, coming back to `page`; with when it expires. Raises `Unavailable` when Stripe cannot be asked."""
    import stripe  # imported when used: see the module's docstring

    settings = get_settings()
    # Stripe refuses an expiry under 30 minutes from when it receives the request: a minute's margin.
    expires = now + timedelta(minutes=settings.stripe_checkout_minutes, seconds=60)
    try:
        async with stripe_client() as client:
            customer = await customer_for(session, client, patient)
            checkout = await client.v1.checkout.sessions.create_async(
                params={
                    "mode": "payment",
                    "customer": customer,
                    "client_reference_id": reference_id,
                    "line_items": lines,
                    "allowed_payment_method_types": ["card"],
                    "payment_intent_data": {"setup_future_usage": "off_session", "metadata": metadata},
                    "metadata": metadata,
                    "success_url": f"{page}?payment=done",
                    "cancel_url": f"{page}?payment=cancelled",
                    "expires_at": int(expires.timestamp()),
                },
                options={"idempotency_key": idempotency_key},
            )
    except stripe.StripeError:
        raise Unavailable(UNREACHABLE) from None
    return checkout, expires


class StripeCard:
    """Card payment on Stripe Checkout, collected when the order is placed and confirmed by Stripe's webhook."""

    name = NAME
    label = "Card"
    collects_at_order = True
    confirms_later = True

    async def authorize(self, order: Order, amount: Decimal) -> str:
        # The Checkout Session is created once the visits are booked (`start_payment`); the transactions
        # carry the PaymentIntent's id once Stripe confirms the payment.
        return order.number

    async def settle(self, transaction: Transaction, *, at: datetime | None = None) -> None:
        transaction.status = TransactionStatus.completed
        transaction.settled_at = at or utcnow()

    async def void(self, transaction: Transaction) -> None:
        transaction.status = TransactionStatus.cancelled

    async def start_payment(
        self, *, session: AsyncSession, order: Order, patient: AccountRead, now: datetime
    ) -> str:
        """Create the order's Checkout Session and its `awaiting` card payment; returns the page to pay on.
        The session lists each visit, the fee and the products of a store order placed with it
        (`_checkout_lines`); its total is the sum of those lines."""
        settings = get_settings()
        lines = await order_lines(session, order)
        amount = line_total(lines)
        metadata = {"order_id": order.id, "order_number": order.number}
        store = await linked_store_order(session, order.id)
        if store is not None and store.payment_method == NAME:
            metadata |= {"store_order_id": store.id, "store_order_number": store.number}
        checkout, expires = await open_checkout(
            session,
            patient=patient,
            lines=lines,
            metadata=metadata,
            reference_id=order.id,
            page=f"{settings.site_url.rstrip('/')}/orders/{order.number}",
            idempotency_key=f"medivisit-checkout-{order.id}",
            now=now,
        )
        session.add(
            CardPayment(
                order_id=order.id,
                patient_id=patient.id,
                gateway=NAME,
                checkout_session_id=checkout.id,
                payment_intent_id=getattr(checkout, "payment_intent", None) or None,
                checkout_url=checkout.url or "",
                amount=amount,
                currency=CURRENCY,
                status=CardPaymentStatus.awaiting,
                expires_at=expires,
                created_at=now,
            )
        )
        return checkout.url or ""
