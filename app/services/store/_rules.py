"""The store's words, limits and pure rules: parsing what staff type for a product, checking a US shipping
address, and which fulfilment step may follow which (see `_orders` for what each step does)."""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.shared.addresses import US_STATES, zip_state
from app.services.shared.staff_access import require_permission
from app.services.validation import amount_cents, us_zip
from models.account import AccountRead
from models.booking import OrderStatus
from models.staff import Permission
from models.store import (
    MAX_DESCRIPTION,
    MAX_NAME,
    MAX_PRICE_CENTS,
    MAX_STOCK,
    FulfilmentStatus,
    ProductCategory,
    ProductCreate,
    ShippingAddress,
)

F = FulfilmentStatus
PAGE_SIZE = 24
MAX_PAGE_SIZE = 100
MAX_SEARCH = 80
MAX_PER_PRODUCT = 10  # units of one product per order
MAX_REASON = 500
MAX_CARRIER = 40
MAX_TRACKING = 40
PAY_ON_DELIVERY = "pay_on_delivery"

# Each fulfilment step, what may precede it, and the order status that follows it (SPEC §4).
NEXT_STEPS: dict[FulfilmentStatus, tuple[FulfilmentStatus, ...]] = {
    F.pending: (F.processed, F.canceled),
    F.processed: (F.shipped, F.canceled),
    F.shipped: (F.delivered,),
    F.delivered: (F.returned,),
    F.returned: (),
    F.canceled: (),
}
ORDER_STATUS: dict[FulfilmentStatus, OrderStatus] = {
    F.pending: OrderStatus.pending,
    F.processed: OrderStatus.processing,
    F.shipped: OrderStatus.shipped,
    F.delivered: OrderStatus.delivered,
    F.returned: OrderStatus.refunded,
    F.canceled: OrderStatus.cancelled,
}

NAME_REQUIRED = "Please enter the product's name."
NAME_TOO_LONG = f"The name can be at most {MAX_NAME} characters."
DESCRIPTION_TOO_LONG = f"The description can be at most {MAX_DESCRIPTION} characters."
BAD_CATEGORY = "Please choose one of the store's categories."
BAD_PRICE = "Enter a price in dollars between $0.01 and $10,000, e.g. 12.50."
BAD_STOCK = f"Enter the units in stock as a whole number from 0 to {MAX_STOCK:,}."
NO_PRODUCT = "This product is no longer in the store."
OUT_OF_STOCK = "{name} is out of stock."
ONLY_LEFT = "Only {stock} of {name} left; lower the quantity in your cart."
TOO_MANY = f"You can order at most {MAX_PER_PRODUCT} of one product at once."
NO_PRODUCTS = "Your cart has no products to order."
SIGN_IN = "Please sign in to buy from the store."
NO_ORDER = "No store order has this number."
BAD_STEP = "This order is {now}; it cannot be marked {to}."
NEED_TRACKING = "Enter the carrier and the tracking number to mark the order shipped."
TRACKING_TOO_LONG = f"The carrier and the tracking number can be at most {MAX_CARRIER} characters each."
BAD_TRACKING = "A tracking number has letters, digits and dashes only."
REASON_TOO_LONG = f"The reason can be at most {MAX_REASON} characters."
TOO_MANY_IMAGES = "A product can have at most {limit} photos; remove one first."
NO_IMAGE = "This photo is no longer there."
NOT_AN_IMAGE = "Photos must be PNG, JPEG or WebP images."

SHIP_NAME = "Enter the name of the person receiving the parcel."
SHIP_STREET = "Enter the street address."
SHIP_CITY = "Enter the city."
SHIP_STATE = "Enter the state as two letters, e.g. NY."
SHIP_ZIP = "Enter a real 5-digit US ZIP code, e.g. 10001."
SHIP_ZIP_STATE = "ZIP code {zip} is in {state}, not {typed}."
SHIP_TOO_LONG = "{field} can be at most {limit} characters."

_TRACKING = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 -]*$")


