"""One checkout (issue 29 item 4: app/services/checkout, the store's card path, app/services/payments
`_checkout_lines` / `_store_payments`) on SQLite and, with TEST_DATABASE_URL, PostgreSQL: a cart with a visit
and products is placed with one action as one visit order and one linked store order; by card it is one
Stripe Checkout Session listing the visit, the fee, each product, shipping and tax, whose total is both
orders' totals, and Stripe's webhook marks both paid (the ledger booking the visit as paid ahead and the
products as store sales, no retail fee) or releases both; paid at the visit, the products are paid on
delivery. A store-only cart pays by card on its own session when Stripe is on. The demo's products have
real image files. Stripe's answers come from tests/stripe_standin.py; webhook events are signed with the SDK's
own helper; every test ends with the ledger's invariants checked (`check_ledger`).
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest
from sqlalchemy import select, update

from app import db as app_db
from app.services.booking import CheckoutLine, hold_slot
from app.services.cart import CartOwner, add_product_to_cart
from app.services.checkout import place_checkout
from app.services.demo.internal import seed_demo_store
from app.services.errors import ValidationFailed
from app.services.ledger import get_revenue_summary, grant_wallet_credit
from app.services.ledger._journal import balances
from app.services.ledger.internal import check_ledger
from app.services.payments import handle_stripe_webhook
from app.services.store import (
    create_product,
    list_my_store_orders,
    list_store_products,
    move_fulfilment,
    open_product_image,
    place_store_order,
)
from models.account import Role
from models.catalog import ServiceLocation
from models.ledger import EntryKind, JournalEntry
from models.payment import CardPayment
from models.staff import Permission
from models.store import Product, ProductCreate, ProductImage, ShippingAddress, StoreCardPayment, StoreOrder
from tests import stripe_standin
from tests.factories import ZIP, Person, person, present, run
from tests.unit import test_ledger
from tests.unit.test_booking import NINE, NOW
from tests.unit.test_ledger import World, balanced

world = test_ledger.world  # a patient, a provider (Ada Nurse), two owners and a manager
HOME = ShippingAddress(name="Jordan Lee", line1="12 Main St", city="New York", state="NY", zip_code="10118")


@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


@pytest.fixture
def stripe_on(world: World, monkeypatch, standin) -> World:  # noqa: ANN001
    stripe_standin.configure_gateway(monkeypatch, standin)
    return world


async def stocked(world: World, name: str, price: str, stock: str = "5") -> str:
    staff = await person(Role.support, f"Sam {name}", extras=(Permission.manage_services,))
    data = ProductCreate(name=name, description="", category="Medical Supplies", price=price, stock=stock)
    product = await run(create_product, actor=staff.actor, data=data)
    return product.id


async def in_cart(patient: Person, product_id: str, times: int = 1) -> None:
    for _ in range(times):
        await run(
            add_product_to_cart,
            owner=CartOwner(user_id=patient.id),
            actor=patient.actor,
            product_id=product_id,
        )


async def held_line(world: World) -> CheckoutLine:
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=world.patient.actor,
            service_slug="routine-blood-draw",
            provider_id=world.provider_id,
            starts_at=NINE,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
    return CheckoutLine(
        hold_id=held.id, location="home", address_line="12 Main St", city="New York", state="NY", zip_code=ZIP
    )


async def deliver(obj: dict, kind: str = "checkout.session.completed") -> str:
    body, header = stripe_standin.signed(stripe_standin.event(kind, obj))
    return (await run(handle_stripe_webhook, payload=body, signature=header)).result


def session_event(checkout: dict, **change: object) -> dict:
    """Stripe's checkout.session.completed for a session the stand-in created, paid in full."""
    return checkout | {"payment_status": "paid", "status": "complete", "payment_intent": "pi_paid"} | change


async def ledger_holds() -> None:
    await balanced()
    found = await run(check_ledger)
    assert not found.breaks, found.breaks


async def entry_kinds(order_id: str) -> list[EntryKind]:
    async with app_db.unit_of_work() as session:
        return list(await session.scalars(select(JournalEntry.kind).where(JournalEntry.order_id == order_id)))


