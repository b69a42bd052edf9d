"""The card gateway (PAYMENT_GATEWAY=stripe; app/services/payments) on SQLite and, with TEST_DATABASE_URL,
PostgreSQL: placing an order sends the patient to Stripe Checkout; Stripe's webhook (POST
/api/payments/stripe/webhook, through the real FastAPI app) confirms it — paid ahead in the ledger — or fails
it — the order cancelled, its times free again, the patient told in the app and by e-mail (a real aiosmtpd
server receives it); replays and concurrent duplicates are applied once; bad or old signatures are refused.
Webhook deliveries are signed with the Stripe SDK's own helper. The outbound calls (customer, Checkout
Session, cards on file, detach, expire) go to a local stand-in for the Stripe API (tests/stripe_standin.py),
because Stripe cannot be reached from here.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.services.appointments import _lifecycle as visits
from app.services.booking import get_order, hold_slot
from app.services.errors import NotFound, ValidationFailed
from app.services.ledger import get_my_wallet
from app.services.ledger._rules import AWAITING_PAYMENT
from app.services.payments import handle_stripe_webhook, list_my_cards, remove_my_card
from app.services.payments.internal import reconcile_card_payments
from app.services.service_requests import accept_offer, list_my_service_requests
from app.settings import Settings, get_settings
from medivisit.main import create_app
from models.account import Role
from models.audit import AuditEntry
from models.booking import Appointment, AppointmentStatus, Order, OrderStatus, Transaction, TransactionStatus
from models.catalog import ServiceLocation
from models.identity import as_utc
from models.ledger import JournalEntry, Posting
from models.mail import OutboxMessage
from models.notification import Notification, NotificationKind
from models.payment import CardPayment, PaymentCustomer, PaymentEvent
from models.service_request import OfferStatus, RequestStatus
from tests import stripe_standin
from tests.conftest import html_part
from tests.factories import ZIP, blocked_writers, person, present, provider, run
from tests.unit.test_booking import NOW
from tests.unit.test_ledger import WEDNESDAY_NINE, World, balanced, book, money
from tests.unit.test_service_requests import ADDRESS, offer, post, provider_account
from tests.unit.test_service_requests import NOW as REQUEST_NOW

WEBHOOK = "/api/payments/stripe/webhook"


@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


@pytest.fixture
def stripe_on(identity_env, monkeypatch, standin) -> stripe_standin.StripeStandIn:
    for name, value in {
        "PAYMENT_GATEWAY": "stripe",
        "STRIPE_SECRET_KEY": stripe_standin.SECRET_KEY,
        "STRIPE_WEBHOOK_SECRET": stripe_standin.WEBHOOK_SECRET,
        "STRIPE_API_BASE": standin.url,
        "EARNINGS_RELEASE_ENABLED": "0",
    }.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    standin.requests.clear()
    return standin


@pytest.fixture
async def world(stripe_on) -> World:
    nurse = await person(Role.provider, "Ada Nurse")
    return World(
        patient=await person(Role.patient, "Jordan Lee"),
        provider=nurse,
        provider_id=await provider("Ada Nurse", owner=nurse),
        owner=await person(Role.owner, "Olive Owner"),
        other_owner=await person(Role.owner, "Otto Owner"),
        manager=await person(Role.management, "Mia Manager"),
    )


@pytest.fixture
async def client(stripe_on):
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


async def deliver(client: httpx.AsyncClient, event: dict, **signing) -> httpx.Response:  # noqa: ANN003
    body, header = stripe_standin.signed(event, **signing)
    return await client.post(
        WEBHOOK, content=body, headers={"Stripe-Signature": header, "Content-Type": "application/json"}
    )


async def payment_of(order_id: str) -> CardPayment:
    async with app_db.unit_of_work() as session:
        return await session.get(CardPayment, order_id)


async def count(model, *where) -> int:  # noqa: ANN001
    async with app_db.unit_of_work() as session:
        return await session.scalar(select(func.count()).select_from(model).where(*where))


async def place(world: World, starts_at=WEDNESDAY_NINE) -> tuple[str, CardPayment]:  # noqa: ANN001
    """One visit booked and sent to Stripe Checkout: (its id, the order's card payment)."""
    visit_id = await book(world, starts_at)
    async with app_db.unit_of_work() as session:
        order_id = (await session.scalars(select(Order.id))).one()
    return visit_id, await payment_of(order_id)


_EVENTS = itertools.count(1)


def completed(payment: CardPayment, intent: str = "pi_test_paid", **change) -> dict:  # noqa: ANN003
    """Stripe's checkout.session.completed for the order's session, paid in full (or as `change` says)."""
    return stripe_standin.event(
        "checkout.session.completed",
        {
            "id": payment.checkout_session_id,
            "object": "checkout.session",
            "payment_status": "paid",
            "status": "complete",
            "amount_total": payment.amount,
            "currency": "usd",
            "payment_intent": intent,
            "client_reference_id": payment.order_id,
            "metadata": {"order_id": payment.order_id},
            **change,
        },
        f"evt_test_{next(_EVENTS)}",
    )


def succeeded(payment: CardPayment, intent: str, **change) -> dict:  # noqa: ANN003
    return stripe_standin.event(
        "payment_intent.succeeded",
        {
            "id": intent,
            "object": "payment_intent",
            "status": "succeeded",
            "amount": payment.amount,
            "amount_received": payment.amount,
            "currency": "usd",
            "metadata": {"order_id": payment.order_id},
            **change,
        },
        f"evt_test_{next(_EVENTS)}",
    )


def declined(standin: stripe_standin.StripeStandIn, payment: CardPayment) -> dict:
    """The patient's card declined on the order's payment page: Stripe's session names the attempt's
    PaymentIntent, and Stripe sends payment_intent.payment_failed for it."""
    standin.sessions[payment.checkout_session_id]["payment_intent"] = "pi_test_declined"
    return stripe_standin.event(
        "payment_intent.payment_failed",
        {
            "id": "pi_test_declined",
            "object": "payment_intent",
            "status": "requires_payment_method",
            "amount": payment.amount,
            "amount_received": 0,
            "currency": "usd",
            "metadata": {"order_id": payment.order_id},
            "last_payment_error": {"code": "card_declined", "message": "Your card was declined."},
        },
    )


# ---- settings ------------------------------------------------------------------------------------
def test_the_card_gateway_refuses_to_start_without_its_keys(monkeypatch) -> None:
    monkeypatch.delenv("STRIPE_SECRET_KEY", raising=False)
    monkeypatch.delenv("STRIPE_WEBHOOK_SECRET", raising=False)
    with pytest.raises(
        ValueError, match="PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET"
    ):
        Settings(payment_gateway="stripe", _env_file=None)
    with pytest.raises(ValueError, match="needs STRIPE_WEBHOOK_SECRET to be set"):
        Settings(payment_gateway="stripe", stripe_secret_key="sk_test_x", _env_file=None)
    assert Settings(_env_file=None).payment_gateway == "pay_at_visit"


# ---- placing the order ---------------------------------------------------------------------------
async def test_placing_an_order_sends_the_patient_to_stripe_checkout_and_records_no_money_yet(
    world, stripe_on
) -> None:
    visit_id, payment = await place(world)
    standin = stripe_on
    [customer] = standin.calls("POST", "/v1/customers")
    assert customer.params["email"] == world.patient.email
    [checkout] = standin.calls("POST", "/v1/checkout/sessions")
    async with app_db.unit_of_work() as session:
        order = await session.get(Order, payment.order_id)
    assert checkout.params["mode"] == "payment"
    assert checkout.params["customer"] == await customer_id(world.patient.id)
    assert checkout.params["payment_intent_data[setup_future_usage]"] == "off_session"
    # A line for the visit at its price, one for the platform fee: $79 + the 5 % fee.
    assert checkout.params["line_items[0][price_data][unit_amount]"] == "7900"
    assert checkout.params["line_items[1][price_data][product_data][name]"] == "Platform fee"
    assert checkout.params["line_items[1][price_data][unit_amount]"] == "395"
    assert checkout.params["success_url"].endswith(f"/orders/{order.number}?payment=done")
    assert checkout.params["cancel_url"].endswith(f"/orders/{order.number}?payment=cancelled")
    assert checkout.idempotency_key == f"medivisit-checkout-{order.id}"
    assert payment.status == "awaiting"
    assert payment.checkout_url == f"https://checkout.stripe.com/c/pay/{payment.checkout_session_id}"
    shown = await run(get_order, actor=world.patient.actor, order_id=order.id)
    assert (shown.payment_status, shown.payment_url) == ("awaiting", payment.checkout_url)
    # The visit holds its time, but the ledger has nothing until Stripe says the money is in.
    assert await count(JournalEntry) == 0
    assert await count(Transaction, Transaction.status != TransactionStatus.pending) == 0
    assert await count(OutboxMessage) == 0  # booking e-mails wait for the payment
    with pytest.raises(ValidationFailed) as refused:
        await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=NOW)
    assert refused.value.message == AWAITING_PAYMENT


