"""Store orders: checkout of the cart's products, the patient's orders, and staff moving fulfilment along.

Checkout (`place_store_order`) reserves each product's stock with one conditional UPDATE per product
(`stock = stock - n WHERE stock >= n`, in product-id order): two patients buying the last unit at once
cannot both get it, whatever the database (PostgreSQL re-checks the condition after the first commits;
SQLite has one writer), and the CHECK `stock >= 0` backs it. With the default gateway (pay at visit) the
products are "Pay on delivery": owed when placed, collected when delivered (`_ledger`). An order is priced
with the owners' business settings of its own transaction (`store_pricing`): subtotal + shipping (free from
a threshold) + sales tax + the platform fee on retail, which is none unless an owner sets one (the 5 % of
SPEC §9 is the visits' fee). Each figure is kept on the order, so a later change of settings changes no order.

Fulfilment (SPEC §4) and the order status that follows each step (`_rules.ORDER_STATUS`):

| fulfilment | from | order status | also |
|---|---|---|---|
| pending | (placed) | pending | stock reserved; the amount owed |
| processed | pending | processing | |
| shipped | processed | shipped | carrier and tracking number required |
| delivered | shipped | delivered | paid on delivery: collected into store sales and fees |
| returned | delivered | refunded | what is left refunded (to the card if paid by card, else as wallet credit); stock back |
| canceled | pending, processed | cancelled | the amount owed voided (paid by card: refunded to the card); stock back |

The SPEC's order status `paid` is not used by store orders: a pay-on-delivery order is paid at the moment
it is delivered, and `delivered` says both. Each step is staff's (manage_services), checked here, audited,
and told to the patient in the app and by e-mail (notification kind `store_order`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Select, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events, flags
from app.db import changed_rows
from app.principal import Principal
from app.services.cart import STORE_CLOSED
from app.services.domain_events import CheckedOut, StoreOrderProgressed
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.features.internal import store_pricing
from app.services.payments import get_payment_options, start_store_payment
from app.services.shared.accounts import account_of
from app.services.shared.locks import write_lock
from app.services.shared.signed_in import require_account
from app.services.store import _ledger
from app.services.store._paid import CARD, check_paid_step, require_own_visit_order, visit_numbers
from app.services.store._refunds import refund_rest
from app.services.store._rules import (
    MAX_PAGE_SIZE,
    MAX_PER_PRODUCT,
    MAX_REASON,
    MAX_SEARCH,
    NO_ORDER,
    NO_PRODUCT,
    NO_PRODUCTS,
    ONLY_LEFT,
    ORDER_STATUS,
    OUT_OF_STOCK,
    PAY_ON_DELIVERY,
    REASON_TOO_LONG,
    SIGN_IN,
    TOO_MANY,
    _clean,
    check_step,
    check_tracking,
    clean_address,
    require_store_staff,
    shipping_problems,
)
from models.account import SavedAddress
from models.audit import AuditAction
from models.base import utcnow
from models.identity import User, as_utc
from models.store import (
    CartProduct,
    FulfilmentStatus,
    Product,
    ShippingAddress,
    StoreOrder,
    StoreOrderLine,
    StoreOrderLineRead,
    StoreOrderPage,
    StoreOrderRead,
)

F = FulfilmentStatus
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
STAMPS = {
    F.processed: "processed_at",
    F.shipped: "shipped_at",
    F.delivered: "delivered_at",
    F.returned: "returned_at",
    F.canceled: "canceled_at",
}


class ShippingInvalid(ValidationFailed):
    """The shipping address has problems: `errors` maps each field to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())))
        self.errors = errors


async def _number(session: AsyncSession) -> str:
    while True:
        number = "MS-" + "".join(secrets.choice(ALPHABET) for _ in range(6))
        if await session.scalar(select(StoreOrder.id).where(StoreOrder.number == number)) is None:
            return number


