"""The store (`app.services.store`, issue 14 part 9) on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
staff's product management and its permission, products in the cart, checkout with a shipping address
(stock reserved atomically: the last unit goes to one of two patients buying it at once), every fulfilment
step and the illegal ones refused, the ledger balanced after each step (`balanced` from the ledger's tests)
and the patient's e-mails on a real SMTP server (aiosmtpd); the store's money from the owners' business
settings (no retail fee by default; fee, shipping, free-shipping threshold and sales tax exact to the cent,
booked and reversed in balance, `check_ledger` finding no break)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app import flags
from app.services.cart import CartOwner, add_product_to_cart, set_quantity
from app.services.cart.internal import get_cart
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.features import reset_feature, set_feature
from app.services.features.internal import load_toggles
from app.services.ledger import get_revenue_breakdown, get_revenue_summary
from app.services.ledger._journal import balances
from app.services.ledger.internal import check_ledger
from app.services.store import (
    ProductInvalid,
    ShippingInvalid,
    create_product,
    get_shipping_prefill,
    list_my_store_orders,
    list_products,
    list_store_orders,
    list_store_products,
    move_fulfilment,
    place_store_order,
    update_product,
)
from models.account import Role, SavedAddress
from models.audit import AuditEntry
from models.ledger import AccountKind
from models.notification import Notification, NotificationKind
from models.staff import Permission
from models.store import Product, ProductCreate, ProductUpdate, ShippingAddress
from tests.factories import Person, blocked_writers, person, present, run
from tests.unit.test_ledger import balanced

HOME = ShippingAddress(
    name="Jordan Lee", line1="350 Fifth Avenue", line2="Apt 5", city="New York", state="NY", zip_code="10118"
)


@dataclass(frozen=True)
class Shop:
    patient: Person
    staff: Person  # support with manage_services as an extra permission
    manager: Person  # management: no manage_services


async def build_shop() -> Shop:
    return Shop(
        patient=await person(Role.patient, "Jordan Lee"),
        staff=await person(Role.support, "Sam Rivera", extras=(Permission.manage_services,)),
        manager=await person(Role.management, "Mia Manager"),
    )


@pytest.fixture
async def shop(identity, world_once) -> Shop:
    return await world_once(build_shop)


def gauze(**changes: str) -> ProductCreate:
    fields = {
        "name": "Sterile gauze pads, 4 × 4 in, 25 count",
        "description": "Individually wrapped cotton gauze pads for dressing minor cuts.",
        "category": "Medical Supplies",
        "price": "8.50",
        "stock": "5",
    }
    return ProductCreate(**(fields | changes))


async def new_product(shop: Shop, **changes: str) -> str:
    return (await run(create_product, actor=shop.staff.actor, data=gauze(**changes))).id


async def add(patient: Person, product_id: str, times: int = 1) -> None:
    for _ in range(times):
        await run(
            add_product_to_cart,
            owner=CartOwner(user_id=patient.id),
            actor=patient.actor,
            product_id=product_id,
        )


async def stock(product_id: str) -> int:
    async with app_db.unit_of_work() as session:
        return present(await session.scalar(select(Product.stock).where(Product.id == product_id)))


async def owed(patient: Person) -> dict[str, int]:
    """The balances the store moves, after checking every ledger invariant (all postings sum to zero)."""
    await balanced()
    async with app_db.unit_of_work() as session:
        return await balances(
            session,
            [f"patient_booked:{patient.id}", f"patient_credit:{patient.id}", "store_sales", "platform_fees"],
        )


async def test_only_staff_with_manage_services_manage_products(shop) -> None:
    for someone in (shop.patient, shop.manager):
        with pytest.raises(PermissionDenied):
            await run(create_product, actor=someone.actor, data=gauze())
        with pytest.raises(PermissionDenied):
            await run(list_products, actor=someone.actor)
    product = await run(create_product, actor=shop.staff.actor, data=gauze())
    assert (product.price_cents, product.stock, product.category) == (850, 5, "Medical Supplies")
    changed = await run(
        update_product,
        actor=shop.staff.actor,
        product_id=product.id,
        data=ProductUpdate(**gauze(price="$9.25", stock="12").model_dump()),
    )
    assert (changed.price_cents, changed.stock) == (925, 12)
    with pytest.raises(PermissionDenied):
        await run(
            update_product,
            actor=shop.manager.actor,
            product_id=product.id,
            data=ProductUpdate(**gauze().model_dump()),
        )
    page = await run(list_products, actor=shop.staff.actor, search="GAUZE")
    assert [p.id for p in page.items] == [product.id]
    async with app_db.unit_of_work() as session:
        actions = (
            await session.scalars(
                select(AuditEntry.action)
                .where(AuditEntry.target == f"product {product.id}")
                .order_by(AuditEntry.created_at)
            )
        ).all()
    assert actions == ["product_create", "product_update"]


async def test_a_product_as_typed_is_checked_field_by_field(shop) -> None:
    with pytest.raises(ProductInvalid) as refused:
        await run(
            create_product,
            actor=shop.staff.actor,
            data=gauze(name="  ", category="Snacks", price="12.345", stock="-1"),
        )
    assert set(refused.value.errors) == {"name", "category", "price", "stock"}
    assert refused.value.errors["price"].startswith("Enter a price in dollars")
    with pytest.raises(ProductInvalid):
        await run(create_product, actor=shop.staff.actor, data=gauze(price="0"))
    with pytest.raises(ProductInvalid):
        await run(create_product, actor=shop.staff.actor, data=gauze(name="x" * 121))


async def test_patients_browse_active_products_by_category_and_search(shop) -> None:
    gauze_id = await new_product(shop)
    await new_product(shop, name="Vitamin D3 1000 IU, 90 softgels", category="Vitamins", price="11.00")
    hidden = await new_product(shop, name="Retired gauze", category="Medical Supplies")
    await run(
        update_product,
        actor=shop.staff.actor,
        product_id=hidden,
        data=ProductUpdate(**gauze(name="Retired gauze").model_dump() | {"active": False}),
    )
    every = await run(list_store_products)
    assert every.total == 2
    supplies = await run(list_store_products, category="Medical Supplies")
    assert [p.id for p in supplies.items] == [gauze_id]
    assert [p.name for p in (await run(list_store_products, search="vitamin")).items] == [
        "Vitamin D3 1000 IU, 90 softgels"
    ]
    assert (await run(list_store_products, search="%")).total == 0


async def test_the_cart_takes_products_beside_visits_within_their_stock(shop) -> None:
    product = await new_product(shop, stock="2")
    await add(shop.patient, product, times=2)
    with pytest.raises(ValidationFailed, match="Only 2 of"):
        await add(shop.patient, product)
    owner = CartOwner(user_id=shop.patient.id)
    cart = await run(get_cart, owner=owner)
    [line] = cart.items
    assert (line.is_product, line.quantity, str(line.price)) == (True, 2, "8.50")
    # Retail carries no platform fee unless an owner sets one (issue 29 item 4).
    assert (str(cart.totals.subtotal), str(cart.totals.platform_fee), str(cart.totals.total)) == (
        "17.00",
        "0.00",
        "17.00",
    )
    await run(set_quantity, owner=owner, actor=shop.patient.actor, item_id=line.id, quantity=1)
    assert (await run(get_cart, owner=owner)).totals.item_count == 1
    sold_out = await new_product(shop, name="Sold out thermometer", stock="0")
    with pytest.raises(ValidationFailed, match="out of stock"):
        await add(shop.patient, sold_out)
    with pytest.raises(PermissionDenied):
        await run(
            add_product_to_cart,
            owner=CartOwner(visitor_id="v" * 20),
            actor=shop.patient.actor,
            product_id=product,
        )


async def test_checkout_needs_a_real_us_address(shop) -> None:
    product = await new_product(shop)
    await add(shop.patient, product)
    with pytest.raises(ShippingInvalid) as refused:
        await run(
            place_store_order,
            actor=shop.patient.actor,
            address=ShippingAddress(name="", line1="", city="Chicago", state="IL", zip_code="10118"),
        )
    assert refused.value.errors == {
        "name": "Enter the name of the person receiving the parcel.",
        "line1": "Enter the street address.",
        "zip_code": "ZIP code 10118 is in NY, not IL.",
    }
    with pytest.raises(ShippingInvalid) as refused:
        await run(
            place_store_order, actor=shop.patient.actor, address=HOME.model_copy(update={"zip_code": "00000"})
        )
    assert set(refused.value.errors) == {"zip_code"}
    assert await stock(product) == 5  # nothing reserved


async def test_an_order_moves_through_every_fulfilment_step(shop, smtp) -> None:
    product = await new_product(shop, stock="5")
    await add(shop.patient, product, times=2)
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME)
    assert (order.status, order.fulfilment, order.subtotal_cents, order.fee_cents, order.total_cents) == (
        "pending",
        "pending",
        1700,
        0,
        1700,
    )
    assert order.number.startswith("MS-") and order.ship_zip == "10118"
    assert await stock(product) == 3
    assert (await run(get_cart, owner=CartOwner(user_id=shop.patient.id))).items == []
    booked = f"patient_booked:{shop.patient.id}"
    assert (await owed(shop.patient))[booked] == 1700
    assert smtp.wait_for(1)[0]["Subject"] == f"Store order {order.number} placed"
    smtp.clear()

    async def step(to: str, **more: str):  # noqa: ANN202
        return await run(move_fulfilment, actor=shop.staff.actor, order_id=order.id, to=to, **more)

    with pytest.raises(ValidationFailed, match="cannot be marked shipped"):
        await step("shipped", carrier="UPS", tracking_number="1Z999")
    with pytest.raises(PermissionDenied):
        await run(move_fulfilment, actor=shop.manager.actor, order_id=order.id, to="processed")
    with pytest.raises(PermissionDenied):
        await run(move_fulfilment, actor=shop.patient.actor, order_id=order.id, to="processed")
    assert (await step("processed")).status == "processing"
    with pytest.raises(ValidationFailed, match="carrier and the tracking number"):
        await step("shipped", carrier="UPS", tracking_number=" ")
    with pytest.raises(ValidationFailed, match="letters, digits and dashes"):
        await step("shipped", carrier="UPS", tracking_number="<script>")
    shipped = await step("shipped", carrier="UPS", tracking_number="1Z 999 AA1 0123 4567 84")
    assert (shipped.status, shipped.fulfilment, shipped.tracking_number) == (
        "shipped",
        "shipped",
        "1Z 999 AA1 0123 4567 84",
    )
    with pytest.raises(ValidationFailed, match="cannot be marked canceled"):
        await step("canceled")
    with pytest.raises(ValidationFailed, match="cannot be marked returned"):
        await step("returned")
    delivered = await step("delivered")
    assert (delivered.status, delivered.fulfilment) == ("delivered", "delivered")
    money = await owed(shop.patient)
    assert (money[booked], money["store_sales"], money["platform_fees"]) == (0, 1700, 0)
    # Revenue reports count a delivered order as collected, in a group of its own when split by service line.
    revenue = (await run(get_revenue_summary, actor=shop.manager.actor)).totals
    assert (revenue.gross, revenue.fees, revenue.net) == (Decimal("17.00"), Decimal("0.00"), Decimal("0.00"))
    split = await run(get_revenue_breakdown, actor=shop.manager.actor, split="service_line")
    assert [(g.label, g.gross) for g in split.groups] == [("Store orders and other", Decimal("17.00"))]
    returned = await step("returned", reason="Box arrived crushed")
    assert (returned.status, returned.fulfilment, returned.note) == (
        "refunded",
        "returned",
        "Box arrived crushed",
    )
    money = await owed(shop.patient)
    assert (money[f"patient_credit:{shop.patient.id}"], money["store_sales"], money["platform_fees"]) == (
        1700,
        0,
        0,
    )
    assert await stock(product) == 5
    revenue = (await run(get_revenue_summary, actor=shop.manager.actor)).totals
    assert (revenue.gross, revenue.refunds, revenue.net) == (
        Decimal("17.00"),
        Decimal("17.00"),
        Decimal("0.00"),
    )
    with pytest.raises(ValidationFailed, match="cannot be marked delivered"):
        await step("delivered")
    subjects = [m["Subject"] for m in smtp.wait_for(4)]
    assert subjects == [
        f"Store order {order.number} is being prepared",
        f"Store order {order.number} has shipped",
        f"Store order {order.number} was delivered",
        f"Store order {order.number} was returned",
    ]
    mine = await run(list_my_store_orders, actor=shop.patient.actor)
    assert [(o.number, o.status, o.fulfilment) for o in mine.items] == [
        (order.number, "refunded", "returned")
    ]
    async with app_db.unit_of_work() as session:
        told = await session.scalar(
            select(func.count()).where(
                Notification.recipient_id == shop.patient.id,
                Notification.kind == NotificationKind.store_order.value,
            )
        )
        steps = (
            await session.scalars(
                select(AuditEntry.details)
                .where(AuditEntry.action == "store_fulfilment")
                .order_by(AuditEntry.created_at)
            )
        ).all()
    assert told == 5
    assert [(d["from"], d["to"]) for d in steps] == [
        ("pending", "processed"),
        ("processed", "shipped"),
        ("shipped", "delivered"),
        ("delivered", "returned"),
    ]


async def test_canceling_before_shipping_voids_what_is_owed_and_restocks(shop) -> None:
    product = await new_product(shop, stock="1")
    await add(shop.patient, product)
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME)
    assert await stock(product) == 0
    await run(move_fulfilment, actor=shop.staff.actor, order_id=order.id, to="processed")
    canceled = await run(
        move_fulfilment, actor=shop.staff.actor, order_id=order.id, to="canceled", reason="Patient asked"
    )
    assert (canceled.status, canceled.fulfilment) == ("cancelled", "canceled")
    assert await stock(product) == 1
    money = await owed(shop.patient)
    assert money[f"patient_booked:{shop.patient.id}"] == 0 and money["store_sales"] == 0
    queue = await run(list_store_orders, actor=shop.staff.actor, fulfilment="canceled")
    assert [o.number for o in queue.items] == [order.number]
    assert (await run(list_store_orders, actor=shop.staff.actor, search=order.number[:5].lower())).total == 1
    with pytest.raises(PermissionDenied):
        await run(list_store_orders, actor=shop.patient.actor)


async def test_two_patients_buying_the_last_unit_at_once(shop) -> None:
    product = await new_product(shop, stock="1")
    other = await person(Role.patient, "Rory Racer")
    for patient in (shop.patient, other):
        await add(patient, product)

    async def buy(patient: Person) -> str:
        try:
            return (await run(place_store_order, actor=patient.actor, address=HOME)).number
        except ValidationFailed as refusal:
            return refusal.message

    results = await asyncio.gather(buy(shop.patient), buy(other))
    assert sorted(r.startswith("MS-") for r in results) == [False, True], results
    assert [r for r in results if not r.startswith("MS-")] == [
        f"{'Sterile gauze pads, 4 × 4 in, 25 count'} is out of stock."
    ]
    assert await stock(product) == 0
    await owed(shop.patient)


async def test_the_database_decides_when_both_checkouts_saw_the_last_unit(shop) -> None:
    """The first checkout has reserved the last unit but not committed; the second is observably stuck on
    its reservation (`blocked_writers`: a lock wait on PostgreSQL, its first write of `products` on SQLite)
    until the first commits, then finds nothing left. Never a fixed wait."""
    product = await new_product(shop, stock="1")
    other = await person(Role.patient, "Sy Second")
    for patient in (shop.patient, other):
        await add(patient, product)

    async def second() -> str:
        try:
            return (await run(place_store_order, actor=other.actor, address=HOME)).number
        except ValidationFailed as refusal:
            return refusal.message

    async with app_db.unit_of_work() as session:
        first = await place_store_order(session=session, actor=shop.patient.actor, address=HOME)
        async with blocked_writers("products") as blocked:
            racing = asyncio.create_task(second())
            await blocked(1)
        assert not racing.done()
    assert first.number.startswith("MS-")
    assert await racing == "Sterile gauze pads, 4 × 4 in, 25 count is out of stock."
    assert await stock(product) == 0
    assert AccountKind.store_sales.value == "store_sales"


async def test_two_staff_moving_one_order_at_once_make_one_step(shop) -> None:
    """Both press Mark processed: the second waits for the first (a row lock on PostgreSQL, the write lock
    on SQLite; `blocked_writers`), then is told the order is already processed. One e-mail, one audit."""
    product = await new_product(shop)
    await add(shop.patient, product)
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME)
    other = await person(Role.owner, "Olive Owner")

    async def second() -> str:
        try:
            return (await run(move_fulfilment, actor=other.actor, order_id=order.id, to="processed")).status
        except ValidationFailed as refusal:
            return refusal.message

    async with app_db.unit_of_work() as session:
        await move_fulfilment(session=session, actor=shop.staff.actor, order_id=order.id, to="processed")
        async with blocked_writers("store_orders") as blocked:
            racing = asyncio.create_task(second())
            await blocked(1)
        assert not racing.done()
    assert await racing == "This order is processed; it cannot be marked processed."
    async with app_db.unit_of_work() as session:
        steps = await session.scalar(select(func.count()).where(AuditEntry.action == "store_fulfilment"))
    assert steps == 1


async def test_closing_the_store_refuses_new_orders_and_keeps_the_placed_ones(shop) -> None:
    """The admin console's Store toggle (app/flags.py): closed, nothing can be added to a cart or ordered;
    an order already placed can still be fulfilled."""
    product = await new_product(shop, stock="5")
    await add(shop.patient, product)
    placed = await run(place_store_order, actor=shop.patient.actor, address=HOME)
    await add(shop.patient, product)
    owner = await person(Role.owner)
    await run(set_feature, actor=owner.actor, key="store", value=False)
    await load_toggles()  # what each process's keeper does on the "features" event
    try:
        assert not flags.store_open()
        with pytest.raises(ValidationFailed, match="The store is closed for now"):
            await add(shop.patient, product)
        with pytest.raises(ValidationFailed, match="The store is closed for now"):
            await run(place_store_order, actor=shop.patient.actor, address=HOME)
        moved = await run(move_fulfilment, actor=shop.staff.actor, order_id=placed.id, to="processed")
        assert moved.fulfilment == "processed"
        await run(reset_feature, actor=owner.actor, key="store")
        await load_toggles()
        assert flags.store_open()
        assert (await run(place_store_order, actor=shop.patient.actor, address=HOME)).status == "pending"
    finally:
        flags.replace({})


# ---- the store's money (issue 29 item 4): fee, shipping and tax from the owners' business settings ----------
STORE_MONEY = {
    "store_fee_percent": "2.5",
    "store_shipping": "$6.95",
    "store_free_shipping_from": "75",
    "store_tax_percent": "8.875",
}


async def ledger_holds() -> None:
    async with app_db.unit_of_work() as session:
        found = await check_ledger(session=session)
    assert found.breaks == ()


async def test_with_the_default_settings_an_order_costs_its_products(shop) -> None:
    product = await new_product(shop, price="12.40")
    await add(shop.patient, product, times=3)
    cart = (await run(get_cart, owner=CartOwner(user_id=shop.patient.id))).totals
    assert (cart.subtotal, cart.shipping, cart.sales_tax, cart.platform_fee, cart.total) == (
        Decimal("37.20"),
        Decimal("0.00"),
        Decimal("0.00"),
        Decimal("0.00"),
        Decimal("37.20"),
    )
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME)
    figures = (
        order.subtotal_cents,
        order.shipping_cents,
        order.tax_cents,
        order.fee_cents,
        order.total_cents,
    )
    assert figures == (3720, 0, 0, 0, 3720)
    for to in ("processed", "shipped", "delivered"):
        await run(
            move_fulfilment,
            actor=shop.staff.actor,
            order_id=order.id,
            to=to,
            carrier="UPS",
            tracking_number="1Z9",
        )
    money = await owed(shop.patient)
    assert (money[f"patient_booked:{shop.patient.id}"], money["store_sales"], money["platform_fees"]) == (
        0,
        3720,
        0,
    )
    await ledger_holds()


async def test_fee_shipping_and_tax_from_the_settings_are_exact_and_balance(shop) -> None:
    owner = await person(Role.owner)
    try:
        stored = [
            (await run(set_feature, actor=owner.actor, key=key, value=value)).value
            for key, value in STORE_MONEY.items()
        ]
        assert stored == ["2.5", "6.95", "75.00", "8.875"]
        product = await new_product(shop, stock="9")
        await add(shop.patient, product, times=2)  # $17.00: below $75, so shipping is charged
        cart = (await run(get_cart, owner=CartOwner(user_id=shop.patient.id))).totals
        assert (cart.subtotal, cart.shipping, cart.sales_tax, cart.platform_fee, cart.total) == (
            Decimal("17.00"),
            Decimal("6.95"),
            Decimal("1.51"),  # 8.875 % of $17.00 = $1.50875, half up
            Decimal("0.43"),  # 2.5 % of $17.00 = $0.425, half up
            Decimal("25.89"),
        )
        order = await run(place_store_order, actor=shop.patient.actor, address=HOME)
        assert (order.subtotal_cents, order.shipping_cents, order.tax_cents, order.fee_cents) == (
            1700,
            695,
            151,
            43,
        )
        assert order.total_cents == 2589
        assert (await owed(shop.patient))[f"patient_booked:{shop.patient.id}"] == 2589
        for to in ("processed", "shipped", "delivered"):
            await run(
                move_fulfilment,
                actor=shop.staff.actor,
                order_id=order.id,
                to=to,
                carrier="UPS",
                tracking_number="1Z9",
            )
        await ledger_holds()
        async with app_db.unit_of_work() as session:
            money = await balances(
                session, [f"patient_booked:{shop.patient.id}", "store_sales", "sales_tax", "platform_fees"]
            )
        assert list(money.values()) == [0, 1700 + 695, 151, 43]
        await run(move_fulfilment, actor=shop.staff.actor, order_id=order.id, to="returned", reason="Damaged")
        await ledger_holds()
        async with app_db.unit_of_work() as session:
            money = await balances(
                session, [f"patient_credit:{shop.patient.id}", "store_sales", "sales_tax", "platform_fees"]
            )
        assert list(money.values()) == [2589, 0, 0, 0]
        # From $75.00 of products shipping is free: 2 × $37.50.
        big = await new_product(shop, name="Pulse oximeter", price="37.50")
        await add(shop.patient, big, times=2)
        free = await run(place_store_order, actor=shop.patient.actor, address=HOME)
        assert (
            free.subtotal_cents,
            free.shipping_cents,
            free.tax_cents,
            free.fee_cents,
            free.total_cents,
        ) == (
            7500,
            0,
            666,  # $6.65625
            188,  # $1.875
            8354,
        )
        mine = await run(list_my_store_orders, actor=shop.patient.actor)
        assert {o.number: (o.shipping_cents, o.tax_cents) for o in mine.items} == {
            order.number: (695, 151),
            free.number: (0, 666),
        }
    finally:
        for key in STORE_MONEY:
            await run(reset_feature, actor=owner.actor, key=key)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("store_fee_percent", "26", "from 0 to 25"),
        ("store_fee_percent", "-1", "from 0 to 25"),
        ("store_tax_percent", "8.8755", "at most three decimals"),
        ("store_tax_percent", "lots", "Enter a percentage"),
        ("store_tax_percent", "1e30", "Enter a percentage"),
        ("store_shipping", "$500.01", "from $0.00 to $500.00"),
        ("store_shipping", "6.955", "from $0.00 to $500.00"),
        ("store_free_shipping_from", "free", "Enter an amount in dollars"),
    ],
)
async def test_a_bad_store_money_setting_is_refused_with_its_message(shop, key, value, message) -> None:
    owner = await person(Role.owner)
    with pytest.raises(ValidationFailed, match=re.escape(message)):
        await run(set_feature, actor=owner.actor, key=key, value=value)
    with pytest.raises(PermissionDenied):  # business settings are the owners'
        await run(set_feature, actor=shop.staff.actor, key=key, value="1")


async def test_checkout_starts_from_the_last_order_or_the_saved_address(shop) -> None:
    buyer = await person(Role.patient, "Casey Buyer")
    assert await run(get_shipping_prefill, actor=buyer.actor) == ShippingAddress()
    product = await new_product(shop)
    await add(buyer, product)
    await run(place_store_order, actor=buyer.actor, address=HOME.model_copy(update={"state": " ny"}))
    assert await run(get_shipping_prefill, actor=buyer.actor) == HOME  # as stored: state upper-cased
    async with app_db.unit_of_work() as session:  # a visit address saved on the profile afterwards wins
        session.add(
            SavedAddress(
                user_id=buyer.id, address_line="1 Main St", city="Albany", state="NY", zip_code="12207"
            )
        )
    assert await run(get_shipping_prefill, actor=buyer.actor) == ShippingAddress(
        name="Casey Buyer", line1="1 Main St", city="Albany", state="NY", zip_code="12207"
    )


async def test_a_money_setting_has_its_own_cap(shop) -> None:
    """Shipping stops at $500.00; the payout threshold beside it (same kind) takes its $1,000 default and more."""
    owner = await person(Role.owner)
    try:
        assert (
            await run(set_feature, actor=owner.actor, key="payout_second_approval_above", value="1,500")
        ).value == ("1500.00")
        with pytest.raises(ValidationFailed, match=re.escape("from $0.00 to $100,000.00")):
            await run(set_feature, actor=owner.actor, key="payout_second_approval_above", value="100000.01")
    finally:
        await run(reset_feature, actor=owner.actor, key="payout_second_approval_above")