async def customer_id(patient_id: str) -> str:
    async with app_db.unit_of_work() as session:
        return (await session.get(PaymentCustomer, patient_id)).customer_id


# ---- the webhook: paid ---------------------------------------------------------------------------
async def test_a_completed_checkout_records_the_money_as_paid_ahead_once(world, client, smtp) -> None:
    visit_id, payment = await place(world)
    event = completed(payment)
    answer = await deliver(client, event)
    assert answer.status_code == 200
    assert answer.json() == {"received": True, "duplicate": False, "result": "paid"}
    paid = await payment_of(payment.order_id)
    assert (paid.status, paid.payment_intent_id) == ("paid", "pi_test_paid")
    balances = await balanced()
    assert balances[f"patient_booked:{world.patient.id}"] == 8295
    wallet = await run(get_my_wallet, actor=world.patient.actor)
    assert wallet.booked == money("82.95")
    async with app_db.unit_of_work() as session:
        rows = (await session.scalars(select(Transaction))).all()
        actions = (await session.scalars(select(AuditEntry.action))).all()
    assert {(t.status, t.gateway_reference) for t in rows} == {(TransactionStatus.completed, "pi_test_paid")}
    assert "card_payment_succeeded" in actions
    # Now the patient and the provider hear of the booking.
    subjects = sorted(m["Subject"] for m in smtp.wait_for(2))
    assert subjects[0].startswith("Booking request MV-") and subjects[1] == "New visit request"

    # Stripe also sends payment_intent.succeeded for the same payment, and replays: nothing moves again.
    entries = await count(JournalEntry)
    again = await deliver(client, event)
    assert again.json() == {"received": True, "duplicate": True, "result": "duplicate"}
    assert (await deliver(client, succeeded(payment, "pi_test_paid"))).json()["result"] == "ignored"
    assert await count(JournalEntry) == entries
    await balanced()

    # Money paid ahead: a cancellation a day or more ahead lands as wallet credit (the ledger's policy).
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=NOW)
    await balanced()
    wallet = await run(get_my_wallet, actor=world.patient.actor)
    assert (wallet.credit, wallet.booked) == (money("82.95"), 0)


