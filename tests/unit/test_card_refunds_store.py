"""Refunds of store orders and what every screen reads of refunds to the card (issue 29 item 3;
app/services/store/_refunds.py, payments/_refunds.py, receipts, the visit money read, Revenue) on SQLite and,
with TEST_DATABASE_URL, PostgreSQL: a store order paid by card on its own is refunded to the card in part by
payments staff, and the rest goes back to the card when it is canceled; a mixed checkout's card refunds are
capped by what the card paid for each part, and its one receipt lists the products and each refund as a
credit note whose totals agree; a card refund Stripe reports failed shows "failed" in the visit's money, is
counted once in Revenue and tells the patient. Stripe is tests/stripe_standin.py; events are signed with the
SDK's own helper; the ledger's invariants are checked after each.
"""

from __future__ import annotations

import io
import json
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from app import db as app_db
from app.services.checkout import place_checkout
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.ledger import get_revenue_breakdown, get_revenue_summary, refund_visit
from app.services.receipts import get_order_receipt, get_receipt, get_visit_money
from app.services.store import (
    get_store_order_money,
    list_my_store_orders,
    move_fulfilment,
    place_store_order,
    refund_store_order,
)
from models.account import Role
from models.notification import Notification
from models.staff import Permission
from tests import stripe_standin
from tests.factories import person, present, run
from tests.unit import test_card_refunds, test_one_checkout
from tests.unit.test_automation import connect, deliveries
from tests.unit.test_ledger import World, complete
from tests.unit.test_one_checkout import HOME, held_line, in_cart, ledger_holds, session_event, stocked
from tests.unit.test_store_receipts import pdf_text
from tests.webhook_receiver import Receiver

world = test_one_checkout.world
standin = test_one_checkout.standin
stripe_on = test_one_checkout.stripe_on


async def store_paid_by_card(world: World, standin: stripe_standin.StripeStandIn, intent: str):  # noqa: ANN201
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(world.patient, gauze, 3)
    order = await run(place_store_order, actor=world.patient.actor, address=HOME)
    checkout = list(standin.sessions.values())[-1]
    standin.captured[intent] = order.total_cents
    assert await test_one_checkout.deliver(session_event(checkout, payment_intent=intent)) == "paid"
    return order


async def test_a_store_order_paid_by_card_is_refunded_to_the_card_in_part_then_the_rest_on_cancel(
    stripe_on, standin
) -> None:
    world = stripe_on
    order = await store_paid_by_card(world, standin, "pi_store_own")
    total = Decimal(order.total_cents) / 100
    store_staff = await person(Role.support, "Sam Staff", extras=(Permission.manage_services,))
    with pytest.raises(PermissionDenied):  # refunds are payments staff's
        await run(refund_store_order, actor=store_staff.actor, order_id=order.id, reason="x")
    with pytest.raises(ValidationFailed, match="reason"):
        await run(refund_store_order, actor=world.owner.actor, order_id=order.id, reason=" ")
    with pytest.raises(ValidationFailed, match="Refund between"):
        await run(
            refund_store_order, actor=world.owner.actor, order_id=order.id, reason="x", amount=total + 1
        )
    five = await run(
        refund_store_order,
        actor=world.owner.actor,
        order_id=order.id,
        reason="One pack was torn",
        amount=Decimal("5.00"),
    )
    assert five == Decimal("5.00")
    [sent] = standin.calls("POST", "/v1/refunds")
    assert (sent.params["payment_intent"], sent.params["amount"]) == ("pi_store_own", "500")
    assert sent.params["metadata[store_order_id]"] == order.id
    money = await run(get_store_order_money, actor=world.owner.actor, order_id=order.id)
    assert (money.refunded, money.refundable, money.paid_by_card) == (Decimal("5.00"), total - 5, True)
    [refund] = money.refunds
    assert (refund.to_card, refund.card_status, refund.reason) == (True, "succeeded", "One pack was torn")

    # Canceled after payment: what is left goes back to the card, none of it to the wallet.
    await run(move_fulfilment, actor=store_staff.actor, order_id=order.id, to="canceled", reason="Recall")
    amounts = [r.params["amount"] for r in standin.calls("POST", "/v1/refunds")]
    assert amounts == ["500", str(order.total_cents - 500)]
    with pytest.raises(ValidationFailed):
        await run(refund_store_order, actor=world.owner.actor, order_id=order.id, reason="again")
    wallet = await test_card_refunds.run(test_card_refunds.get_my_wallet, actor=world.patient.actor)
    assert wallet.credit == 0
    # Revenue counts the card refunds; the store receipt lists each as a credit note.
    summary = await run(get_revenue_summary, actor=world.owner.actor)
    assert summary.totals.refunds == total
    split = await run(get_revenue_breakdown, actor=world.owner.actor)
    assert split.totals.refunds == total
    text = await pdf_text(world.patient, order.number)
    assert "Refunded to card" in text and "-$5.00" in text and "Net paid $0.00" in text
    await ledger_holds()