async def _reserve(session: AsyncSession, wanted: dict[str, int], names: dict[str, str]) -> None:
    """Take `wanted` units of each product off its stock, or refuse (the caller's unit of work rolls back
    what was taken before)."""
    for product_id in sorted(wanted):
        quantity = wanted[product_id]
        taken = await changed_rows(
            session,
            update(Product)
            .where(Product.id == product_id, Product.active.is_(True), Product.stock >= quantity)
            .values(stock=Product.stock - quantity)
            .execution_options(synchronize_session=False),
        )
        if taken == 1:
            continue
        left = await session.scalar(
            select(Product.stock).where(Product.id == product_id, Product.active.is_(True))
        )
        name = names[product_id]
        if left is None:
            raise ValidationFailed(f"{name}: {NO_PRODUCT}")
        raise ValidationFailed(
            OUT_OF_STOCK.format(name=name) if left <= 0 else ONLY_LEFT.format(stock=left, name=name)
        )


async def _restock(session: AsyncSession, order_id: str) -> None:
    lines = (
        await session.execute(
            select(StoreOrderLine.product_id, StoreOrderLine.quantity).where(
                StoreOrderLine.order_id == order_id, StoreOrderLine.product_id.is_not(None)
            )
        )
    ).all()
    for product_id, quantity in sorted(lines):
        await session.execute(
            update(Product)
            .where(Product.id == product_id)
            .values(stock=Product.stock + quantity)
            .execution_options(synchronize_session=False)
        )


async def _tell(session: AsyncSession, order: StoreOrder, step: FulfilmentStatus, at: datetime) -> None:
    await events.publish_event(
        session,
        StoreOrderProgressed(
            order_id=order.id,
            number=order.number,
            patient_id=order.patient_id,
            step=step.value,
            carrier=order.carrier,
            tracking_number=order.tracking_number,
            at=at,
        ),
    )


async def place_store_order(
    *,
    session: AsyncSession,
    actor: Principal,
    address: ShippingAddress,
    visit_order_id: str | None = None,
    now: datetime | None = None,
) -> StoreOrderRead:
    """Order the products in the signed-in patient's cart, shipped to `address` (US): the stock is reserved,
    the products leave the cart and the patient is told. Nothing is written when the address or any
    product's stock will not do. Paid on delivery (the order's money recorded as owed), or by card when the
    card gateway is configured (PAYMENT_GATEWAY=stripe): the order then awaits its payment, on a Checkout
    Session of its own (`payment_url`), or, with `visit_order_id` (one checkout of a cart with visits, the
    patient's own order), on the visit order's session, which lists the products too."""
    if actor.user_id is None:
        raise PermissionDenied(SIGN_IN)
    if not flags.store_open():
        raise ValidationFailed(STORE_CLOSED, code="store_closed")
    account = await require_account(session=session, actor=actor)
    problems = shipping_problems(address)
    if problems:
        raise ShippingInvalid(problems)
    address = clean_address(address)
    rows = (
        await session.execute(
            select(CartProduct.quantity, Product)
            .join(Product, Product.id == CartProduct.product_id)
            .where(CartProduct.user_id == account.id)
            .order_by(CartProduct.added_at, CartProduct.id)
        )
    ).all()
    if not rows:
        raise ValidationFailed(NO_PRODUCTS)
    if any(quantity > MAX_PER_PRODUCT for quantity, _product in rows):
        raise ValidationFailed(TOO_MANY)
    await _reserve(session, {p.id: quantity for quantity, p in rows}, {p.id: p.name for _quantity, p in rows})
    at = now or utcnow()
    # With visits, the products are paid as the visits are: by card on the same payment, or (pay at visit)
    # on delivery. On their own, by card whenever the card gateway is configured.
    if visit_order_id is not None:
        visit_order = await require_own_visit_order(session, account.id, visit_order_id)
        by_card = visit_order.payment_method == CARD
    else:
        by_card = get_payment_options().pays_online
    pricing = await store_pricing(session=session)
    totals = pricing.totals(sum(product.price_cents * quantity for quantity, product in rows))
    order = StoreOrder(
        number=await _number(session),
        patient_id=account.id,
        status=ORDER_STATUS[F.pending].value,
        fulfilment=F.pending.value,
        subtotal_cents=totals.subtotal_cents,
        shipping_cents=totals.shipping_cents,
        tax_cents=totals.tax_cents,
        fee_cents=totals.fee_cents,
        total_cents=totals.total_cents,
        payment_method=CARD if by_card else PAY_ON_DELIVERY,
        visit_order_id=visit_order_id,
        ship_name=address.name,
        ship_line1=address.line1,
        ship_line2=address.line2,
        ship_city=address.city,
        ship_state=address.state,
        ship_zip=address.zip_code,
        created_at=at,
        updated_at=at,
    )
    session.add(order)
    await session.flush()
    session.add_all(
        StoreOrderLine(
            order_id=order.id,
            product_id=product.id,
            name=product.name,
            unit_price_cents=product.price_cents,
            quantity=quantity,
        )
        for quantity, product in rows
    )
    if not by_card:  # a card order's money enters the ledger once its payment is confirmed
        await _ledger.record_placed(session, order, at)
    await session.flush()
    payment_url = ""
    if by_card and visit_order_id is None:
        payment_url = await start_store_payment(session=session, order=order, patient=account, now=at)
    await events.publish_event(
        session,
        CheckedOut(
            user_id=account.id, visitor_id=None, cart_item_ids=(), product_ids=tuple(p.id for _q, p in rows)
        ),
    )
    await _tell(session, order, F.pending, at)
    await session.flush()
    read = (await _reads(session, [order]))[0]
    return read.model_copy(update={"payment_url": payment_url}) if payment_url else read