async def test_the_booking_email_says_booked_only_over_a_visit_the_provider_confirmed(
    world, client, smtp
) -> None:
    visit_id, payment = await place(world)
    # The provider accepts the visit while the card payment is still on its way.
    await run(visits.confirm_appointment, actor=world.provider.actor, appointment_id=visit_id, now=NOW)
    assert (await deliver(client, completed(payment))).json()["result"] == "paid"
    async with app_db.unit_of_work() as session:
        number = (await session.get(Order, payment.order_id)).number
    mine = [m for m in smtp.wait_for(3) if m["To"] == world.patient.email]
    booking = next(m for m in mine if m["Subject"] == f"Booking confirmation {number}")
    assert "Your visit is booked" in html_part(booking)
    assert "your provider has confirmed the visit" in html_part(booking)


async def test_payment_intent_succeeded_alone_also_confirms_the_order(world, stripe_on, client) -> None:
    _visit, payment = await place(world)
    # Stripe's session names the PaymentIntent the patient paid through (the event is checked against it).
    stripe_on.sessions[payment.checkout_session_id]["payment_intent"] = "pi_test_alone"
    assert (await deliver(client, succeeded(payment, "pi_test_alone"))).json()["result"] == "paid"
    assert (await payment_of(payment.order_id)).payment_intent_id == "pi_test_alone"
    await balanced()


