"""The cart (SPEC §3 "Cart item", §4, §9): services a visitor means to book, persisted per owner.

An owner is either a signed-in user or an anonymous visitor (the `mv_visitor` cookie); exactly one of
`user_id` and `visitor_id` is set. Only the service (and, when added from a provider's profile, the
provider) and the quantity are stored: the price is always computed by the server when the cart is read.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column
from models.store import StoreTotals


class CartItem(Base):
    __tablename__ = "cart_items"
    __table_args__ = (
        CheckConstraint("quantity >= 1", name="quantity_positive"),
        CheckConstraint("(user_id IS NULL) <> (visitor_id IS NULL)", name="one_owner"),
        Index("ix_cart_items_user_item", "user_id", "item_key", unique=True),
        Index("ix_cart_items_visitor_item", "visitor_id", "item_key", unique=True),
    )

    id: Mapped[str] = id_column()
    user_id: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), default=None)
    visitor_id: Mapped[str | None] = mapped_column(String(64), default=None)
    # The SPEC's cart item id: the service slug, or "<service slug>@<provider id>" for a chosen provider.
    item_key: Mapped[str] = mapped_column(String(120))
    service_id: Mapped[str] = mapped_column(ForeignKey("services.id", ondelete="CASCADE"))
    provider_id: Mapped[str | None] = mapped_column(
        ForeignKey("providers.id", ondelete="CASCADE"), default=None
    )
    quantity: Mapped[int] = mapped_column(Integer, default=1)
    added_at: Mapped[datetime] = created_at_column()


# ---- read schemas ------------------------------------------------------------------------------
class CartItemRead(BaseModel):
    """SPEC §3 cart item (id, name, price, quantity) plus what the panel and checkout show."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    price: Decimal  # what one visit (or product) costs now (sale applied)
    original_price: Decimal  # before any sale
    quantity: int
    service_id: str = ""
    service_slug: str = ""
    category_slug: str = ""
    duration_minutes: int = 0
    provider_id: str | None = None
    provider_name: str | None = None
    # No provider chosen yet: the visit costs what the provider chosen at checkout charges, and `price` is
    # the lowest any listed provider charges ("from $X").
    price_is_from: bool = False
    # A store product (its id is "product:<product id>"): shipped, not booked (app/services/store).
    kind: str = "visit"  # visit or product
    product_id: str | None = None
    stock: int | None = None  # a product's units left
    image_url: str | None = None

    @property
    def is_product(self) -> bool:
        return self.kind == "product"


class CartTotals(BaseModel):
    """SPEC §3 cart totals: the visits' platform fee is 5 % of their subtotal (SPEC §9); store products add
    the figures their store order will have (`products`: shipping, sales tax and the retail fee the owners
    set, none by default). total = subtotal + shipping + sales tax + fee."""

    model_config = ConfigDict(frozen=True)

    subtotal: Decimal
    platform_fee: Decimal
    total: Decimal
    item_count: int
    is_estimate: bool = False  # some price is a "from" price: the total is the lowest it can be
    shipping: Decimal = Decimal("0.00")
    sales_tax: Decimal = Decimal("0.00")
    products: StoreTotals | None = None  # the products' part, None when the cart holds none


class CartRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[CartItemRead]
    totals: CartTotals

    @property
    def revision(self) -> str:
        """A digest of the cart as shown: equal revisions show the same cart."""
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:16]


class CartChange(BaseModel):
    """What a command did: the cart afterwards, the toast to show, and whether a new item was added (the
    panel opens then, SPEC §4)."""

    model_config = ConfigDict(frozen=True)

    cart: CartRead
    message: str
    added: bool = False