async def _reads(session: AsyncSession, orders: Sequence[StoreOrder]) -> list[StoreOrderRead]:
    """Orders with their lines and patients' names: two queries for the whole page."""
    ids = [order.id for order in orders]
    lines: dict[str, list[StoreOrderLineRead]] = {order_id: [] for order_id in ids}
    if ids:
        for line in await session.scalars(
            select(StoreOrderLine).where(StoreOrderLine.order_id.in_(ids)).order_by(StoreOrderLine.name)
        ):
            lines[line.order_id].append(
                StoreOrderLineRead(
                    product_id=line.product_id,
                    name=line.name,
                    unit_price_cents=line.unit_price_cents,
                    quantity=line.quantity,
                )
            )
    linked = await visit_numbers(session, orders)
    patients = {order.patient_id for order in orders}
    names = {}
    if patients:
        names = {
            user.id: account_of(user).name
            for user in await session.scalars(select(User).where(User.id.in_(patients)))
        }
    return [
        StoreOrderRead(
            id=order.id,
            number=order.number,
            patient_id=order.patient_id,
            patient_name=names.get(order.patient_id, ""),
            status=order.status,
            fulfilment=F(order.fulfilment),
            subtotal_cents=order.subtotal_cents,
            shipping_cents=order.shipping_cents,
            tax_cents=order.tax_cents,
            fee_cents=order.fee_cents,
            total_cents=order.total_cents,
            payment_method=order.payment_method,
            ship_name=order.ship_name,
            ship_line1=order.ship_line1,
            ship_line2=order.ship_line2,
            ship_city=order.ship_city,
            ship_state=order.ship_state,
            ship_zip=order.ship_zip,
            carrier=order.carrier,
            tracking_number=order.tracking_number,
            note=order.note,
            created_at=order.created_at,
            shipped_at=order.shipped_at,
            delivered_at=order.delivered_at,
            lines=lines[order.id],
            visit_order_number=linked.get(order.id, ""),
            paid_at=as_utc(order.paid_at),
        )
        for order in orders
    ]


async def _page(
    session: AsyncSession, query: Select[StoreOrder], page: int, page_size: int
) -> StoreOrderPage:
    page_size = max(1, min(page_size, MAX_PAGE_SIZE))
    page = max(1, page)
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = (
        await session.scalars(
            query.order_by(StoreOrder.created_at.desc(), StoreOrder.id)
            .limit(page_size)
            .offset((page - 1) * page_size)
        )
    ).all()
    return StoreOrderPage(items=await _reads(session, rows), total=total or 0, page=page, page_size=page_size)


async def list_my_store_orders(
    *, session: AsyncSession, actor: Principal, page: int = 1, page_size: int = 10
) -> StoreOrderPage:
    """The signed-in patient's store orders, newest first."""
    account = await require_account(session=session, actor=actor)
    query = select(StoreOrder).where(StoreOrder.patient_id == account.id)
    return await _page(session, query, page, page_size)


