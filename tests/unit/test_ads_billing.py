"""Ads are paid (issue 29 item 5, app/services/ads `_billing` / `_statement`, payments `_ad_payments`) on
SQLite and, with TEST_DATABASE_URL, PostgreSQL: with the card gateway an approved flight waits for its
budget to be paid on Stripe Checkout and serves only once Stripe's webhook says so (once, however often it
is delivered); the ledger books the budget as owed to the advertiser, its delivered spend as ad revenue and
the unspent budget refunded to the card when the flight ends early; delivery paces across the flight and
never passes the budget; the statement and the receipt say the same figures; without Stripe, or for an
advertiser approved for invoicing, flights run on terms and are invoiced afterwards for what they
delivered. Stripe's answers come from tests/stripe_standin.py; every money test ends with `check_ledger`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select, update

import app.services.ads._serving as serving
from app import db as app_db
from app import ratelimit
from app.services.ads import (
    end_my_ad_flight,
    get_ad_receipt,
    get_ad_statement,
    invoice_ad_flight,
    live_ads,
    review_ad_flight,
    serve_ad,
    set_ad_invoicing,
    start_ad_payment,
    submit_ad_flight,
)
from app.services.ads._rules import today
from app.services.ads.internal import close_finished_ad_flights, load_live_ads
from app.services.errors import Unavailable, ValidationFailed
from app.services.ledger import get_revenue_summary
from app.services.ledger._journal import balances
from app.services.ledger.internal import check_ledger
from app.services.payments import handle_stripe_webhook
from models.account import Role
from models.ads import AdFlight, AdPayment, FlightStatus
from models.invoice import Invoice
from models.ledger import EntryKind, JournalEntry
from tests import stripe_standin
from tests.factories import Person, person, run
from tests.unit.test_ads import BROWSER, flight
from tests.unit.test_automation import connect, deliveries
from tests.webhook_receiver import Receiver

S = FlightStatus


@pytest.fixture(autouse=True)
def own_snapshot(monkeypatch) -> None:
    monkeypatch.setattr(serving, "_snapshot", {})


@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


@pytest.fixture
def stripe_on(identity, monkeypatch, standin) -> stripe_standin.StripeStandIn:  # noqa: ANN001
    stripe_standin.configure_gateway(monkeypatch, standin)
    return standin


async def deliver(obj: dict, kind: str = "checkout.session.completed", event_id: str | None = None) -> str:
    body, header = stripe_standin.signed(stripe_standin.event(kind, obj, event_id))
    return (await run(handle_stripe_webhook, payload=body, signature=header)).result


async def approved(budget: str = "50", days: int = 7) -> tuple[Person, str]:
    advertiser, manager = await person(Role.provider), await person(Role.management)
    ends = (today() + timedelta(days=days - 1)).isoformat()
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight(budget=budget, ends_on=ends))
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    return advertiser, booked.id


async def status_of(flight_id: str) -> str:
    async with app_db.unit_of_work() as session:
        row = await session.get(AdFlight, flight_id)
        assert row is not None
        return row.status


async def entries(flight_id: str) -> list[EntryKind]:
    async with app_db.unit_of_work() as session:
        return list(
            await session.scalars(
                select(JournalEntry.kind)
                .where(JournalEntry.description.like("Ad flight%"))
                .order_by(JournalEntry.created_at)
            )
        )


async def prepaid(flight_id: str) -> tuple[int, int]:
    async with app_db.unit_of_work() as session:
        found = await balances(session, [f"ad_prepaid:{flight_id}", "ad_revenue"])
    return found[f"ad_prepaid:{flight_id}"], found["ad_revenue"]


async def views(n: int, prefix: str = "v", net: int = 198) -> int:
    """Page views of SERVICES_TOP from n visitors on n networks; how many showed the ad."""
    shown = 0
    for i in range(n):
        ad = await run(
            serve_ad,
            placement="SERVICES_TOP",
            visitor=f"{prefix}-{i}",
            user_agent=BROWSER,
            ip=f"{net}.{i // 250}.{i % 250}.9",
        )
        shown += ad is not None
    return shown


async def paid_flight(standin: stripe_standin.StripeStandIn, budget: str = "50") -> tuple[Person, str, dict]:
    advertiser, flight_id = await approved(budget)
    url = await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    checkout = list(standin.sessions.values())[-1]
    assert url == checkout["url"] and checkout["metadata"]["ad_flight_id"] == flight_id
    paid = checkout | {
        "payment_status": "paid",
        "status": "complete",
        "payment_intent": f"pi_{flight_id[:8]}",
    }
    assert await deliver(paid) == "paid"
    return advertiser, flight_id, paid


async def test_a_card_flight_serves_only_once_paid_and_the_webhook_applies_once(stripe_on) -> None:
    ratelimit.reset()
    advertiser, flight_id = await approved("50")
    assert await status_of(flight_id) == S.payment.value
    await load_live_ads()
    assert live_ads("SERVICES_TOP") == ()  # approved but unpaid: not served
    url = await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    # Asking again while the page is open sends the advertiser back to the same page.
    assert await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id) == url
    [created] = stripe_on.calls("POST", "/v1/checkout/sessions")
    assert created.params["line_items[0][price_data][unit_amount]"] == "5000"
    checkout = list(stripe_on.sessions.values())[-1]
    paid = checkout | {"payment_status": "paid", "status": "complete", "payment_intent": "pi_ad_1"}
    # An event for another amount is not this payment: nothing changes.
    assert await deliver(paid | {"amount_total": 4000}) == "mismatch"
    assert await status_of(flight_id) == S.payment.value
    event_id = "evt_ad_paid_once"
    assert await deliver(paid, event_id=event_id) == "paid"
    assert await deliver(paid, event_id=event_id) == "duplicate"  # Stripe redelivers the same event
    intent = {"id": "pi_ad_1", "object": "payment_intent", "amount_received": 5000, "currency": "usd"}
    assert await deliver(intent | {"metadata": checkout["metadata"]}, "payment_intent.succeeded") == "ignored"
    assert await status_of(flight_id) == S.approved.value
    assert await entries(flight_id) == [EntryKind.ad_paid]
    assert await prepaid(flight_id) == (5000, 0)
    await load_live_ads()
    assert [ad.flight_id for ad in live_ads("SERVICES_TOP")] == [flight_id]
    assert not (await run(check_ledger)).breaks
    # The ledger check names a flight whose card payments come to more than its ad_paid entries booked.
    async with app_db.unit_of_work() as session:
        await session.execute(update(AdPayment).where(AdPayment.flight_id == flight_id).values(amount=6000))
    [found] = (await run(check_ledger)).breaks
    assert (found.rule, found.subject) == ("payment_without_entry", flight_id)
    assert "came to $60.00, its ad_paid entries to $50.00" in found.detail


async def test_an_expired_payment_page_leaves_the_flight_waiting_and_a_new_page_opens(stripe_on) -> None:
    advertiser, flight_id = await approved("20")
    await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    checkout = list(stripe_on.sessions.values())[-1]
    assert await deliver(checkout | {"status": "expired"}, "checkout.session.expired") == "failed"
    assert await status_of(flight_id) == S.payment.value
    again = await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    assert again != checkout["url"] and len(stripe_on.calls("POST", "/v1/checkout/sessions")) == 2
    assert await entries(flight_id) == []  # nothing was booked


async def test_ending_early_refunds_the_unspent_budget_and_the_ledger_books_it(stripe_on) -> None:
    ratelimit.reset()
    advertiser, flight_id, paid = await paid_flight(stripe_on, "50")
    await load_live_ads()
    assert await views(4) == 4  # $15 per thousand: 4 views cost 6 cents (well under today's pace)
    statement = await run(get_ad_statement, actor=advertiser.actor, flight_id=flight_id)
    assert (statement.views, statement.spent_cents, statement.remaining_cents) == (4, 6, 4994)
    assert statement.daily_cap_cents == 5000 // 7 and [d.views for d in statement.days] == [4]
    # The job books delivered spend as ad revenue while it runs.
    assert await run(close_finished_ad_flights) == 1
    assert await prepaid(flight_id) == (4994, 6)
    ended = await run(end_my_ad_flight, actor=advertiser.actor, flight_id=flight_id)
    assert ended.status == S.ended and ended.refunded_cents == 4994 and ended.settled
    [refund] = stripe_on.calls("POST", "/v1/refunds")
    assert refund.params["amount"] == "4994" and refund.params["payment_intent"] == paid["payment_intent"]
    assert await entries(flight_id) == [EntryKind.ad_paid, EntryKind.ad_delivered, EntryKind.ad_refunded]
    assert await prepaid(flight_id) == (0, 6)
    assert await run(close_finished_ad_flights) == 0  # closed once
    receipt = await run(get_ad_receipt, actor=advertiser.actor, flight_id=flight_id)
    assert receipt.content.startswith(b"%PDF")
    assert not (await run(check_ledger)).breaks
    # Revenue counts what was delivered (not what was prepaid and refunded) as the platform's.
    owner = await person(Role.owner)
    totals = (await run(get_revenue_summary, actor=owner.actor)).totals
    assert (totals.ads, totals.net, totals.refunds) == (Decimal("0.06"), Decimal("0.06"), 0)


async def test_a_refund_stripe_refuses_leaves_the_flight_running(stripe_on) -> None:
    advertiser, flight_id, _paid = await paid_flight(stripe_on, "30")
    stripe_on.refund_error = "Your card has expired."
    with pytest.raises(Unavailable, match="could not be refunded"):
        await run(end_my_ad_flight, actor=advertiser.actor, flight_id=flight_id)
    assert await status_of(flight_id) == S.approved.value and await prepaid(flight_id) == (3000, 0)


async def test_delivery_paces_across_the_flight_and_never_passes_the_budget(stripe_on) -> None:
    ratelimit.reset()
    # $10 over 10 days: today may spend $1.00, i.e. 67 views at 1.5 cents (the 67th reaches the cap).
    advertiser, flight_id = await approved("10", days=10)
    await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    checkout = list(stripe_on.sessions.values())[-1]
    assert await deliver(checkout | {"payment_status": "paid", "payment_intent": "pi_pace"}) == "paid"
    await load_live_ads()
    assert await views(80, "pace") == 67
    async with app_db.unit_of_work() as session:
        row = await session.get(AdFlight, flight_id)
        assert row is not None and row.spent_millicents == 67 * 1500 and row.status == S.approved.value
        # The last day: everything left may be spent, but never more than the budget.
        await session.execute(
            update(AdFlight)
            .where(AdFlight.id == flight_id)
            .values(paced_on=None, ends_on=today(), spent_millicents=10 * 100 * 1000 - 4_000)
        )
    await load_live_ads()
    assert await views(5, "last", net=199) == 2
    async with app_db.unit_of_work() as session:
        row = await session.get(AdFlight, flight_id)
        assert row is not None and row.spent_millicents == 10 * 100 * 1000 - 1_000
        assert row.status == S.spent.value


async def test_without_stripe_or_for_an_invoiced_advertiser_a_flight_runs_on_terms(
    identity, monkeypatch, standin
) -> None:
    advertiser, flight_id = await approved("40")  # the embedded default: no card gateway
    assert await status_of(flight_id) == S.approved.value
    with pytest.raises(ValidationFailed):
        await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    stripe_standin.configure_gateway(monkeypatch, standin)
    manager = await person(Role.management)
    assert await run(set_ad_invoicing, actor=manager.actor, advertiser_id=advertiser.id, invoiced=True)
    second = await run(
        submit_ad_flight, actor=advertiser.actor, data=flight(name="Second", placements=["SEARCH_RESULTS"])
    )
    read = await run(review_ad_flight, actor=manager.actor, flight_id=second.id, approve=True)
    assert read.status == S.approved and read.billing == "invoice" and read.invoiced_advertiser


async def test_a_finished_flight_on_terms_is_invoiced_for_what_it_delivered(identity) -> None:
    ratelimit.reset()
    advertiser, flight_id = await approved("40")
    await load_live_ads()
    assert await views(3, "terms") == 3
    owner = await person(Role.owner)
    with pytest.raises(ValidationFailed, match="once it has finished"):
        await run(invoice_ad_flight, actor=owner.actor, flight_id=flight_id)
    await run(end_my_ad_flight, actor=advertiser.actor, flight_id=flight_id)
    number = await run(invoice_ad_flight, actor=owner.actor, flight_id=flight_id)
    async with app_db.unit_of_work() as session:
        invoice = await session.scalar(select(Invoice).where(Invoice.number == number))
        assert invoice is not None and invoice.total_cents == 4  # 3 views at 1.5 cents, not the $40 budget
    with pytest.raises(ValidationFailed, match="already been invoiced"):
        await run(invoice_ad_flight, actor=owner.actor, flight_id=flight_id)
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(AdPayment)) is None


async def test_a_flight_ended_before_it_was_paid_closes_its_payment_page(stripe_on) -> None:
    advertiser, flight_id = await approved("25")
    await run(start_ad_payment, actor=advertiser.actor, flight_id=flight_id)
    checkout = list(stripe_on.sessions.values())[-1]
    ended = await run(end_my_ad_flight, actor=advertiser.actor, flight_id=flight_id)
    assert ended.status == S.ended and ended.settled
    assert stripe_on.sessions[checkout["id"]]["status"] == "expired"
    assert stripe_on.calls("POST", f"/v1/checkout/sessions/{checkout['id']}/expire")
    # Paid at that very moment all the same: the whole budget goes back to the card.
    paid = checkout | {"payment_status": "paid", "status": "complete", "payment_intent": "pi_late_ad"}
    assert await deliver(paid) == "paid"
    [refund] = stripe_on.calls("POST", "/v1/refunds")
    assert refund.params["amount"] == "2500"
    assert await status_of(flight_id) == S.ended.value and await prepaid(flight_id) == (0, 0)
    assert not (await run(check_ledger)).breaks


async def test_a_flights_card_payment_queues_payment_succeeded_once(stripe_on) -> None:
    owner = await person(Role.owner)
    with Receiver() as receiver:
        await connect(owner, receiver)
        _advertiser, flight_id, paid = await paid_flight(stripe_on)
        assert await deliver(paid) == "ignored"  # Stripe says it again, in another event: queued once
    [queued] = [json.loads(row.body) for row in await deliveries("payment.succeeded")]
    assert (queued["adFlightId"], queued["amountCents"], queued["paymentIntentId"]) == (
        flight_id,
        5000,
        paid["payment_intent"],
    )