async def test_a_mixed_checkout_refunds_each_part_at_most_what_the_card_paid_for_it(
    stripe_on, standin
) -> None:
    world = stripe_on
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(world.patient, gauze, 2)
    line = await held_line(world)
    placed = await run(place_checkout, actor=world.patient.actor, lines=[line], address=HOME)
    store = present(placed.store_order)
    checkout = list(standin.sessions.values())[-1]
    standin.captured["pi_mixed"] = placed.total_cents
    assert await test_one_checkout.deliver(session_event(checkout, payment_intent="pi_mixed")) == "paid"
    [visit] = placed.order.appointments
    await complete(world, visit.id)
    visits_part = placed.total_cents - store.total_cents

    money = await run(get_visit_money, actor=world.owner.actor, appointment_id=visit.id)
    assert money.paid_by_card and money.card_refundable == Decimal(visits_part) / 100
    # The products first, in full: the visit's card part is untouched by it.
    await run(refund_store_order, actor=world.owner.actor, order_id=store.id, reason="Never arrived")
    money = await run(get_visit_money, actor=world.owner.actor, appointment_id=visit.id)
    assert money.card_refundable == Decimal(visits_part) / 100
    await run(refund_visit, actor=world.owner.actor, appointment_id=visit.id, reason="Late", to_card=True)
    sent = [r.params["amount"] for r in standin.calls("POST", "/v1/refunds")]
    assert sent == [str(store.total_cents), str(visits_part)]
    [mine] = (await run(list_my_store_orders, actor=world.patient.actor)).items
    assert mine.status == "refunded"

    receipt = await run(get_receipt, actor=world.patient.actor, number=placed.order.number)
    assert receipt.store_number == store.number and [p.name for p in receipt.products] == ["Gauze pads"]
    assert receipt.charged == Decimal(placed.total_cents) / 100
    assert [c.label for c in receipt.credits] == ["Refunded to card", "Refunded to card"]
    assert receipt.paid == receipt.charged and receipt.refunded == receipt.charged
    assert (receipt.net_paid, receipt.total, receipt.due) == (0, 0, 0)
    pdf = await run(get_order_receipt, actor=world.patient.actor, number=placed.order.number)
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages).split())
    assert "Gauze pads" in text and f"Store order {store.number}" in text and "Net paid $0.00" in text
    assert text.count("Refunded to card") == 2
    await ledger_holds()


async def test_a_failed_card_refund_shows_failed_counts_once_and_tells_the_patient(
    stripe_on, standin
) -> None:
    world = stripe_on
    visit_id, intent = await test_card_refunds.paid_by_card(world, standin)
    await run(
        refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", amount=Decimal("30")
    )  # as wallet credit, asked for
    await run(
        refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Cut short", to_card=True
    )
    money = await run(get_visit_money, actor=world.owner.actor, appointment_id=visit_id)
    assert [(r.to_card, r.card_status) for r in money.refunds] == [(True, "succeeded"), (False, "")]
    card = next(c for r, c in await test_card_refunds.refund_rows() if c is not None)
    failed = {
        "id": card.refund_id,
        "object": "refund",
        "amount": card.amount,
        "payment_intent": intent,
        "status": "failed",
        "failure_reason": "expired_or_canceled_card",
        "metadata": {"refund_row_id": card.id},
    }
    assert await test_card_refunds.deliver("refund.failed", failed) == "refund_failed"
    money = await run(get_visit_money, actor=world.owner.actor, appointment_id=visit_id)
    assert [(r.to_card, r.card_status) for r in money.refunds] == [(True, "failed"), (False, "")]
    assert money.refunds[0].failure_reason == "expired_or_canceled_card"
    summary = await run(get_revenue_summary, actor=world.owner.actor)
    assert summary.totals.refunds == money.refunded == money.charged
    async with app_db.unit_of_work() as session:
        titles = list(
            await session.scalars(
                select(Notification.title).where(Notification.recipient_id == world.patient.id)
            )
        )
    amount = f"${Decimal(card.amount) / 100:,.2f}"
    assert f"The refund of {amount} to your card failed" in titles
    receipt = await run(get_receipt, actor=world.patient.actor, number=money.order_number or "")
    assert [c.label for c in receipt.credits] == ["Refunded as wallet credit", "Refunded as wallet credit"]
    assert receipt.net_paid == receipt.total == 0
    await ledger_holds()


