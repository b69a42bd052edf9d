"""Refunds to the card (issue 29, item 3; app/services/payments/_refunds.py, app/services/ledger/_card_refunds.py)
on SQLite and, with TEST_DATABASE_URL, PostgreSQL: a visit paid by card and completed is refunded to the card
in full or in part (a Stripe refund of its PaymentIntent, the money leaving the platform for the world), a
Stripe refusal books nothing, refund.updated (failed) credits the wallet once, and a dispute resolved with a
partial refund goes to the card. Stripe is tests/stripe_standin.py; events are signed with the SDK's helper.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.services.disputes import report_visit_problem, resolve_dispute
from app.services.errors import ValidationFailed
from app.services.ledger import get_my_wallet, refund_visit
from app.services.ledger.internal import check_ledger
from app.services.payments import handle_stripe_webhook
from models.booking import Order, Transaction, TransactionStatus, TransactionType
from models.card_refund import CardRefund, CardRefundStatus
from models.ledger import EntryKind, JournalEntry
from models.payment import CardPayment
from tests import stripe_standin
from tests.factories import run
from tests.unit import test_ledger
from tests.unit.test_booking import NINE
from tests.unit.test_ledger import World, book, complete, money, provider_balances

world = test_ledger.world
_IDS = itertools.count(1)


@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


@pytest.fixture
def stripe_on(world: World, monkeypatch, standin) -> World:  # noqa: ANN001
    stripe_standin.configure_gateway(monkeypatch, standin)
    return world


async def deliver(kind: str, obj: dict, event_id: str | None = None) -> str:
    body, header = stripe_standin.signed(stripe_standin.event(kind, obj, event_id or f"evt_r{next(_IDS)}"))
    return (await run(handle_stripe_webhook, payload=body, signature=header)).result


async def paid_by_card(world: World, standin: stripe_standin.StripeStandIn) -> tuple[str, str]:
    """A visit booked, paid by card (Stripe's checkout.session.completed) and completed: (its id, intent)."""
    visit_id = await book(world)
    async with app_db.unit_of_work() as session:
        order_id = (await session.scalars(select(Order.id))).one()
        payment = await session.get_one(CardPayment, order_id)
    intent = f"pi_card{next(_IDS)}"
    standin.captured[intent] = payment.amount
    paid = {
        "id": payment.checkout_session_id,
        "object": "checkout.session",
        "payment_status": "paid",
        "status": "complete",
        "amount_total": payment.amount,
        "currency": "usd",
        "payment_intent": intent,
        "client_reference_id": order_id,
        "metadata": {"order_id": order_id},
    }
    assert await deliver("checkout.session.completed", paid) == "paid"
    await complete(world, visit_id)
    return visit_id, intent


async def ledger_holds() -> None:
    found = await run(check_ledger)
    assert not found.breaks, found.breaks


async def refund_rows() -> list[tuple[Transaction, CardRefund | None]]:
    async with app_db.unit_of_work() as session:
        rows = (
            await session.scalars(
                select(Transaction)
                .where(Transaction.type == TransactionType.refund)
                .order_by(Transaction.amount)
            )
        ).all()
        return [(row, await session.get(CardRefund, row.id)) for row in rows]


async def test_a_card_paid_visit_is_refunded_to_the_card_in_part_then_in_full(stripe_on, standin) -> None:
    world = stripe_on
    visit_id, intent = await paid_by_card(world, standin)
    half = await run(
        refund_visit,
        actor=world.owner.actor,
        appointment_id=visit_id,
        reason="Late",
        amount=Decimal("41.48"),
        to_card=True,
    )
    assert half == money("41.48")
    [sent] = standin.calls("POST", "/v1/refunds")
    [(row, card)] = await refund_rows()
    assert sent.params["payment_intent"] == intent and sent.params["amount"] == "4148"
    assert sent.idempotency_key == f"medivisit-refund-{row.id}"
    assert sent.params["metadata[refund_row_id]"] == row.id
    assert sent.params["metadata[appointment_id]"] == visit_id
    assert card is not None and card.status is CardRefundStatus.succeeded and card.refund_id
    assert (row.gateway, row.status, row.gateway_reference) == (
        "stripe",
        TransactionStatus.completed,
        card.refund_id,
    )
    assert await provider_balances(world) == (money("39.50"), 0, 0, 0)
    rest = await run(
        refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", to_card=True
    )
    assert rest == money("41.47")
    assert await provider_balances(world) == (0, 0, 0, 0)
    # Nothing went to the wallet: all of it went back to the card.
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == 0
    assert [r.params["amount"] for r in standin.calls("POST", "/v1/refunds")] == ["4148", "4147"]
    with pytest.raises(ValidationFailed, match="in full"):
        await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="x", to_card=True)
    await ledger_holds()


async def test_a_stripe_refusal_books_nothing(stripe_on, standin) -> None:
    world = stripe_on
    visit_id, _intent = await paid_by_card(world, standin)
    standin.refund_error = "Your card has expired."
    with pytest.raises(ValidationFailed, match="Stripe refused the refund.*expired"):
        await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", to_card=True)
    assert await refund_rows() == []
    async with app_db.unit_of_work() as session:
        entries = await session.scalar(
            select(func.count()).select_from(JournalEntry).where(JournalEntry.kind == EntryKind.refund)
        )
    assert entries == 0
    assert await provider_balances(world) == (money("79.00"), 0, 0, 0)
    await ledger_holds()


async def test_a_failed_card_refund_is_credited_to_the_wallet_once(stripe_on, standin) -> None:
    world = stripe_on
    visit_id, intent = await paid_by_card(world, standin)
    await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", to_card=True)
    [(row, card)] = await refund_rows()
    assert card is not None
    failed = {
        "id": card.refund_id,
        "object": "refund",
        "amount": card.amount,
        "payment_intent": intent,
        "status": "failed",
        "failure_reason": "expired_or_canceled_card",
        "metadata": {"refund_row_id": row.id},
    }
    assert await deliver("refund.updated", failed, "evt_refund_failed") == "refund_failed"
    assert await deliver("refund.updated", failed, "evt_refund_failed") == "duplicate"
    assert await deliver("refund.failed", failed) == "ignored"  # another event about it: nothing more
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == money("82.95")
    rows = await refund_rows()
    assert sorted((r.gateway, r.status.value) for r, _c in rows) == [
        ("stripe", "failed"),
        ("wallet", "completed"),
    ]
    await ledger_holds()


async def test_a_dispute_resolved_with_a_partial_refund_goes_to_the_card(stripe_on, standin) -> None:
    world = stripe_on
    visit_id, intent = await paid_by_card(world, standin)
    from datetime import timedelta

    dispute = await run(
        report_visit_problem,
        actor=world.patient.actor,
        appointment_id=visit_id,
        reason="cut_short",
        details="Left after ten minutes.",
        now=NINE + timedelta(hours=2),
    )
    await run(
        resolve_dispute,
        actor=world.owner.actor,
        dispute_id=dispute.id,
        outcome="partial_refund",
        amount=Decimal("20.00"),
        now=NINE + timedelta(hours=3),
    )
    [sent] = standin.calls("POST", "/v1/refunds")
    assert (sent.params["payment_intent"], sent.params["amount"]) == (intent, "2000")
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == 0
    await ledger_holds()
