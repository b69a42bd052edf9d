# ruff: noqa: F811 - the card tests' fixtures are imported, and requested by name
"""The card payments' automation events (issue 29, item 8; SPEC §9's payment succeeded, failed, refunded):
Stripe's webhook (POST /api/payments/stripe/webhook, through the real FastAPI app, events signed with the
SDK's own helper, the Stripe API answered by tests/stripe_standin.py) queues `payment.succeeded` when an
order's card payment comes in, `payment.failed` when it is declined or its page expires, and
`payment.refunded` when a payment that came in too late goes back to the card: each once, however often
Stripe delivers the event, and by whichever path (webhook or reconciliation) applies it first. The outbox
rows are real (automation connected to a real local receiver); nothing is mocked. On SQLite, as every
API test (tests/conftest.py runs only tests/unit on PostgreSQL too).
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.automation import set_event_type
from app.services.payments.internal import reconcile_card_payments
from models.booking import Order
from models.identity import as_utc
from tests import stripe_standin
from tests.api.test_card_payments import (  # noqa: F401 - the fixtures, shared with the card tests
    client,
    completed,
    declined,
    deliver,
    payment_of,
    place,
    standin,
    stripe_on,
    succeeded,
    world,
)
from tests.factories import person, present, run
from tests.unit.test_automation import connect, deliveries
from tests.unit.test_ledger import WEDNESDAY_NINE, World, balanced, book, complete
from tests.webhook_receiver import Receiver

CARD_FIELDS = {
    "orderId",
    "orderNumber",
    "patientId",
    "appointmentIds",
    "providerIds",
    "amountCents",
    "currency",
    "paymentMethod",
    "paymentIntentId",
    "eventType",
    "timestamp",
    "environment",
    "source",
}


@pytest.fixture
def receiver():
    with Receiver() as server:
        yield server


@pytest.fixture
async def connected(world, receiver) -> None:  # noqa: ANN001
    """Automation connected by the owner (a real Test connection to the local receiver)."""
    await connect(world.owner, receiver)


async def queued(event_type: str) -> list[dict]:
    return [json.loads(row.body) for row in await deliveries(event_type)]


async def number_of(order_id: str) -> str:
    async with app_db.unit_of_work() as session:
        return present(await session.get(Order, order_id)).number


async def test_a_paid_checkout_queues_one_payment_succeeded_however_often_stripe_says_so(
    world, client, connected
) -> None:
    visit_id, payment = await place(world)
    event = completed(payment)
    assert (await deliver(client, event)).json()["result"] == "paid"
    [body] = await queued("payment.succeeded")
    assert set(body) == CARD_FIELDS  # ids and money only: no service, notes, card brand or digits
    assert body == {
        **body,
        "eventType": "payment.succeeded",
        "orderId": payment.order_id,
        "orderNumber": await number_of(payment.order_id),
        "patientId": world.patient.id,
        "appointmentIds": [visit_id],
        "providerIds": [world.provider_id],
        "amountCents": 8295,  # $79 + the 5 % fee: what the card paid
        "currency": "usd",
        "paymentMethod": "card",
        "paymentIntentId": "pi_test_paid",
        "source": "medivisit",
    }

    # Stripe redelivers the event, and sends payment_intent.succeeded for the same payment: still one.
    assert (await deliver(client, event)).json()["duplicate"] is True
    assert (await deliver(client, succeeded(payment, "pi_test_paid"))).json()["result"] == "ignored"
    assert len(await queued("payment.succeeded")) == 1

    # Completing the visit moves that same money to the provider: not a second payment.
    await complete(world, visit_id, WEDNESDAY_NINE)
    assert len(await queued("payment.succeeded")) == 1
    assert len(await queued("appointment.completed")) == 1
    await balanced()


async def test_a_declined_payment_queues_one_payment_failed_and_a_late_success_one_refund(
    world, stripe_on, client, connected
) -> None:
    visit_id, payment = await place(world)
    event = declined(stripe_on, payment)
    assert (await deliver(client, event)).json()["result"] == "failed"
    assert (await deliver(client, event)).json()["duplicate"] is True
    [body] = await queued("payment.failed")
    assert set(body) == CARD_FIELDS
    assert (body["orderId"], body["orderNumber"]) == (payment.order_id, await number_of(payment.order_id))
    assert (body["appointmentIds"], body["providerIds"]) == ([visit_id], [world.provider_id])
    assert (body["amountCents"], body["currency"], body["paymentMethod"]) == (8295, "usd", "card")
    assert "Your card was declined." not in json.dumps(body)  # the card's story stays with Stripe
    assert await queued("payment.succeeded") == []

    # A payment for an earlier attempt comes in afterwards: refunded on the card, and told once, though
    # Stripe sends two events about it (and redelivers one).
    late = completed(payment, "pi_test_declined")  # the session's PaymentIntent, paid on a retry
    assert (await deliver(client, late)).json()["result"] == "refunded"
    assert (await deliver(client, late)).json()["duplicate"] is True
    assert (await deliver(client, succeeded(payment, "pi_test_declined"))).json()["result"] == "refunded"
    assert len(stripe_on.calls("POST", "/v1/refunds")) == 2  # one refund: the same idempotency key
    assert {r.idempotency_key for r in stripe_on.calls("POST", "/v1/refunds")} == {
        "medivisit-late-refund-pi_test_declined"
    }
    [refund] = await queued("payment.refunded")
    assert refund["eventType"] == "payment.refunded" and refund["reason"] == "paid_after_release"
    assert (refund["orderId"], refund["paymentIntentId"], refund["amountCents"]) == (
        payment.order_id,
        "pi_test_declined",
        8295,
    )
    assert await queued("payment.succeeded") == []
    assert len(await queued("payment.failed")) == 1


async def test_an_expired_checkout_queues_payment_failed(world, client, connected) -> None:
    visit_id, payment = await place(world)
    expired = stripe_standin.event(
        "checkout.session.expired",
        {"id": payment.checkout_session_id, "object": "checkout.session", "status": "expired"},
    )
    assert (await deliver(client, expired)).json()["result"] == "failed"
    [body] = await queued("payment.failed")
    assert (body["orderId"], body["appointmentIds"], body["amountCents"]) == (
        payment.order_id,
        [visit_id],
        8295,
    )


async def test_a_payment_the_reconciliation_applied_first_is_queued_once(
    world, stripe_on, client, connected
) -> None:
    _visit, payment = await place(world)
    stripe_on.sessions[payment.checkout_session_id].update(
        status="complete", payment_status="paid", payment_intent="pi_test_paid"
    )
    later = as_utc(present(payment.expires_at)) + timedelta(minutes=11)
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=later) == 1
    [body] = await queued("payment.succeeded")
    assert (body["orderId"], body["paymentIntentId"]) == (payment.order_id, "pi_test_paid")
    # The webhook comes after all: the payment is paid already, nothing is queued again.
    assert (await deliver(client, completed(payment))).json()["result"] == "ignored"
    assert len(await queued("payment.succeeded")) == 1


async def test_nothing_is_queued_for_a_switched_off_type_or_without_a_connection(
    world, stripe_on, client, receiver
) -> None:
    _visit, payment = await place(world)
    # Not connected: the payment goes through, automation hears nothing.
    assert (await deliver(client, completed(payment))).json()["result"] == "paid"
    assert await queued("payment.succeeded") == []

    await connect(world.owner, receiver)
    await run(set_event_type, actor=world.owner.actor, event_type="payment.failed", enabled=False)
    other = await person(name="Sam Other")
    second = World(other, world.provider, world.provider_id, world.owner, world.other_owner, world.manager)
    await book(second, WEDNESDAY_NINE + timedelta(hours=3))
    async with app_db.unit_of_work() as session:
        order_id = (await session.scalars(select(Order.id).where(Order.patient_id == other.id))).one()
    assert (await deliver(client, declined(stripe_on, await payment_of(order_id)))).json()[
        "result"
    ] == "failed"
    assert await queued("payment.failed") == []