async def test_a_mixed_cart_by_card_is_one_session_both_orders_paid_by_one_webhook(
    stripe_on, standin
) -> None:
    world = stripe_on
    gauze = await stocked(world, "Gauze pads", "8.50")
    thermometer = await stocked(world, "Thermometer", "20.00")
    await in_cart(world.patient, gauze, 2)
    await in_cart(world.patient, thermometer)
    line = await held_line(world)
    placed = await run(place_checkout, actor=world.patient.actor, lines=[line], address=HOME, now=NOW)
    store = present(placed.store_order)
    assert placed.payment_url and store.visit_order_number == placed.order.number
    assert store.payment_method == "stripe" and store.paid_at is None
    # One Checkout Session: the visit, the fee, each product, shipping and tax; its total is both orders'.
    [created] = standin.calls("POST", "/v1/checkout/sessions")
    names = [v for k, v in sorted(created.params.items()) if k.endswith("[product_data][name]")]
    assert len(names) >= 4 and any(n == "Gauze pads" for n in names) and "Platform fee" in names
    checkout = list(standin.sessions.values())[-1]
    assert checkout["amount_total"] == placed.total_cents == 7900 + 395 + store.total_cents
    assert checkout["metadata"]["store_order_id"] == store.id
    async with app_db.unit_of_work() as session:
        payment = present(await session.get(CardPayment, placed.order.id))
        assert payment.amount == placed.total_cents
        assert await session.scalar(select(StoreCardPayment)) is None  # no second payment
    # Staff cannot ship what is not paid yet.
    staff = await person(Role.support, "Sam Staff", extras=(Permission.manage_services,))
    with pytest.raises(ValidationFailed, match="awaits its card payment"):
        await run(move_fulfilment, actor=staff.actor, order_id=store.id, to="processed")
    assert await entry_kinds(store.id) == []  # nothing in the ledger before the payment
    # One webhook: both parts are paid; the ledger books the visit paid ahead and the products as sales.
    assert await deliver(session_event(checkout)) == "paid"
    [mine] = (await run(list_my_store_orders, actor=world.patient.actor)).items
    assert mine.status == "paid" and mine.paid_at is not None
    assert await entry_kinds(store.id) == [EntryKind.store_order_paid]
    assert EntryKind.order_placed in await entry_kinds(placed.order.id)
    async with app_db.unit_of_work() as session:
        found = await balances(
            session, ["store_sales", "platform_fees", f"patient_booked:{world.patient.id}"]
        )
    assert found["store_sales"] == store.subtotal_cents + store.shipping_cents
    assert store.fee_cents == 0  # no platform fee on retail unless an owner sets one
    # Shipping and delivering a paid order collects nothing more.
    for step in ("processed", "shipped", "delivered"):
        await run(
            move_fulfilment,
            actor=staff.actor,
            order_id=store.id,
            to=step,
            carrier="UPS" if step == "shipped" else "",
            tracking_number="1Z999" if step == "shipped" else "",
        )
    assert await entry_kinds(store.id) == [EntryKind.store_order_paid]
    await ledger_holds()


async def test_a_failed_payment_releases_both_parts_and_puts_the_stock_back(stripe_on, standin) -> None:
    world = stripe_on
    gauze = await stocked(world, "Gauze pads", "8.50", stock="3")
    await in_cart(world.patient, gauze, 2)
    placed = await run(
        place_checkout, actor=world.patient.actor, lines=[await held_line(world)], address=HOME, now=NOW
    )
    checkout = list(standin.sessions.values())[-1]
    assert await deliver(checkout | {"status": "expired"}, "checkout.session.expired") == "failed"
    async with app_db.unit_of_work() as session:
        store = present(await session.get(StoreOrder, present(placed.store_order).id))
        assert (store.fulfilment, store.status) == ("canceled", "cancelled")
        assert await session.scalar(select(Product.stock).where(Product.id == gauze)) == 3
    await ledger_holds()


async def test_paid_at_the_visit_the_products_are_paid_on_delivery_in_the_same_checkout(world) -> None:
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(world.patient, gauze)
    placed = await run(
        place_checkout, actor=world.patient.actor, lines=[await held_line(world)], address=HOME, now=NOW
    )
    store = present(placed.store_order)
    assert placed.payment_url == "" and store.payment_method == "pay_on_delivery"
    assert store.visit_order_number == placed.order.number
    assert await entry_kinds(store.id) == [EntryKind.store_order_placed]
    await ledger_holds()


async def test_nothing_is_written_when_the_products_cannot_be_ordered(world) -> None:
    gauze = await stocked(world, "Gauze pads", "8.50", stock="2")
    await in_cart(world.patient, gauze, 2)
    async with app_db.unit_of_work() as session:  # another patient bought one meanwhile
        present(await session.get(Product, gauze)).stock = 1
    with pytest.raises(ValidationFailed, match="Only 1 of Gauze pads left"):
        await run(
            place_checkout, actor=world.patient.actor, lines=[await held_line(world)], address=HOME, now=NOW
        )
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(StoreOrder)) is None
        assert await session.scalar(select(CardPayment)) is None
    await ledger_holds()