async def test_two_deliveries_of_one_event_at_once_are_applied_once(world, client) -> None:
    _visit, payment = await place(world)
    body, header = stripe_standin.signed(completed(payment))
    # The first delivery claims the event and stays open; the second must wait for it, then find it done.
    async with app_db.unit_of_work() as session:
        first = await handle_stripe_webhook(session=session, payload=body, signature=header)
        assert first.result == "paid"
        async with blocked_writers("payment_events") as blocked:
            second = asyncio.create_task(
                client.post(WEBHOOK, content=body, headers={"Stripe-Signature": header})
            )
            await blocked(1)
    answer = await second
    assert answer.status_code == 200
    assert answer.json()["duplicate"] is True
    assert await count(PaymentEvent) == 1
    assert await count(JournalEntry) == 1
    await balanced()


async def test_two_events_saying_paid_at_the_same_moment_move_the_money_once(world, client) -> None:
    _visit, payment = await place(world)
    body, header = stripe_standin.signed(completed(payment))
    other_body, other_header = stripe_standin.signed(succeeded(payment, "pi_test_paid"))
    async with app_db.unit_of_work() as session:
        assert (await handle_stripe_webhook(session=session, payload=body, signature=header)).result == "paid"
        # SQLite: the second waits on its first write; PostgreSQL: on the card payment's row lock.
        async with blocked_writers("payment_events") as blocked:
            second = asyncio.create_task(
                client.post(WEBHOOK, content=other_body, headers={"Stripe-Signature": other_header})
            )
            await blocked(1)
    answer = await second
    assert answer.json() == {"received": True, "duplicate": False, "result": "ignored"}
    assert await count(PaymentEvent) == 2
    assert await count(JournalEntry) == 1
    await balanced()


# ---- the webhook: failed -------------------------------------------------------------------------
async def test_a_declined_payment_cancels_the_order_frees_its_times_and_tells_the_patient(
    world, stripe_on, client, smtp
) -> None:
    visit_id, payment = await place(world)
    answer = await deliver(client, declined(stripe_on, payment))
    assert answer.json() == {"received": True, "duplicate": False, "result": "failed"}
    failed = await payment_of(payment.order_id)
    assert (failed.status, failed.failure_reason) == ("failed", "Your card was declined.")
    async with app_db.unit_of_work() as session:
        order = await session.get(Order, payment.order_id)
        statuses = set((await session.scalars(select(Transaction.status))).all())
        note = (
            await session.scalars(
                select(Notification).where(Notification.kind == NotificationKind.payment_failed)
            )
        ).one()
        visit = await session.get(Appointment, visit_id)
    assert order.status == OrderStatus.cancelled
    shown = await run(get_order, actor=world.patient.actor, order_id=order.id)
    assert (shown.payment_status, shown.payment_url) == ("failed", "")  # no page to pay on any more
    assert (visit.status, visit.cancelled_by) == (AppointmentStatus.cancelled, "system")
    assert statuses == {TransactionStatus.failed}
    assert note.recipient_id == world.patient.id and note.link == f"/orders/{order.number}"
    [message] = smtp.wait_for(1)
    assert message["Subject"] == f"Your payment for order {order.number} did not go through"
    assert message["To"] == world.patient.email
    # Stripe's page is closed so the order cannot be paid afterwards; the ledger never saw it.
    assert stripe_on.calls("POST", rf"/v1/checkout/sessions/{payment.checkout_session_id}/expire")
    assert await count(Posting) == 0
    assert await count(AuditEntry, AuditEntry.action == "card_payment_failed") == 1
    # The time is free again: another hold on it succeeds.
    other = await person(Role.patient, "Sam Other")
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=other.actor,
            service_slug="routine-blood-draw",
            provider_id=world.provider_id,
            starts_at=WEDNESDAY_NINE,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
    assert held.status == AppointmentStatus.held
    # A success arriving after the failure (an out-of-order event for an earlier attempt) changes nothing.
    assert (await deliver(client, completed(payment))).json()["result"] == "refunded"
    assert stripe_on.calls("POST", "/v1/refunds")[0].params["payment_intent"] == "pi_test_paid"
    assert await count(Posting) == 0


