"""The cart (SPEC §3 "Cart item"/"Cart totals", §4 "Cart", §8 cart toasts, §9 platform fee).

A cart belongs to an owner: the signed-in user, else the anonymous visitor (the `mv_visitor` cookie). The
caller derives the owner from its connection, never from what a browser typed; items are only ever looked
up among that owner's rows, and a signed-in owner is re-checked against the connection's identity session
(`actor`) on every command, so a tab whose user signed out elsewhere can no longer change the user's cart.

Prices are computed here when the cart is read, flash sale included: the provider's own price when the item
names a provider, else "from" the lowest price a listed provider charges for the service (checkout charges
the price of the provider it books), so the cart never shows less than what can be charged as a fixed price. Items whose service was withdrawn or whose provider is no longer
listed are dropped on read. Every change is announced on the owner's topic so the owner's other tabs follow.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import cache
from typing import Literal

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Delete,
    Integer,
    Update,
    and_,
    bindparam,
    case,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app import events, flags
from app.db import changed_rows
from app.principal import Principal
from app.services.cart._products import product_lines, product_of
from app.services.catalog import configured_sale, price_at
from app.services.domain_events import CheckedOut
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.features.internal import store_pricing
from app.services.providers import LISTED, display_name
from app.services.shared.fees import platform_fee
from app.services.shared.signed_in import SESSION_ENDED, require_account
from models.cart import CartChange, CartItem, CartItemRead, CartRead, CartTotals
from models.catalog import Service, ServiceCategory
from models.provider import Provider, ProviderService
from models.store import CartProduct, Product, StorePricing, StoreTotals

MAX_QUANTITY = 10  # visits of one item per checkout; the badge still counts past 9 as "9+"
VISITOR_ID_MAX = 64  # the column's width; a longer cookie was not issued by this site
CENT = Decimal("0.01")

ADDED = "Added {item} to cart"
UPDATED = "Updated quantity of {item} in cart"
REMOVED = "Removed {item} from cart"
CLEARED = "Cart cleared"

NO_OWNER = "Your browser did not send the cookie the cart needs. Please enable cookies and reload the page."
NOT_OFFERED = "This service can't be booked right now."
PROVIDER_NOT_OFFERING = "This provider doesn't offer this service right now."
NOT_IN_CART = "This item is no longer in your cart."
TOO_MANY = "You can book at most {limit} visits of {item} at once."
STORE_CLOSED = "The store is closed for now. Orders already placed are still on their way."
PRODUCT_SIGN_IN = "Please sign in to add products to your cart."
PRODUCT_GONE = "This product is no longer in the store."
PRODUCT_OUT = "{item} is out of stock."
PRODUCT_TOO_MANY = "You can order at most {limit} of {item} at once."
PRODUCT_ONLY_LEFT = "Only {stock} of {item} left."


@dataclass(frozen=True)
class CartOwner:
    """Whose cart: the signed-in user's when `user_id` is set (a visitor cart then merges into it), else the
    anonymous visitor's."""

    user_id: str | None = None
    visitor_id: str | None = None


# ---- pure rules ---------------------------------------------------------------------------------
def _totals(
    subtotal: Decimal, count: int, *, is_estimate: bool = False, products: StoreTotals | None = None
) -> CartTotals:
    """The visits' subtotal with their 5 % fee (SPEC §9), plus the products' part priced as their store order
    will be (`StorePricing.totals`)."""
    subtotal = subtotal.quantize(CENT)
    fee = platform_fee(subtotal)
    if products is None:
        return CartTotals(
            subtotal=subtotal,
            platform_fee=fee,
            total=subtotal + fee,
            item_count=count,
            is_estimate=is_estimate,
        )
    subtotal += _dollars(products.subtotal_cents)
    fee += _dollars(products.fee_cents)
    shipping, tax = _dollars(products.shipping_cents), _dollars(products.tax_cents)
    return CartTotals(
        subtotal=subtotal,
        platform_fee=fee,
        total=subtotal + shipping + tax + fee,
        item_count=count,
        is_estimate=is_estimate,
        shipping=shipping,
        sales_tax=tax,
        products=products,
    )