async def test_a_store_only_cart_pays_by_card_on_its_own_session(stripe_on, standin) -> None:
    world = stripe_on
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(world.patient, gauze, 3)
    order = await run(place_store_order, actor=world.patient.actor, address=HOME)
    assert order.payment_method == "stripe" and order.payment_url
    checkout = list(standin.sessions.values())[-1]
    assert checkout["amount_total"] == order.total_cents
    assert checkout["metadata"] == {
        "order_id": "",
        "store_order_id": order.id,
        "store_order_number": order.number,
    }
    # An answer for another amount changes nothing.
    assert await deliver(session_event(checkout, amount_total=1)) == "mismatch"
    assert await entry_kinds(order.id) == []
    assert await deliver(session_event(checkout)) == "paid"
    assert await deliver(session_event(checkout)) in {"ignored", "duplicate"}  # a second event: once
    [mine] = (await run(list_my_store_orders, actor=world.patient.actor)).items
    assert mine.status == "paid"
    assert await entry_kinds(order.id) == [EntryKind.store_order_paid]
    # Revenue counts the sale once it is paid by card (it is not delivered yet, and never collected later).
    summary = await run(get_revenue_summary, actor=world.owner.actor)
    assert summary.totals.gross == Decimal(order.total_cents) / 100
    # Canceled by staff after payment: refunded to the card it was paid with (nothing to the wallet).
    staff = await person(Role.support, "Sam Staff", extras=(Permission.manage_services,))
    await run(move_fulfilment, actor=staff.actor, order_id=order.id, to="canceled", reason="Out of date")
    [sent] = standin.calls("POST", "/v1/refunds")
    assert (sent.params["payment_intent"], sent.params["amount"]) == ("pi_paid", str(order.total_cents))
    assert sent.params["metadata[store_order_id]"] == order.id
    async with app_db.unit_of_work() as session:
        found = await balances(session, [f"patient_credit:{world.patient.id}"])
    assert found[f"patient_credit:{world.patient.id}"] == 0
    await ledger_holds()
    # The ledger check names a paid store payment its entry did not book (written past the ledger, by hand).
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(StoreCardPayment)
            .where(StoreCardPayment.store_order_id == order.id)
            .values(amount=order.total_cents + 100)
        )
    assert [(b.rule, b.subject) for b in (await run(check_ledger)).breaks] == [
        ("payment_without_entry", order.id)
    ]


async def test_with_stripe_off_a_store_only_cart_stays_pay_on_delivery(world) -> None:
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(world.patient, gauze)
    order = await run(place_store_order, actor=world.patient.actor, address=HOME)
    assert (order.payment_method, order.payment_url) == ("pay_on_delivery", "")
    await ledger_holds()


async def test_wallet_credit_with_a_card_the_one_session_charges_the_cart_less_the_credit(
    stripe_on, standin
) -> None:
    world = stripe_on
    await run(
        grant_wallet_credit,
        actor=world.owner.actor,
        patient_id=world.patient.id,
        amount=Decimal("30"),
        reason="Goodwill",
    )
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(world.patient, gauze, 2)
    placed = await run(
        place_checkout,
        actor=world.patient.actor,
        lines=[await held_line(world)],
        address=HOME,
        payment_mode="stripe",
        use_credit=True,
        now=NOW,
    )
    store = present(placed.store_order)
    assert placed.order.payment_method == store.payment_method == "stripe"
    checkout = list(standin.sessions.values())[-1]
    # The visits' $82.95 less the $30 of credit, and the products in full.
    assert checkout["amount_total"] == 7900 + 395 - 3000 + store.total_cents
    [created] = standin.calls("POST", "/v1/checkout/sessions")
    names = [v for k, v in sorted(created.params.items()) if k.endswith("[product_data][name]")]
    assert "Platform fee" not in names  # paid with credit, whole
    assert any(name.endswith("(less $26.05 wallet credit)") for name in names)
    await ledger_holds()
    assert await deliver(session_event(checkout)) == "paid"
    [mine] = (await run(list_my_store_orders, actor=world.patient.actor)).items
    assert mine.status == "paid"
    async with app_db.unit_of_work() as session:
        found = await balances(session, [f"patient_credit:{world.patient.id}"])
    assert found[f"patient_credit:{world.patient.id}"] == 0
    await ledger_holds()


async def test_the_demo_store_ships_a_picture_of_every_product(world) -> None:
    async with app_db.unit_of_work() as session:
        said = await seed_demo_store(session=session)
    assert said == ["13 store products in 9 categories, 13 with a picture"]
    page = await run(list_store_products, page_size=50)
    assert len(page.items) == 13 and all(p.image_url for p in page.items)
    async with app_db.unit_of_work() as session:
        images = (await session.scalars(select(ProductImage))).all()
    assert len(images) == 13 and {image.content_type for image in images} == {"image/webp"}
    path, kind = await run(open_product_image, image_id=images[0].id)
    assert kind == "image/webp" and path.read_bytes()[8:12] == b"WEBP"
    async with app_db.unit_of_work() as session:  # seeding again adds nothing
        assert await seed_demo_store(session=session) == ["already present"]