async def test_a_provider_who_accepted_the_visit_hears_it_is_off_when_the_payment_fails(
    world, stripe_on, client, smtp
) -> None:
    visit_id, payment = await place(world)
    await run(visits.confirm_appointment, actor=world.provider.actor, appointment_id=visit_id, now=NOW)
    assert (await deliver(client, declined(stripe_on, payment))).json()["result"] == "failed"
    # Three e-mails: the patient's "confirmed" (the provider accepted it), then the two of the failure.
    got = [(m["To"], m["Subject"]) for m in smtp.wait_for(3)]
    assert (world.provider.email, "A visit was cancelled") in got
    assert any(s.startswith("Your payment for order ") for to, s in got if to == world.patient.email)


async def test_a_failed_payment_reopens_the_service_request_it_booked(stripe_on, client) -> None:
    ella, _ella_id = await provider_account("Ella Card")
    patient = await person(name="Pat Card")
    request_id = await post(patient.actor)
    winning = await offer(ella, request_id, "80")
    booked = await run(accept_offer, actor=patient.actor, offer_id=winning, now=REQUEST_NOW, **ADDRESS)
    assert booked.status == RequestStatus.booked and booked.payment_url  # sent to Stripe Checkout
    async with app_db.unit_of_work() as session:
        order_id = await session.scalar(select(Order.id).where(Order.number == booked.order_number))
    assert (await deliver(client, declined(stripe_on, await payment_of(order_id)))).json()[
        "result"
    ] == "failed"

    # Not "booked" with no visit: the accepted offer is open again, and both sides are told.
    [mine] = await run(list_my_service_requests, actor=patient.actor)
    assert (mine.status, mine.order_number, [o.status for o in mine.offers]) == (
        RequestStatus.offered,
        "",
        [OfferStatus.pending],
    )
    async with app_db.unit_of_work() as session:
        titles = set((await session.scalars(select(Notification.title))).all())
    assert titles >= {"Your service request is open again", "A visit you were booked for is off for now"}
    # Accepting it again books the visit again, on a new order.
    again = await run(accept_offer, actor=patient.actor, offer_id=winning, now=REQUEST_NOW, **ADDRESS)
    assert again.status == RequestStatus.booked and again.order_number not in ("", booked.order_number)


async def test_an_expired_checkout_fails_the_order(world, stripe_on, client) -> None:
    _visit, payment = await place(world)
    event = stripe_standin.event(
        "checkout.session.expired",
        {"id": payment.checkout_session_id, "object": "checkout.session", "status": "expired"},
    )
    assert (await deliver(client, event)).json()["result"] == "failed"
    assert (
        await payment_of(payment.order_id)
    ).failure_reason == "The payment page expired before the payment was made."
    assert not stripe_on.calls("POST", r"/v1/checkout/sessions/.+/expire")


# ---- the webhook: not the payment asked for -----------------------------------------------------
async def mismatches() -> list[dict]:
    async with app_db.unit_of_work() as session:
        return list(
            (
                await session.scalars(
                    select(AuditEntry.details)
                    .where(AuditEntry.action == "card_payment_mismatch")
                    .order_by(AuditEntry.created_at)
                )
            ).all()
        )