async def list_store_orders(
    *,
    session: AsyncSession,
    actor: Principal,
    fulfilment: str = "",
    search: str = "",
    page: int = 1,
    page_size: int = 25,
) -> StoreOrderPage:
    """Staff (manage_services): the fulfilment queue, newest first, filtered by fulfilment status and by
    order number (a prefix, e.g. 'MS-7K')."""
    await require_store_staff(session=session, actor=actor)
    query = select(StoreOrder)
    if fulfilment in {f.value for f in F}:
        query = query.where(StoreOrder.fulfilment == fulfilment)
    number = _clean(search)[:MAX_SEARCH].upper()
    if number:
        query = query.where(StoreOrder.number.startswith(number, autoescape=True))
    return await _page(session, query, page, page_size)


async def move_fulfilment(
    *,
    session: AsyncSession,
    actor: Principal,
    order_id: str,
    to: str,
    carrier: str = "",
    tracking_number: str = "",
    reason: str = "",
    now: datetime | None = None,
) -> StoreOrderRead:
    """Staff (manage_services) move an order one fulfilment step (see the module's table): the order
    status follows, the ledger records the money, stock comes back on a return or cancel, the step is
    audited and the patient told."""
    staff = await require_store_staff(session=session, actor=actor)
    try:
        target = F(to)
    except ValueError:
        raise ValidationFailed(f"Unknown fulfilment status {to[:20]!r}.") from None
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON:
        raise ValidationFailed(REASON_TOO_LONG)
    # Two staff moving one order at once: the second waits here, then sees the first's step.
    await write_lock(session, StoreOrder.id, [order_id[:36]])
    order = await session.scalar(
        select(StoreOrder).where(StoreOrder.id == order_id[:36]).execution_options(populate_existing=True)
    )
    if order is None:
        raise NotFound(NO_ORDER)
    before = F(order.fulfilment)
    check_step(before, target)
    check_paid_step(order, target)
    at = now or utcnow()
    if target is F.shipped:
        order.carrier, order.tracking_number = check_tracking(carrier, tracking_number)
    if target is F.delivered and order.payment_method == CARD:
        pass  # paid by card at checkout: nothing left to collect
    elif target is F.delivered:
        await _ledger.record_delivered(session, order, staff.id, at)
    elif target is F.returned or (target is F.canceled and order.payment_method == CARD):
        # Paid: what is left of it goes back, to the card when it was paid by card, else as wallet credit.
        await refund_rest(session, order, actor_id=staff.id, reason=reason, at=at)
        await _restock(session, order.id)
    elif target is F.canceled:
        await _ledger.record_canceled(session, order, staff.id, at)
        await _restock(session, order.id)
    order.fulfilment = target.value
    order.status = ORDER_STATUS[target].value
    setattr(order, STAMPS[target], at)
    if reason:
        order.note = reason
    order.updated_at = at
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.store_fulfilment,
        target=f"store order {order.number}",
        details={
            "from": before.value,
            "to": target.value,
            **(
                {"carrier": order.carrier, "tracking_number": order.tracking_number}
                if target is F.shipped
                else {}
            ),
            **({"reason": reason} if reason else {}),
        },
    )
    await _tell(session, order, target, at)
    return (await _reads(session, [order]))[0]


async def get_shipping_prefill(*, session: AsyncSession, actor: Principal) -> ShippingAddress:
    """Where the signed-in patient's next store order probably ships: the newer of their last store order's
    address and the visit address saved on their profile (with their name), else nothing. Checkout starts
    from it; the patient may change every field."""
    account = await require_account(session=session, actor=actor)
    last = await session.scalar(
        select(StoreOrder)
        .where(StoreOrder.patient_id == account.id)
        .order_by(StoreOrder.created_at.desc(), StoreOrder.id)
        .limit(1)
    )
    saved = await session.get(SavedAddress, account.id)
    if saved is not None and (last is None or as_utc(saved.updated_at) > as_utc(last.created_at)):
        return ShippingAddress(
            name=account.name if account.name != "User" else "",
            line1=saved.address_line,
            city=saved.city,
            state=saved.state,
            zip_code=saved.zip_code,
        )
    if last is not None:
        return ShippingAddress(
            name=last.ship_name,
            line1=last.ship_line1,
            line2=last.ship_line2,
            city=last.ship_city,
            state=last.ship_state,
            zip_code=last.ship_zip,
        )
    return ShippingAddress()