async def require_store_staff(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in staff member holding manage_services; PermissionDenied for anyone else."""
    return await require_permission(session=session, actor=actor, permission=Permission.manage_services)


def _clean(text: str) -> str:
    return " ".join((text or "").split())


def parse_price(text: str) -> int:
    """Dollars as typed ("12.50", "$1,200") to cents, or ValidationFailed."""
    return amount_cents(text, message=BAD_PRICE, least=1, most=MAX_PRICE_CENTS)


def parse_stock(text: str) -> int:
    raw = (text or "").strip().replace(",", "")
    if not raw.isdigit() or int(raw) > MAX_STOCK:
        raise ValidationFailed(BAD_STOCK)
    return int(raw)


def product_problems(data: ProductCreate) -> dict[str, str]:
    """What is wrong with a product as typed, by field (name, description, category, price, stock)."""
    problems: dict[str, str] = {}
    name = _clean(data.name)
    if not name:
        problems["name"] = NAME_REQUIRED
    elif len(name) > MAX_NAME:
        problems["name"] = NAME_TOO_LONG
    if len(data.description.strip()) > MAX_DESCRIPTION:
        problems["description"] = DESCRIPTION_TOO_LONG
    if data.category not in {c.value for c in ProductCategory}:
        problems["category"] = BAD_CATEGORY
    for field, parse in (("price", parse_price), ("stock", parse_stock)):
        try:
            parse(getattr(data, field))
        except ValidationFailed as error:
            problems[field] = error.message
    return problems


def shipping_problems(address: ShippingAddress) -> dict[str, str]:
    """What a US shipping address lacks, by field (name, line1, line2, city, state, zip_code): the ZIP code
    must be a real one (the `zipcodes` list enrollment uses) and lie in the state typed."""
    problems: dict[str, str] = {}
    limits = {"name": 100, "line1": 200, "line2": 200, "city": 100}
    labels = {"name": "The name", "line1": "The street address", "line2": "Line 2", "city": "The city"}
    required = {"name": SHIP_NAME, "line1": SHIP_STREET, "city": SHIP_CITY}
    for field, limit in limits.items():
        value = _clean(getattr(address, field))
        if not value and field in required:
            problems[field] = required[field]
        elif len(value) > limit:
            problems[field] = SHIP_TOO_LONG.format(field=labels[field], limit=limit)
    state = address.state.strip().upper()
    if state not in US_STATES:
        problems["state"] = SHIP_STATE
    try:
        zip_code = us_zip(address.zip_code)
    except ValidationFailed:
        zip_code = ""
    found = zip_state(zip_code) if zip_code else None
    if found is None:
        problems["zip_code"] = SHIP_ZIP
    elif "state" not in problems and found != state:
        problems["zip_code"] = SHIP_ZIP_STATE.format(zip=zip_code, state=found, typed=state)
    return problems


def clean_address(address: ShippingAddress) -> ShippingAddress:
    """The address as stored (after `shipping_problems` found nothing)."""
    return ShippingAddress(
        name=_clean(address.name),
        line1=_clean(address.line1),
        line2=_clean(address.line2),
        city=_clean(address.city),
        state=address.state.strip().upper(),
        zip_code=us_zip(address.zip_code),
    )


def check_step(now: FulfilmentStatus, to: FulfilmentStatus) -> None:
    if to not in NEXT_STEPS[now]:
        raise ValidationFailed(BAD_STEP.format(now=now.value, to=to.value))


def check_tracking(carrier: str, tracking_number: str) -> tuple[str, str]:
    carrier, number = _clean(carrier), _clean(tracking_number)
    if not carrier or not number:
        raise ValidationFailed(NEED_TRACKING)
    if len(carrier) > MAX_CARRIER or len(number) > MAX_TRACKING:
        raise ValidationFailed(TRACKING_TOO_LONG)
    if not _TRACKING.match(number):
        raise ValidationFailed(BAD_TRACKING)
    return carrier, number