async def test_a_signed_event_paying_another_amount_currency_or_intent_marks_nothing_paid(
    world, stripe_on, client, smtp
) -> None:
    _visit, payment = await place(world)
    assert payment.amount == 8295
    stripe_on.sessions[payment.checkout_session_id]["payment_intent"] = "pi_test_real"
    wrong = [
        completed(payment, "pi_test_real", amount_total=1),  # one cent for the whole order
        completed(payment, "pi_test_real", currency="eur"),
        succeeded(payment, "pi_test_other"),  # another PaymentIntent than the session's
        succeeded(payment, "pi_test_real", amount_received=100),
    ]
    for event in wrong:
        answer = await deliver(client, event)
        # Acknowledged (a retry would say the same), and nothing moves.
        assert answer.status_code == 200
        assert answer.json() == {"received": True, "duplicate": False, "result": "mismatch"}
    found = await payment_of(payment.order_id)
    assert (found.status, found.paid_at, found.payment_intent_id) == ("awaiting", None, None)
    async with app_db.unit_of_work() as session:
        assert (await session.get(Order, payment.order_id)).status == OrderStatus.pending
    assert await count(Transaction, Transaction.status != TransactionStatus.pending) == 0
    assert await count(JournalEntry) == 0
    assert await count(AuditEntry, AuditEntry.action == "card_payment_succeeded") == 0
    # Staff see what differed, event by event.
    details = await mismatches()
    assert [d["event"] for d in details] == [e["id"] for e in wrong]
    assert details[0]["amount_cents"] == {"expected": 8295, "got": 1}
    assert details[1]["currency"] == {"expected": "usd", "got": "eur"}
    assert details[2]["payment_intent"] == {"expected": "pi_test_real", "got": "pi_test_other"}
    assert details[3]["amount_cents"] == {"expected": 8295, "got": 100}

    # The real payment still goes through; afterwards, a session event naming another intent is refused too.
    assert (await deliver(client, completed(payment, "pi_test_real"))).json()["result"] == "paid"
    assert (await payment_of(payment.order_id)).payment_intent_id == "pi_test_real"
    assert (await deliver(client, completed(payment, "pi_test_else"))).json()["result"] == "mismatch"
    assert (await deliver(client, succeeded(payment, "pi_test_real"))).json()["result"] == "ignored"
    assert await count(JournalEntry) == 1
    await balanced()


async def test_reconciliation_leaves_a_paid_session_of_another_amount_for_staff(world, stripe_on) -> None:
    _visit, payment = await place(world)
    stripe_on.sessions[payment.checkout_session_id].update(
        status="complete", payment_status="paid", payment_intent="pi_test_cheap", amount_total=1
    )
    later = as_utc(present(payment.expires_at)) + timedelta(minutes=11)
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=later) == 0
    assert (await payment_of(payment.order_id)).status == "awaiting"
    assert await count(JournalEntry) == 0
    [details] = await mismatches()
    assert (details["event"], details["amount_cents"]) == ("reconciliation", {"expected": 8295, "got": 1})
    # Told once, and not asked about again on the next runs.
    asked = len(stripe_on.calls("GET", rf"/v1/checkout/sessions/{payment.checkout_session_id}"))
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=later + timedelta(minutes=5)) == 0
    assert len(stripe_on.calls("GET", rf"/v1/checkout/sessions/{payment.checkout_session_id}")) == asked
    assert len(await mismatches()) == 1


# ---- the webhook: refused and ignored ------------------------------------------------------------
async def test_bad_old_future_or_missing_signatures_are_refused_and_change_nothing(world, client) -> None:
    _visit, payment = await place(world)
    event = completed(payment)
    wrong = await deliver(client, event, secret="whsec_someone_else")
    old = await deliver(client, event, timestamp=int(time.time()) - 600)
    future = await deliver(client, event, timestamp=int(time.time()) + 600)
    body, _header = stripe_standin.signed(event)
    missing = await client.post(WEBHOOK, content=body)
    tampered = await client.post(
        WEBHOOK,
        content=body.replace(b'"paid"', b'"PAID"'),
        headers={"Stripe-Signature": stripe_standin.signed(event)[1]},
    )
    for answer in (wrong, old, future, missing, tampered):
        assert answer.status_code == 400
        assert answer.json()["error_code"] == "invalid_signature"
    assert await count(PaymentEvent) == 0
    assert (await payment_of(payment.order_id)).status == "awaiting"
    # A clock a little ahead of ours (inside the 5 minutes' tolerance) is fine.
    slightly_ahead = await deliver(client, event, timestamp=int(time.time()) + 60)
    assert slightly_ahead.json()["result"] == "paid"


