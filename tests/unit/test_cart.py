"""The cart service (SPEC §3, §4, §8, §9): quantities, toasts, server-side prices (provider price, flash
sale), the 5 % platform fee rounded half-up, owner isolation, the visitor-to-user merge, withdrawn items
dropped on read, and a signed-out tab refused. Runs on SQLite and, with TEST_DATABASE_URL, PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app import events
from app.auth.common import RequestOrigin
from app.auth.sessions import authenticate, sign_in_with_password, sign_out
from app.principal import SYSTEM, Principal
from app.services.accounts import resolve_viewer
from app.services.accounts.internal import create_account
from app.services.cart import (
    MAX_QUANTITY,
    CartOwner,
    add_to_cart,
    cart_topic,
    cart_totals,
    clear_cart,
    load_cart,
    merge_visitor_cart,
    remove_from_cart,
    set_quantity,
    visit_totals,
)
from app.services.cart.internal import get_cart, remove_items
from app.services.catalog.internal import ensure_reference_catalog
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers import ServiceOffer, set_listing
from models.account import Role
from models.cart import CartItem, CartItemRead, CartTotals
from models.catalog import Service, ServiceCategory
from models.store import StorePricing
from tests.factories import present, provider

PASSWORD = "correct-horse-1"
DRAW = "Routine blood draw"  # $79, no sale
HYDRATION = "Hydration IV (1 liter)"  # $149, 30 % off during the daily flash sale: $104.30


def visitor() -> CartOwner:
    return CartOwner(visitor_id=f"v-{uuid.uuid4().hex}")


def line(price: str, quantity: int = 1, original: str | None = None) -> CartItemRead:
    return CartItemRead(
        id=f"item-{uuid.uuid4().hex[:6]}",
        name="Visit",
        price=Decimal(price),
        original_price=Decimal(original or price),
        quantity=quantity,
        service_id="s",
        service_slug="s",
        category_slug="c",
        duration_minutes=30,
    )


@pytest.fixture
async def catalog(configured) -> None:
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)


async def listed_provider(*offers: ServiceOffer, name: str = "Nurse") -> str:
    """A verified provider offering `offers`, with no service area or hours."""
    return await provider(f"Ada {name}", offers=offers, zip_codes=(), hours=())


async def signed_in_actor() -> tuple[Principal, str]:
    """A fresh patient signed in: the actor a browser connection holds, and its access token."""
    email = f"cart-{uuid.uuid4().hex[:10]}@medivisit.test"
    async with app_db.unit_of_work() as session:
        await create_account(
            session=session, email=email, password=PASSWORD, role=Role.patient, name="Pat Lee"
        )
    async with app_db.unit_of_work() as session:
        result = await sign_in_with_password(
            session=session, origin=RequestOrigin(ip="127.0.0.1"), email=email, password=PASSWORD
        )
    async with app_db.unit_of_work() as session:
        viewer = await resolve_viewer(session=session, access_token=result.access_token)
    return present(viewer).actor, result.access_token


# ---- cart math ----------------------------------------------------------------------------------
def test_totals_of_an_empty_cart_are_zero() -> None:
    assert cart_totals([]) == CartTotals(
        subtotal=Decimal("0.00"), platform_fee=Decimal("0.00"), total=Decimal("0.00"), item_count=0
    )


@pytest.mark.parametrize(
    ("lines", "subtotal", "fee", "total", "count"),
    [
        # 5 % of $10.10 is $0.505: half-up gives $0.51 (banker's rounding would give $0.50).
        ([line("10.10")], "10.10", "0.51", "10.61", 1),
        ([line("10.30")], "10.30", "0.52", "10.82", 1),  # $0.515
        # Two draws and a hydration IV at its sale price: $262.30, fee $13.115 -> $13.12.
        ([line("79.00", 2), line("104.30", original="149.00")], "262.30", "13.12", "275.42", 3),
        ([line("49.00", 12)], "588.00", "29.40", "617.40", 12),
    ],
)
def test_platform_fee_is_five_percent_rounded_half_up(lines, subtotal, fee, total, count) -> None:
    totals = cart_totals(lines)
    assert (totals.subtotal, totals.platform_fee, totals.total, totals.item_count) == (
        Decimal(subtotal),
        Decimal(fee),
        Decimal(total),
        count,
    )


def test_a_mixed_cart_keeps_the_visits_fee_and_prices_its_products_as_their_store_order() -> None:
    """Issue 29 item 4: the 5 % is the visits' fee; products add shipping, tax and the retail fee the owners
    set (none by default), each of their own subtotal."""
    gauze = CartItemRead(
        id="product:p1",
        name="Gauze",
        price=Decimal("8.50"),
        original_price=Decimal("8.50"),
        quantity=2,
        kind="product",
        product_id="p1",
    )
    plain = cart_totals([line("79.00"), gauze])
    assert (plain.subtotal, plain.shipping, plain.sales_tax, plain.platform_fee, plain.total) == (
        Decimal("96.00"),
        Decimal("0.00"),
        Decimal("0.00"),
        Decimal("3.95"),
        Decimal("99.95"),
    )
    pricing = StorePricing(
        fee_percent=Decimal("2.5"), shipping_cents=695, free_from_cents=7500, tax_percent=Decimal("8.875")
    )
    priced = cart_totals([line("79.00"), gauze], pricing)
    # Visits: $79.00 + 5 % = $3.95. Products: $17.00 + $6.95 shipping + $1.51 tax + $0.43 fee.
    assert (priced.subtotal, priced.shipping, priced.sales_tax, priced.platform_fee, priced.total) == (
        Decimal("96.00"),
        Decimal("6.95"),
        Decimal("1.51"),
        Decimal("4.38"),
        Decimal("108.84"),
    )
    assert priced.products is not None and priced.products.total_cents == 2589
    assert cart_totals([line("79.00")], pricing).products is None  # visits alone: no shipping


def test_checkout_totals_of_single_visits_follow_the_same_rule() -> None:
    prices = [Decimal("79.00"), Decimal("79.00"), Decimal("104.30")]
    assert visit_totals(prices) == cart_totals([line("79.00", 2), line("104.30", original="149.00")])
    assert visit_totals([]) == cart_totals([])


# ---- state changes ------------------------------------------------------------------------------
async def test_adding_an_item_twice_raises_its_quantity(session, catalog) -> None:
    owner = visitor()
    first = await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="routine-blood-draw")
    assert first.message == f"Added {DRAW} to cart" and first.added
    assert [(i.id, i.name, i.quantity, i.price) for i in first.cart.items] == [
        ("routine-blood-draw", DRAW, 1, Decimal("79.00"))
    ]
    again = await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="routine-blood-draw")
    assert again.message == f"Updated quantity of {DRAW} in cart" and not again.added
    assert [i.quantity for i in again.cart.items] == [2]
    # No provider is chosen (and none is listed here): the list price, as a "from" price.
    assert again.cart.items[0].price_is_from
    assert again.cart.totals == CartTotals(
        subtotal=Decimal("158.00"),
        platform_fee=Decimal("7.90"),
        total=Decimal("165.90"),
        item_count=2,
        is_estimate=True,
    )
    assert await get_cart(session=session, owner=owner) == again.cart


async def test_prices_come_from_the_server_with_the_sale_and_the_providers_own_price(catalog) -> None:
    provider_id = await listed_provider(
        ServiceOffer("iv-hydration", Decimal("160")), ServiceOffer("routine-blood-draw", Decimal("70.50"))
    )
    owner = visitor()
    async with app_db.unit_of_work() as session:
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="iv-hydration")
        await add_to_cart(
            session=session, owner=owner, actor=SYSTEM, service_slug="iv-hydration", provider_id=provider_id
        )
        change = await add_to_cart(
            session=session,
            owner=owner,
            actor=SYSTEM,
            service_slug="routine-blood-draw",
            provider_id=provider_id,
        )
    listed, chosen, draw = change.cart.items
    # Without a provider the visit costs what the provider booked at checkout charges: "from" the lowest
    # listed provider's price (here the only one, 160 less 30 %), never the catalog's 149 that no provider
    # charges (issue 11: $104.30 in the cart, $111.30 at checkout).
    assert (listed.id, listed.price, listed.original_price, listed.provider_name, listed.price_is_from) == (
        "iv-hydration",
        Decimal("112.00"),
        Decimal("160.00"),
        None,
        True,
    )
    assert chosen.id == f"iv-hydration@{provider_id}" and chosen.provider_name == "Ada Nurse"
    assert (chosen.price, chosen.original_price, chosen.price_is_from) == (
        Decimal("112.00"),
        Decimal("160.00"),
        False,
    )
    assert (draw.price, draw.original_price) == (Decimal("70.50"), Decimal("70.50"))
    # 112.00 + 112.00 + 70.50 = 294.50; fee 14.73 (14.725 rounded half up); the lowest it can be.
    totals = change.cart.totals
    assert (totals.subtotal, totals.platform_fee, totals.total, totals.is_estimate) == (
        Decimal("294.50"),
        Decimal("14.73"),
        Decimal("309.23"),
        True,
    )


async def test_set_quantity_and_below_one_removes(session, catalog) -> None:
    owner = visitor()
    await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="iv-hydration")
    three = await set_quantity(session=session, owner=owner, actor=SYSTEM, item_id="iv-hydration", quantity=3)
    assert three.message == f"Updated quantity of {HYDRATION} in cart" and three.cart.totals.item_count == 3
    assert three.cart.totals.subtotal == Decimal("312.90")
    with pytest.raises(ValidationFailed, match=f"at most {MAX_QUANTITY} visits"):
        await set_quantity(session=session, owner=owner, actor=SYSTEM, item_id="iv-hydration", quantity=11)
    gone = await set_quantity(session=session, owner=owner, actor=SYSTEM, item_id="iv-hydration", quantity=0)
    assert gone.message == f"Removed {HYDRATION} from cart" and gone.cart.items == []
    with pytest.raises(NotFound):
        await set_quantity(session=session, owner=owner, actor=SYSTEM, item_id="iv-hydration", quantity=2)


async def test_remove_and_clear(session, catalog) -> None:
    owner = visitor()
    for slug in ("routine-blood-draw", "iv-hydration", "wound-care"):
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug=slug)
    removed = await remove_from_cart(session=session, owner=owner, actor=SYSTEM, item_id="iv-hydration")
    assert removed.message == f"Removed {HYDRATION} from cart"
    assert [i.id for i in removed.cart.items] == ["routine-blood-draw", "wound-care"]
    cleared = await clear_cart(session=session, owner=owner, actor=SYSTEM)
    assert (
        cleared.message == "Cart cleared" and cleared.cart.items == [] and cleared.cart.totals.item_count == 0
    )
    assert (await get_cart(session=session, owner=owner)).items == []


async def test_checkout_removes_only_the_booked_items(session, catalog) -> None:
    owner = visitor()
    for slug in ("routine-blood-draw", "iv-hydration"):
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug=slug)
    await remove_items(session=session, owner=owner, item_ids=["iv-hydration", "not-in-cart"])
    assert [i.id for i in (await get_cart(session=session, owner=owner)).items] == ["routine-blood-draw"]


async def test_checkout_takes_out_only_the_visits_it_booked(session, catalog) -> None:
    owner = visitor()
    for _ in range(3):
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="routine-blood-draw")
    await remove_items(session=session, owner=owner, item_ids=["routine-blood-draw"] * 2)
    (left,) = (await get_cart(session=session, owner=owner)).items
    assert (left.id, left.quantity) == ("routine-blood-draw", 1)


async def test_a_quantity_is_capped(session, catalog) -> None:
    owner = visitor()
    for _ in range(MAX_QUANTITY):
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="wound-care")
    with pytest.raises(ValidationFailed, match="at most 10 visits of Wound care"):
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="wound-care")
    assert (await get_cart(session=session, owner=owner)).totals.item_count == MAX_QUANTITY


async def test_only_bookable_services_and_providers_can_be_added(catalog) -> None:
    provider_id = await listed_provider(ServiceOffer("iv-hydration", Decimal("150")))
    owner = visitor()
    async with app_db.unit_of_work() as session:
        with pytest.raises(NotFound, match="can't be booked"):
            await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="no-such-service")
        with pytest.raises(NotFound, match="doesn't offer this service"):
            await add_to_cart(
                session=session, owner=owner, actor=SYSTEM, service_slug="wound-care", provider_id=provider_id
            )
        with pytest.raises(NotFound, match="doesn't offer this service"):
            await add_to_cart(
                session=session, owner=owner, actor=SYSTEM, service_slug="iv-hydration", provider_id="nobody"
            )
        await set_listing(session=session, actor=SYSTEM, provider_id=provider_id, verified=False, active=True)
        with pytest.raises(NotFound):
            await add_to_cart(
                session=session,
                owner=owner,
                actor=SYSTEM,
                service_slug="iv-hydration",
                provider_id=provider_id,
            )
        assert (await get_cart(session=session, owner=owner)).items == []


async def test_withdrawn_items_are_dropped_on_read(catalog) -> None:
    provider_id = await listed_provider(ServiceOffer("iv-hydration", Decimal("150")))
    owner = visitor()
    slug = f"pilot-{uuid.uuid4().hex[:8]}"
    async with app_db.unit_of_work() as session:
        category_id = await session.scalar(
            select(ServiceCategory.id).where(ServiceCategory.slug == "nursing")
        )
        session.add(
            Service(
                category_id=category_id,
                slug=slug,
                name="Pilot visit",
                duration_minutes=30,
                price=Decimal("50"),
                location_mask=1,
            )
        )
    async with app_db.unit_of_work() as session:
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug=slug)
        await add_to_cart(
            session=session, owner=owner, actor=SYSTEM, service_slug="iv-hydration", provider_id=provider_id
        )
        await add_to_cart(session=session, owner=owner, actor=SYSTEM, service_slug="routine-blood-draw")
        assert (await get_cart(session=session, owner=owner)).totals.item_count == 3
        await set_listing(session=session, actor=SYSTEM, provider_id=provider_id, verified=True, active=False)
        (await session.scalars(select(Service).where(Service.slug == slug))).one().is_active = False
    async with app_db.unit_of_work() as session:
        assert [i.id for i in (await get_cart(session=session, owner=owner)).items] == ["routine-blood-draw"]
        # Dropped for good: listing the provider again does not bring the item back.
        await set_listing(session=session, actor=SYSTEM, provider_id=provider_id, verified=True, active=True)
    async with app_db.unit_of_work() as session:
        assert [i.id for i in (await get_cart(session=session, owner=owner)).items] == ["routine-blood-draw"]


# ---- owners -------------------------------------------------------------------------------------
async def test_owners_never_see_or_touch_each_others_items(session, catalog) -> None:
    alice, bob = visitor(), visitor()
    await add_to_cart(session=session, owner=alice, actor=SYSTEM, service_slug="iv-hydration")
    assert (await get_cart(session=session, owner=bob)).items == []
    with pytest.raises(NotFound):
        await set_quantity(session=session, owner=bob, actor=SYSTEM, item_id="iv-hydration", quantity=5)
    with pytest.raises(NotFound):
        await remove_from_cart(session=session, owner=bob, actor=SYSTEM, item_id="iv-hydration")
    await clear_cart(session=session, owner=bob, actor=SYSTEM)
    await remove_items(session=session, owner=bob, item_ids=["iv-hydration"])
    assert [(i.id, i.quantity) for i in (await get_cart(session=session, owner=alice)).items] == [
        ("iv-hydration", 1)
    ]


async def test_a_connection_without_a_visitor_cookie_has_no_cart(session, catalog) -> None:
    for nobody in (CartOwner(), CartOwner(visitor_id="x" * 65)):
        assert (await get_cart(session=session, owner=nobody)).items == []
        with pytest.raises(ValidationFailed, match="enable cookies"):
            await add_to_cart(session=session, owner=nobody, actor=SYSTEM, service_slug="iv-hydration")


async def test_the_visitor_cart_merges_into_the_users_once(identity, catalog) -> None:
    actor, _token = await signed_in_actor()
    anonymous = visitor()
    user = CartOwner(user_id=actor.user_id)
    async with app_db.unit_of_work() as session:
        await add_to_cart(session=session, owner=user, actor=actor, service_slug="routine-blood-draw")
        for slug in ("routine-blood-draw", "routine-blood-draw", "iv-hydration"):
            await add_to_cart(session=session, owner=anonymous, actor=SYSTEM, service_slug=slug)
    both = CartOwner(user_id=actor.user_id, visitor_id=anonymous.visitor_id)
    async with app_db.unit_of_work() as session:
        merged = await load_cart(session=session, owner=both, actor=actor)
    assert [(i.id, i.quantity) for i in merged.items] == [("routine-blood-draw", 3), ("iv-hydration", 1)]
    async with app_db.unit_of_work() as session:
        assert await load_cart(session=session, owner=both, actor=actor) == merged  # nothing added twice
        assert await merge_visitor_cart(session=session, owner=both, actor=actor) == merged
        assert (await get_cart(session=session, owner=anonymous)).items == []
        rows = await session.scalar(
            select(func.count()).select_from(CartItem).where(CartItem.user_id == actor.user_id)
        )
    assert rows == 2


async def test_merged_quantities_stay_capped(identity, catalog) -> None:
    actor, _token = await signed_in_actor()
    anonymous = visitor()
    async with app_db.unit_of_work() as session:
        user = CartOwner(user_id=actor.user_id)
        await add_to_cart(session=session, owner=user, actor=actor, service_slug="wound-care")
        await set_quantity(session=session, owner=user, actor=actor, item_id="wound-care", quantity=8)
        await add_to_cart(session=session, owner=anonymous, actor=SYSTEM, service_slug="wound-care")
        await set_quantity(session=session, owner=anonymous, actor=SYSTEM, item_id="wound-care", quantity=5)
    async with app_db.unit_of_work() as session:
        both = CartOwner(user_id=actor.user_id, visitor_id=anonymous.visitor_id)
        merged = await load_cart(session=session, owner=both, actor=actor)
    assert [(i.id, i.quantity) for i in merged.items] == [("wound-care", MAX_QUANTITY)]


async def test_a_signed_out_tab_cannot_change_the_users_cart(identity, catalog) -> None:
    actor, token = await signed_in_actor()
    other, _ = await signed_in_actor()
    user = CartOwner(user_id=actor.user_id, visitor_id=visitor().visitor_id)
    async with app_db.unit_of_work() as session:
        await add_to_cart(session=session, owner=user, actor=actor, service_slug="iv-hydration")
    async with app_db.unit_of_work() as session:
        with pytest.raises(PermissionDenied):  # no identity session at all
            await add_to_cart(session=session, owner=user, actor=SYSTEM, service_slug="iv-hydration")
        with pytest.raises(PermissionDenied):  # someone else's session
            await clear_cart(session=session, owner=user, actor=other)
    async with app_db.unit_of_work() as session:
        who = await authenticate(session=session, authorization=f"Bearer {token}")
        await sign_out(session=session, actor=who, scope="local")
    async with app_db.unit_of_work() as session:
        for attempt in (
            add_to_cart(session=session, owner=user, actor=actor, service_slug="iv-hydration"),
            set_quantity(session=session, owner=user, actor=actor, item_id="iv-hydration", quantity=4),
            remove_from_cart(session=session, owner=user, actor=actor, item_id="iv-hydration"),
            clear_cart(session=session, owner=user, actor=actor),
            load_cart(session=session, owner=user, actor=actor),
        ):
            with pytest.raises(PermissionDenied, match="session has ended"):
                await attempt
        assert [(i.id, i.quantity) for i in (await get_cart(session=session, owner=user)).items] == [
            ("iv-hydration", 1)
        ]


async def test_a_change_tells_the_owners_tabs_the_carts_revision(catalog) -> None:
    """The tab that made a change already shows the new cart: the announcement carries its revision, so
    that tab need not read the cart again, while a tab showing an older cart sees a different one."""
    owner = visitor()
    async with events.subscribe(present(cart_topic(owner))) as queue:
        async with app_db.unit_of_work() as session:
            first = await add_to_cart(
                session=session, owner=owner, actor=SYSTEM, service_slug="routine-blood-draw"
            )
        async with app_db.unit_of_work() as session:
            second = await add_to_cart(
                session=session, owner=owner, actor=SYSTEM, service_slug="routine-blood-draw"
            )
        async with app_db.unit_of_work() as session:
            cleared = await clear_cart(session=session, owner=owner, actor=SYSTEM)
        told = [(await asyncio.wait_for(queue.get(), 5))["revision"] for _ in range(3)]
    assert told == [first.cart.revision, second.cart.revision, cleared.cart.revision]
    assert len(set(told)) == 3
    async with app_db.unit_of_work() as session:
        assert (await get_cart(session=session, owner=owner)).revision == cleared.cart.revision