async def test_a_store_refund_the_card_could_not_take_is_credited_to_the_wallet(stripe_on, standin) -> None:
    world = stripe_on
    order = await store_paid_by_card(world, standin, "pi_store_fail")
    await run(
        refund_store_order,
        actor=world.owner.actor,
        order_id=order.id,
        reason="Damaged",
        amount=Decimal("4.00"),
    )
    [(row, card)] = [(r, c) for r, c in await test_card_refunds.refund_rows() if c is not None]
    assert card is not None and card.store_order_id == order.id and card.order_id is None
    failed = {
        "id": card.refund_id,
        "object": "refund",
        "amount": card.amount,
        "payment_intent": "pi_store_fail",
        "status": "failed",
        "failure_reason": "lost_or_stolen_card",
        "metadata": {"refund_row_id": row.id},
    }
    assert await test_card_refunds.deliver("refund.failed", failed) == "refund_failed"
    wallet = await run(test_card_refunds.get_my_wallet, actor=world.patient.actor)
    assert wallet.credit == Decimal("4.00")
    money = await run(get_store_order_money, actor=world.owner.actor, order_id=order.id)
    assert money.refunded == Decimal("4.00")  # once: the card's failure went to the wallet instead
    assert [(r.to_card, r.card_status) for r in money.refunds] == [(True, "failed")]
    summary = await run(get_revenue_summary, actor=world.owner.actor)
    assert summary.totals.refunds == Decimal("4.00")
    async with app_db.unit_of_work() as session:
        titles = list(
            await session.scalars(
                select(Notification.title).where(Notification.recipient_id == world.patient.id)
            )
        )
    assert "The refund of $4.00 to your card failed" in titles
    text = await pdf_text(world.patient, order.number)
    assert "Refunded as wallet credit" in text and "-$4.00" in text
    await ledger_holds()


async def test_a_store_order_paid_by_card_and_refunded_queues_its_automation_events(
    stripe_on, standin
) -> None:
    world = stripe_on
    with Receiver() as receiver:
        await connect(world.owner, receiver)
        order = await store_paid_by_card(world, standin, "pi_store_events")
        await run(
            refund_store_order,
            actor=world.owner.actor,
            order_id=order.id,
            reason="One pack was torn",
            amount=Decimal("5.00"),
        )
        store_staff = await person(Role.support, "Sam Staff", extras=(Permission.manage_services,))
        await run(move_fulfilment, actor=store_staff.actor, order_id=order.id, to="canceled", reason="Recall")
    [paid] = [json.loads(row.body) for row in await deliveries("payment.succeeded")]
    assert (paid["orderId"], paid["orderNumber"], paid["storeOrder"]) == (order.id, order.number, True)
    assert (paid["amountCents"], paid["paymentMethod"], paid["paymentIntentId"]) == (
        order.total_cents,
        "card",
        "pi_store_events",
    )
    refunds = [json.loads(row.body) for row in await deliveries("payment.refunded")]
    # Staff's part refund, then the rest when the order was canceled: each once, each to the card.
    assert [(r["amountCents"], r["refundedTo"]) for r in refunds] == [
        (500, "card"),
        (order.total_cents - 500, "card"),
    ]
    assert not any("address" in json.dumps(r).lower() for r in [paid, *refunds])