async def test_unknown_events_are_acknowledged_and_ignored_and_huge_bodies_refused(world, client) -> None:
    answer = await deliver(
        client, stripe_standin.event("customer.created", {"id": "cus_x", "object": "customer"})
    )
    assert answer.status_code == 200 and answer.json()["result"] == "ignored"
    unknown_order = stripe_standin.event(
        "checkout.session.completed",
        {"id": "cs_test_nobody", "object": "checkout.session", "payment_status": "paid"},
    )
    assert (await deliver(client, unknown_order)).json()["result"] == "unknown_order"
    huge = await client.post(
        WEBHOOK, content=b"{" + b" " * (300 * 1024) + b"}", headers={"Stripe-Signature": "t=1"}
    )
    assert huge.status_code == 413 and huge.json()["error_code"] == "payload_too_large"


async def test_the_webhook_is_not_found_with_pay_at_visit(identity_env) -> None:
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as plain:
        body, header = stripe_standin.signed(stripe_standin.event("customer.created", {"id": "cus_x"}))
        answer = await plain.post(WEBHOOK, content=body, headers={"Stripe-Signature": header})
    assert answer.status_code == 404 and answer.json()["error_code"] == "not_configured"


# ---- cards on file -------------------------------------------------------------------------------
async def test_a_patient_sees_and_removes_their_own_saved_cards(world, stripe_on) -> None:
    standin = stripe_on
    assert await run(list_my_cards, actor=world.patient.actor) == []  # no Stripe customer yet
    await place(world)
    customer = await customer_id(world.patient.id)
    visa = standin.add_card(customer, "visa", "4242", 12, 2031)
    standin.add_card(customer, "mastercard", "4444", 3, 2030)
    cards = await run(list_my_cards, actor=world.patient.actor)
    assert [(c.brand, c.last4, c.exp_month, c.exp_year) for c in cards] == [
        ("mastercard", "4444", 3, 2030),
        ("visa", "4242", 12, 2031),
    ]
    other = await person(Role.patient, "Sam Other")
    with pytest.raises(NotFound):  # someone else's card, or a patient without a Stripe customer
        await run(remove_my_card, actor=other.actor, card_id=visa)
    with pytest.raises(ValidationFailed):
        await run(remove_my_card, actor=world.patient.actor, card_id="not a card id")
    await run(remove_my_card, actor=world.patient.actor, card_id=visa)
    assert standin.calls("POST", rf"/v1/payment_methods/{visa}/detach")
    assert [c.last4 for c in await run(list_my_cards, actor=world.patient.actor)] == ["4444"]
    assert await count(AuditEntry, AuditEntry.action == "card_removed") == 1


# ---- a webhook that never came -------------------------------------------------------------------
async def test_payments_left_awaiting_are_settled_from_stripes_record(world, stripe_on) -> None:
    _visit, paid = await place(world)
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=paid.expires_at) == 0  # not due yet
    stripe_on.sessions[paid.checkout_session_id].update(
        status="complete", payment_status="paid", payment_intent="pi_test_reconciled"
    )
    later = as_utc(present(paid.expires_at)) + timedelta(minutes=11)
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=later) == 1
    found = await payment_of(paid.order_id)
    assert (found.status, found.payment_intent_id) == ("paid", "pi_test_reconciled")
    await balanced()

    # A page nobody paid on, still open at Stripe past its expiry: expired there, then the order fails.
    other = await person(Role.patient, "Sam Other")
    second = World(other, world.provider, world.provider_id, world.owner, world.other_owner, world.manager)
    await book(second, WEDNESDAY_NINE + timedelta(hours=3))
    async with app_db.unit_of_work() as session:
        order_id = (await session.scalars(select(Order.id).where(Order.patient_id == other.id))).one()
    unpaid = await payment_of(order_id)
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=later + timedelta(hours=1)) == 1
    assert stripe_on.calls("POST", rf"/v1/checkout/sessions/{unpaid.checkout_session_id}/expire")
    assert (await payment_of(order_id)).status == "failed"
    async with app_db.unit_of_work() as session:
        assert await reconcile_card_payments(session=session, now=later + timedelta(hours=2)) == 0