def _dollars(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


def cart_totals(items: Sequence[CartItemRead], pricing: StorePricing | None = None) -> CartTotals:
    """Subtotal, the platform fee, total and the number of items of a cart: the visits' fee is 5 % of their
    subtotal; the products are priced with the store's `pricing` (the owners' settings; without it, the
    defaults: no fee, no shipping, no tax)."""
    visits = [item for item in items if not item.is_product]
    products = [item for item in items if item.is_product]
    product_cents = sum(int(item.price * 100) * item.quantity for item in products)
    return _totals(
        sum((item.price * item.quantity for item in visits), Decimal("0")),
        sum(item.quantity for item in items),
        is_estimate=any(item.price_is_from for item in items),
        products=(pricing or StorePricing()).totals(product_cents) if products else None,
    )


def visit_totals(prices: Sequence[Decimal]) -> CartTotals:
    """The same totals for single visits (checkout prices each held visit on its own)."""
    return _totals(sum(prices, Decimal("0")), len(prices))


def item_key(service_slug: str, provider_id: str | None = None) -> str:
    """The SPEC's cart item id: the service slug, or '<slug>@<provider id>' for a chosen provider."""
    return f"{service_slug}@{provider_id}" if provider_id else service_slug


def cart_topic(owner: CartOwner) -> str | None:
    """The event topic of an owner's cart (a digest: topics travel through PostgreSQL, cookies must not)."""
    key = _key(owner)
    if key is None:
        return None
    kind, value = key
    return "cart." + hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()[:32]


def _visitor(owner: CartOwner) -> str | None:
    visitor = owner.visitor_id
    return visitor if visitor and len(visitor) <= VISITOR_ID_MAX else None


OwnerColumn = Literal["user_id", "visitor_id"]


def _key(owner: CartOwner) -> tuple[OwnerColumn, str] | None:
    if owner.user_id:
        return "user_id", owner.user_id
    visitor = _visitor(owner)
    return ("visitor_id", visitor) if visitor else None


def _required_key(owner: CartOwner) -> tuple[OwnerColumn, str]:
    key = _key(owner)
    if key is None:
        raise ValidationFailed(NO_OWNER)
    return key


def _column(name: OwnerColumn) -> InstrumentedAttribute[str | None]:
    return CartItem.user_id if name == "user_id" else CartItem.visitor_id


def _owned(owner: CartOwner) -> ColumnElement[bool]:
    column, value = _required_key(owner)
    return _column(column) == value


# ---- the owner check ----------------------------------------------------------------------------
async def _check(session: AsyncSession, owner: CartOwner, actor: Principal) -> None:
    """A user's cart only for that user's still-valid session; a visitor's cart for its cookie."""
    if owner.user_id:
        account = await require_account(session=session, actor=actor)
        if account.id != owner.user_id:
            raise PermissionDenied(SESSION_ENDED)
    elif _visitor(owner) is None:
        raise ValidationFailed(NO_OWNER)


async def _announce(session: AsyncSession, owner: CartOwner, cart: CartRead | None = None) -> None:
    """Tell the owner's open tabs that the cart changed; with the cart as it now is, its revision goes
    along, and a tab that already shows that cart (the one that made the change) does not read it again."""
    topic = cart_topic(owner)
    if topic is not None:
        await events.publish_on_commit(session, topic, {"revision": cart.revision} if cart else None)


async def _changed(
    session: AsyncSession, owner: CartOwner, message: str, *, added: bool = False
) -> CartChange:
    """A command's result: the cart afterwards, announced to the owner's other tabs."""
    cart = await get_cart(session=session, owner=owner)
    await _announce(session, owner, cart)
    return CartChange(cart=cart, message=message, added=added)


# ---- reads --------------------------------------------------------------------------------------
async def get_cart(*, session: AsyncSession, owner: CartOwner) -> CartRead:
    """The owner's cart priced now. Items that can no longer be booked are deleted from it."""
    if _key(owner) is None:
        return CartRead(items=[], totals=cart_totals([]))
    offer = and_(
        ProviderService.provider_id == CartItem.provider_id,
        ProviderService.service_id == CartItem.service_id,
    )
    rows = (
        await session.execute(
            select(CartItem, Service, ServiceCategory.slug, Provider, ProviderService.price)
            .join(Service, Service.id == CartItem.service_id)
            .join(ServiceCategory, ServiceCategory.id == Service.category_id)
            .outerjoin(Provider, and_(Provider.id == CartItem.provider_id, *LISTED))
            .outerjoin(ProviderService, offer)
            .where(_owned(owner))
            .order_by(CartItem.added_at, CartItem.id)
        )
    ).all()
    at = datetime.now(UTC)
    sale = configured_sale(at)
    lowest = await _lowest_prices(session, {service.id for row, service, *_ in rows if not row.provider_id})
    items: list[CartItemRead] = []
    gone: list[str] = []
    for row, service, category_slug, provider, provider_price in rows:
        if not service.is_active or (row.provider_id and (provider is None or provider_price is None)):
            gone.append(row.id)
            continue
        base = provider_price if row.provider_id else lowest.get(service.id, service.price)
        price = price_at(category_slug=category_slug, price=base, at=at, sale=sale)
        items.append(
            CartItemRead(
                id=row.item_key,
                name=service.name,
                price=price.charge,
                original_price=price.original,
                quantity=row.quantity,
                service_id=service.id,
                service_slug=service.slug,
                category_slug=category_slug,
                duration_minutes=service.duration_minutes,
                provider_id=row.provider_id,
                provider_name=display_name(provider.first_name, provider.last_name) if provider else None,
                price_is_from=not row.provider_id,
            )
        )
    pricing = None
    if owner.user_id:
        products = await product_lines(session, owner.user_id)
        if products:
            items.extend(products)
            pricing = await store_pricing(session=session)
    if gone:
        await session.execute(delete(CartItem).where(CartItem.id.in_(gone)))
        await _announce(session, owner)
    return CartRead(items=items, totals=cart_totals(items, pricing))


async def _lowest_prices(session: AsyncSession, service_ids: set[str]) -> dict[str, Decimal]:
    """The lowest price a listed provider charges for each service (one aggregate query)."""
    if not service_ids:
        return {}
    rows = await session.execute(
        select(ProviderService.service_id, func.min(ProviderService.price))
        .join(Provider, Provider.id == ProviderService.provider_id)
        .where(ProviderService.service_id.in_(service_ids), *LISTED)
        .group_by(ProviderService.service_id)
    )
    return {service_id: price for service_id, price in rows if price is not None}


async def load_cart(*, session: AsyncSession, owner: CartOwner, actor: Principal) -> CartRead:
    """The cart a connection shows: for a signed-in user, the visitor's cart is merged into theirs first."""
    if _key(owner) is None:
        return await get_cart(session=session, owner=owner)
    return await merge_visitor_cart(session=session, owner=owner, actor=actor)


# ---- commands -----------------------------------------------------------------------------------
def _upsert(
    session: AsyncSession, owner: CartOwner, rows: Sequence[Mapping[str, object]]
) -> postgresql.Insert | sqlite.Insert:
    """Insert items, or add their quantities to the owner's existing ones (capped at MAX_QUANTITY). One
    statement, so two tabs adding the same item at once both count."""
    column, value = _required_key(owner)
    other = "visitor_id" if column == "user_id" else "user_id"
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    insert = postgres_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(CartItem).values([{**row, column: value, other: None} for row in rows])
    added = CartItem.quantity + statement.excluded.quantity
    return statement.on_conflict_do_update(
        index_elements=[_column(column), CartItem.item_key],
        set_={"quantity": case((added > MAX_QUANTITY, MAX_QUANTITY), else_=added)},
    )


async def add_to_cart(
    *,
    session: AsyncSession,
    owner: CartOwner,
    actor: Principal,
    service_slug: str,
    provider_id: str | None = None,
) -> CartChange:
    """Add one visit of a service (with a provider when one was chosen): a new item starts at 1, an item
    already in the cart gets one more."""
    await _check(session, owner, actor)
    service = await session.scalar(
        select(Service).where(Service.slug == service_slug, Service.is_active.is_(True))
    )
    if service is None:
        raise NotFound(NOT_OFFERED)
    if provider_id:
        offered = await session.scalar(
            select(ProviderService.provider_id)
            .join(Provider, Provider.id == ProviderService.provider_id)
            .where(ProviderService.provider_id == provider_id, ProviderService.service_id == service.id)
            .where(*LISTED)
        )
        if offered is None:
            raise NotFound(PROVIDER_NOT_OFFERING)
    key = item_key(service.slug, provider_id)
    held = await session.scalar(select(CartItem.quantity).where(_owned(owner), CartItem.item_key == key))
    if held is not None and held >= MAX_QUANTITY:
        raise ValidationFailed(TOO_MANY.format(limit=MAX_QUANTITY, item=service.name))
    row = {"item_key": key, "service_id": service.id, "provider_id": provider_id or None, "quantity": 1}
    quantity = await session.scalar(_upsert(session, owner, [row]).returning(CartItem.quantity))
    is_new = quantity == 1
    return await _changed(
        session, owner, (ADDED if is_new else UPDATED).format(item=service.name), added=is_new
    )


async def _owned_item(session: AsyncSession, owner: CartOwner, item_id: str) -> tuple[CartItem, str]:
    found = (
        await session.execute(
            select(CartItem, Service.name)
            .join(Service, Service.id == CartItem.service_id)
            .where(_owned(owner), CartItem.item_key == item_id)
        )
    ).first()
    if found is None:
        raise NotFound(NOT_IN_CART)
    return found[0], found[1]


async def set_quantity(
    *, session: AsyncSession, owner: CartOwner, actor: Principal, item_id: str, quantity: int
) -> CartChange:
    """Set how many visits of an item to book (or units of a product to order); below 1 removes it (SPEC §4)."""
    await _check(session, owner, actor)
    if product_of(item_id) is not None:
        return await _set_product_quantity(session, owner, item_id, quantity)
    row, name = await _owned_item(session, owner, item_id)
    if quantity < 1:
        await session.delete(row)
        message = REMOVED
    elif quantity > MAX_QUANTITY:
        raise ValidationFailed(TOO_MANY.format(limit=MAX_QUANTITY, item=name))
    else:
        row.quantity = quantity
        message = UPDATED
    await session.flush()
    return await _changed(session, owner, message.format(item=name))


async def remove_from_cart(
    *, session: AsyncSession, owner: CartOwner, actor: Principal, item_id: str
) -> CartChange:
    await _check(session, owner, actor)
    if product_of(item_id) is not None:
        return await _set_product_quantity(session, owner, item_id, 0)
    row, name = await _owned_item(session, owner, item_id)
    await session.delete(row)
    await session.flush()
    return await _changed(session, owner, REMOVED.format(item=name))


async def clear_cart(*, session: AsyncSession, owner: CartOwner, actor: Principal) -> CartChange:
    await _check(session, owner, actor)
    await session.execute(delete(CartItem).where(_owned(owner)))
    if owner.user_id:
        await session.execute(delete(CartProduct).where(CartProduct.user_id == owner.user_id))
    cart = CartRead(items=[], totals=cart_totals([]))
    await _announce(session, owner, cart)
    return CartChange(cart=cart, message=CLEARED)


# ---- store products ---------------------------------------------------------------------------------
async def add_product_to_cart(
    *, session: AsyncSession, owner: CartOwner, actor: Principal, product_id: str
) -> CartChange:
    """Add one unit of a store product to a signed-in user's cart: refused when it is out of stock or the
    cart already holds all that is left (checkout reserves the stock: app/services/store)."""
    if not owner.user_id:
        raise PermissionDenied(PRODUCT_SIGN_IN)
    if not flags.store_open():
        raise ValidationFailed(STORE_CLOSED, code="store_closed")
    await _check(session, owner, actor)
    product = await session.scalar(
        select(Product).where(Product.id == product_id[:36], Product.active.is_(True))
    )
    if product is None:
        raise NotFound(PRODUCT_GONE)
    held = (
        await session.scalar(
            select(CartProduct.quantity).where(
                CartProduct.user_id == owner.user_id, CartProduct.product_id == product.id
            )
        )
        or 0
    )
    if product.stock <= 0:
        raise ValidationFailed(PRODUCT_OUT.format(item=product.name))
    if held >= MAX_QUANTITY:
        raise ValidationFailed(PRODUCT_TOO_MANY.format(limit=MAX_QUANTITY, item=product.name))
    if held >= product.stock:
        raise ValidationFailed(PRODUCT_ONLY_LEFT.format(stock=product.stock, item=product.name))
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    insert = postgres_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(CartProduct).values(user_id=owner.user_id, product_id=product.id, quantity=1)
    statement = statement.on_conflict_do_update(
        index_elements=[CartProduct.user_id, CartProduct.product_id],
        set_={"quantity": CartProduct.quantity + 1},
    )
    await session.execute(statement)
    is_new = held == 0
    return await _changed(
        session, owner, (ADDED if is_new else UPDATED).format(item=product.name), added=is_new
    )


async def _set_product_quantity(
    session: AsyncSession, owner: CartOwner, item_id: str, quantity: int
) -> CartChange:
    found = (
        await session.execute(
            select(CartProduct, Product)
            .join(Product, Product.id == CartProduct.product_id)
            .where(
                CartProduct.user_id == (owner.user_id or ""), CartProduct.product_id == product_of(item_id)
            )
        )
    ).first()
    if found is None:
        raise NotFound(NOT_IN_CART)
    row, product = found
    if quantity < 1:
        await session.delete(row)
        message = REMOVED
    elif quantity > MAX_QUANTITY:
        raise ValidationFailed(PRODUCT_TOO_MANY.format(limit=MAX_QUANTITY, item=product.name))
    elif quantity > row.quantity and quantity > product.stock:
        raise ValidationFailed(PRODUCT_ONLY_LEFT.format(stock=product.stock, item=product.name))
    else:
        row.quantity = quantity
        message = UPDATED
    await session.flush()
    return await _changed(session, owner, message.format(item=product.name))


async def remove_products(*, session: AsyncSession, owner: CartOwner, product_ids: Sequence[str]) -> None:
    """Take ordered products out of the user's cart (after a store order was placed; no toast)."""
    if owner.user_id and product_ids:
        await session.execute(
            delete(CartProduct).where(
                CartProduct.user_id == owner.user_id, CartProduct.product_id.in_(list(product_ids))
            )
        )
        await _announce(session, owner)


@cache
def _removal_statements(column: OwnerColumn, count: int) -> tuple[Delete, Update]:
    """`remove_items`' two statements for an owner column and `count` item keys, built once: delete the
    items used up, lower the others (the owner, `key_0`… and `taken_0`… are parameters)."""
    keys: list[BindParameter[str]] = [bindparam(f"key_{index}") for index in range(count)]
    taken = case(
        *(
            (CartItem.item_key == key, bindparam(f"taken_{index}", type_=Integer()))
            for index, key in enumerate(keys)
        ),
        else_=0,
    )
    owned = and_(_column(column) == bindparam("owner"), CartItem.item_key.in_(keys))
    use_up = delete(CartItem).where(owned, CartItem.quantity <= taken)
    lower = update(CartItem).where(owned).values(quantity=CartItem.quantity - taken)
    options = {"synchronize_session": False}
    return use_up.execution_options(**options), lower.execution_options(**options)


async def remove_items(*, session: AsyncSession, owner: CartOwner, item_ids: Sequence[str]) -> None:
    """Take booked visits out of the owner's cart (after checkout placed the order; no toast): each id
    listed lowers that item's quantity by one, and an item with none left is removed. One statement when
    every item is used up (the usual checkout), two otherwise."""
    booked = Counter(item_ids)
    if not booked or _key(owner) is None:
        return
    column, value = _required_key(owner)
    values: dict[str, object] = {"owner": value}
    for index, (key, count) in enumerate(booked.items()):
        values[f"key_{index}"], values[f"taken_{index}"] = key, count
    use_up, lower = _removal_statements(column, len(booked))
    if await changed_rows(session, use_up, values) != len(booked):
        await session.execute(lower, values)
    await _announce(session, owner)


async def empty_checked_out(session: AsyncSession, checked_out: CheckedOut) -> None:
    """The cart's part of a checkout, in its transaction: what was ordered leaves the account's cart and the
    signed-out visitor's it came from."""
    account = CartOwner(user_id=checked_out.user_id)
    await remove_items(session=session, owner=account, item_ids=checked_out.cart_item_ids)
    if checked_out.visitor_id:
        await remove_items(
            session=session,
            owner=CartOwner(visitor_id=checked_out.visitor_id),
            item_ids=checked_out.cart_item_ids,
        )
    await remove_products(session=session, owner=account, product_ids=checked_out.product_ids)


async def merge_visitor_cart(*, session: AsyncSession, owner: CartOwner, actor: Principal) -> CartRead:
    """Move the visitor's items into the signed-in user's cart (quantities add up, capped) and return the
    owner's cart. Without both a user and a visitor there is nothing to merge."""
    await _check(session, owner, actor)
    if owner.user_id and _visitor(owner):
        await _merge(session, owner)
    return await get_cart(session=session, owner=owner)


async def _merge(session: AsyncSession, owner: CartOwner) -> None:
    visitor = CartOwner(visitor_id=owner.visitor_id)
    # Locked (PostgreSQL), so two tabs signing in at once cannot both add the same visitor items.
    rows = (
        await session.scalars(
            select(CartItem).where(_owned(visitor)).order_by(CartItem.added_at).with_for_update()
        )
    ).all()
    if not rows:
        return
    moved = [
        {
            "item_key": row.item_key,
            "service_id": row.service_id,
            "provider_id": row.provider_id,
            "quantity": row.quantity,
            "added_at": row.added_at,
        }
        for row in rows
    ]
    await session.execute(delete(CartItem).where(CartItem.id.in_([row.id for row in rows])))
    await session.execute(_upsert(session, owner, moved))
    await _announce(session, owner)
    await _announce(session, visitor)
