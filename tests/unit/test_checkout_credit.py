"""Payment modes and wallet credit at checkout (issue 29, items 1 and 3), on SQLite and, with
TEST_DATABASE_URL, PostgreSQL.

The owners' setting decides which modes checkout offers and the service refuses any other; wallet credit
pays part or all of an order (the ledger books it spent, the balance locked so two checkouts cannot spend it
twice); a cancelled visit gives it back; the receipt's figures agree; the ledger's invariants hold.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.appointments import _lifecycle as visits
from app.services.booking import credit_to_apply, get_checkout_money, hold_slot, place_order
from app.services.booking._payment_choice import MODE_NOT_ALLOWED
from app.services.errors import ValidationFailed
from app.services.features import set_feature
from app.services.features._payment_modes import NO_CARD_GATEWAY, modes_of
from app.services.ledger import get_my_wallet, get_provider_balances, grant_wallet_credit
from app.services.ledger.internal import check_ledger
from app.services.payments import handle_stripe_webhook
from app.services.payments._checkout_lines import _line, less_credit, line_total
from app.services.receipts import get_receipt
from app.settings import get_settings
from models.booking import CheckoutLine, OrderRead, OrderStatus
from models.cart import CartItem
from models.catalog import Service, ServiceLocation
from models.checkout_credit import OrderCredit, PaymentMode
from models.ledger import EntryKind, JournalEntry
from models.payment import CardPayment
from tests import stripe_standin
from tests.factories import ZIP, blocked_writers, run
from tests.unit import test_ledger
from tests.unit.test_booking import NINE, NOW
from tests.unit.test_ledger import FEE, PRICE, WEDNESDAY_NINE, World, balanced, money

world = test_ledger.world
TOTAL = PRICE + FEE  # $82.95


def cents_of(amount: Decimal) -> int:
    return int(amount * 100)


DONE = NINE + timedelta(hours=1)


async def holds() -> None:
    await balanced()
    checked = await run(check_ledger)
    assert checked.holds, checked.breaks


async def give_credit(world: World, amount: str) -> None:
    await run(
        grant_wallet_credit,
        actor=world.owner.actor,
        patient_id=world.patient.id,
        amount=Decimal(amount),
        reason="Goodwill",
    )


async def held_line(world: World, starts_at=NINE) -> CheckoutLine:  # noqa: ANN001
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=world.patient.actor,
            service_slug="routine-blood-draw",
            provider_id=world.provider_id,
            starts_at=starts_at,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
    return CheckoutLine(
        hold_id=held.id, location="home", address_line="12 Main St", city="New York", state="NY", zip_code=ZIP
    )


async def order_with(
    world: World,
    *,
    starts_at=NINE,
    use_credit: bool = True,
    mode: str = "",  # noqa: ANN001
) -> OrderRead:
    line = await held_line(world, starts_at)
    return await run(
        place_order,
        actor=world.patient.actor,
        lines=[line],
        payment_mode=mode,
        use_credit=use_credit,
        now=NOW,
    )


async def credit_left(world: World) -> Decimal:
    return (await run(get_my_wallet, actor=world.patient.actor)).credit


# ---- item 1: the modes a marketplace allows ------------------------------------------------------
async def test_the_setting_decides_the_modes_and_the_service_refuses_any_other(world, monkeypatch) -> None:
    # Without the card gateway, pay at visit is the only usable mode, and "card only" cannot be chosen.
    offered = await run(get_checkout_money, actor=world.patient.actor)
    assert [m.mode for m in offered.modes] == [PaymentMode.visit]
    with pytest.raises(ValidationFailed) as refused:
        await run(set_feature, actor=world.owner.actor, key="payment_modes", value="card")
    assert refused.value.message == NO_CARD_GATEWAY
    line = await held_line(world)
    with pytest.raises(ValidationFailed) as refused:
        await run(place_order, actor=world.patient.actor, lines=[line], payment_mode="stripe", now=NOW)
    assert refused.value.message == MODE_NOT_ALLOWED.format(mode="Pay by card", allowed="pay at the visit")

    # With the card gateway: both by default (card first, recommended); the owners may narrow it.
    monkeypatch.setattr("app.services.features._payment_modes.card_configured", lambda: True)
    offered = await run(get_checkout_money, actor=world.patient.actor)
    assert [(m.mode, m.recommended) for m in offered.modes] == [
        (PaymentMode.card, True),
        (PaymentMode.visit, False),
    ]
    await run(set_feature, actor=world.owner.actor, key="payment_modes", value="visit")
    offered = await run(get_checkout_money, actor=world.patient.actor)
    assert [m.mode for m in offered.modes] == [PaymentMode.visit]
    with pytest.raises(ValidationFailed) as refused:
        await run(place_order, actor=world.patient.actor, lines=[line], payment_mode="stripe", now=NOW)
    assert "is not offered here" in refused.value.message
    order = await run(
        place_order, actor=world.patient.actor, lines=[line], payment_mode="pay_at_visit", now=NOW
    )
    assert order.payment_method == "pay_at_visit"
    await run(set_feature, actor=world.owner.actor, key="payment_modes", value="card")
    assert modes_of("card") == (PaymentMode.card,)
    await holds()


def test_a_stored_card_only_never_leaves_a_server_without_the_gateway_no_mode() -> None:
    get_settings.cache_clear()
    assert modes_of("card") == (PaymentMode.visit,)
    assert modes_of("nonsense") == (PaymentMode.visit,)


# ---- item 3: wallet credit spent at checkout -----------------------------------------------------
async def test_credit_pays_part_and_the_rest_is_due_at_the_visit(world) -> None:
    await give_credit(world, "20")
    assert (await run(get_checkout_money, actor=world.patient.actor)).credit == money("20")
    order = await order_with(world)
    visit_id = order.appointments[0].id
    assert order.payment_method == "pay_at_visit"
    assert await credit_left(world) == 0
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    assert (receipt.total, receipt.credit_applied, receipt.paid, receipt.due) == (
        TOTAL,
        money("20"),
        money("20"),
        TOTAL - 20,
    )
    await holds()

    actor = world.provider.actor
    await run(visits.confirm_appointment, actor=actor, appointment_id=visit_id, now=NOW)
    await run(visits.start_appointment, actor=actor, appointment_id=visit_id, now=NINE)
    # More than what is left due is refused: the credit is not collected twice.
    with pytest.raises(ValidationFailed):
        await run(
            visits.complete_appointment,
            actor=actor,
            appointment_id=visit_id,
            now=DONE,
            collected=str(TOTAL),
            method="cash",
        )
    await run(
        visits.complete_appointment,
        actor=actor,
        appointment_id=visit_id,
        now=DONE,
        collected=str(TOTAL - 20),
        method="cash",
    )
    await holds()
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    assert (receipt.status, receipt.paid, receipt.credit_applied, receipt.due) == (
        OrderStatus.paid,
        TOTAL,
        money("20"),
        0,
    )
    # The credit's part of the price reached the provider's available earnings (the cash is in their hand).
    balances = await run(get_provider_balances, actor=world.provider.actor)
    assert balances.available == money("20")


async def test_credit_covering_the_whole_order_needs_no_card_and_a_cancellation_gives_it_back(
    world,
) -> None:
    await give_credit(world, "100")
    order = await order_with(world, starts_at=WEDNESDAY_NINE)
    assert order.payment_method == "wallet_credit" and order.payment_url == ""
    assert await credit_left(world) == money("100") - TOTAL
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    assert receipt.paid_ahead and (receipt.credit_applied, receipt.paid, receipt.due) == (TOTAL, TOTAL, 0)
    await holds()

    visit_id = order.appointments[0].id
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=NOW)
    assert await credit_left(world) == money("100")
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    # Refunded as wallet credit: the order comes to $0 after its refund, nothing paid net, nothing due.
    assert (receipt.total, receipt.refunded, receipt.paid - receipt.refunded, receipt.due) == (0, TOTAL, 0, 0)
    await holds()


async def test_cancelling_a_visit_paid_in_part_by_credit_gives_the_credit_back(world) -> None:
    await give_credit(world, "30")
    order = await order_with(world, starts_at=WEDNESDAY_NINE)
    assert await credit_left(world) == 0
    await run(
        visits.cancel_appointment, actor=world.patient.actor, appointment_id=order.appointments[0].id, now=NOW
    )
    assert await credit_left(world) == money("30")
    wallet = await run(get_my_wallet, actor=world.patient.actor)
    assert wallet.booked == 0
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    assert (receipt.total, receipt.credit_applied, receipt.paid, receipt.due) == (0, 0, 0, 0)
    async with app_db.unit_of_work() as session:
        kinds = (await session.scalars(select(JournalEntry.kind).order_by(JournalEntry.created_at))).all()
    assert EntryKind.credit_spent in kinds and EntryKind.credit_returned in kinds
    await holds()


async def test_without_use_credit_the_wallet_is_left_alone(world) -> None:
    await give_credit(world, "20")
    order = await order_with(world, use_credit=False)
    assert await credit_left(world) == money("20")
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    assert (receipt.credit_applied, receipt.due) == (0, TOTAL)


async def test_two_concurrent_checkouts_cannot_spend_the_same_credit(world) -> None:
    await give_credit(world, "50")
    async with app_db.unit_of_work() as session:  # two visits in the cart: two times may be held
        service = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
        session.add(CartItem(user_id=world.patient.id, item_key="blood-draw", service_id=service, quantity=2))
    first_line = await held_line(world, NINE)
    second_line = await held_line(world, WEDNESDAY_NINE)

    async def second() -> OrderRead:
        return await run(
            place_order, actor=world.patient.actor, lines=[second_line], use_credit=True, now=NOW
        )

    async with app_db.unit_of_work() as session:
        first = await place_order(
            session=session, actor=world.patient.actor, lines=[first_line], use_credit=True, now=NOW
        )
        async with blocked_writers("ledger_accounts") as blocked:
            racing = asyncio.create_task(second())
            await blocked(1)  # the second checkout waits on the patient's credit balance
        assert not racing.done()
    other = await racing
    async with app_db.unit_of_work() as session:
        spent = {row.order_id: row.amount for row in await session.scalars(select(OrderCredit))}
    assert spent == {first.id: 5000}  # the second found nothing left to spend
    assert other.id not in spent
    assert await credit_left(world) == 0
    receipt = await run(get_receipt, actor=world.patient.actor, number=other.number)
    assert (receipt.credit_applied, receipt.due) == (0, TOTAL)
    await holds()


# ---- credit with a card: the card pays the rest ----------------------------------------------------
@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


async def deliver(obj: dict, kind: str = "checkout.session.completed") -> str:
    body, header = stripe_standin.signed(stripe_standin.event(kind, obj))
    return (await run(handle_stripe_webhook, payload=body, signature=header)).result


def line_amounts(created: stripe_standin.Request) -> dict[str, int]:
    names = {k.split("]")[0]: v for k, v in created.params.items() if k.endswith("[product_data][name]")}
    return {
        name: int(created.params[f"{key}][price_data][unit_amount]"]) for key, name in sorted(names.items())
    }


async def test_credit_with_a_card_the_session_charges_only_the_rest_and_the_ledger_balances(
    world, monkeypatch, standin
) -> None:
    stripe_standin.configure_gateway(monkeypatch, standin)
    await give_credit(world, "20")
    order = await order_with(world, mode="stripe")
    assert order.payment_method == "stripe" and order.payment_url
    assert await credit_left(world) == 0
    [created] = standin.calls("POST", "/v1/checkout/sessions")
    # The fee ($3.95) is paid with credit whole; the visit's line takes the rest of the $20.
    assert line_amounts(created) == {"Routine blood draw with Ada Nurse (less $16.05 wallet credit)": 6295}
    checkout = list(standin.sessions.values())[-1]
    assert checkout["amount_total"] == cents_of(TOTAL) - 2000
    async with app_db.unit_of_work() as session:
        payment = await session.get(CardPayment, order.id)
        assert payment is not None and payment.amount == cents_of(TOTAL) - 2000
    await holds()  # the credit is spent, nothing else of the order is in the ledger yet
    paid = checkout | {"payment_status": "paid", "status": "complete", "payment_intent": "pi_credit"}
    assert await deliver(paid) == "paid"
    receipt = await run(get_receipt, actor=world.patient.actor, number=order.number)
    assert receipt.paid_ahead
    assert (receipt.total, receipt.credit_applied, receipt.paid, receipt.due) == (
        TOTAL,
        money("20"),
        TOTAL,
        0,
    )
    await holds()


async def test_a_card_payment_that_expires_gives_the_credit_back(world, monkeypatch, standin) -> None:
    stripe_standin.configure_gateway(monkeypatch, standin)
    await give_credit(world, "20")
    await order_with(world, mode="stripe")
    checkout = list(standin.sessions.values())[-1]
    assert await deliver(checkout | {"status": "expired"}, "checkout.session.expired") == "failed"
    assert await credit_left(world) == money("20")
    await holds()


def test_the_card_is_always_left_stripes_minimum() -> None:
    assert credit_to_apply(8290, 8295, by_card=True) == 8245  # the card pays $0.50, not $0.05
    assert credit_to_apply(8290, 8295, by_card=False) == 8290
    assert credit_to_apply(9000, 8295, by_card=True) == 8295  # covered in full: no card at all
    assert credit_to_apply(2000, 30, by_card=True) == 30
    assert credit_to_apply(20, 40, by_card=True) == 0


def test_the_credit_comes_off_the_last_lines_first() -> None:
    lines = [_line("Draw", 7900), _line("IV", 5000), _line("Platform fee", 645)]
    assert [
        (line["price_data"]["product_data"]["name"], line["price_data"]["unit_amount"])
        for line in less_credit(lines, 1000)
    ] == [("Draw", 7900), ("IV (less $3.55 wallet credit)", 4645)]
    assert line_total(less_credit(lines, 13545)) == 0
