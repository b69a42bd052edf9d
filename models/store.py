"""The store (issue 14 part 9): products staff sell (SPEC §3 product categories), products in a patient's
cart, and store orders with their shipping address, lines and fulfilment (SPEC §4 order and fulfilment
statuses).

Money is integer cents here, as in the ledger. A product's `stock` never goes below zero: the CHECK
constraint backs the conditional UPDATE checkout reserves stock with (`stock >= quantity`). An order line
keeps the name and unit price the patient paid, so renaming or repricing a product never changes an order.
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import BigInteger, Boolean, CheckConstraint, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_NAME = 120
MAX_DESCRIPTION = 2000
MAX_PRICE_CENTS = 1_000_000  # $10,000: no product of this store costs more
MAX_STOCK = 100_000
MAX_IMAGES = 4


class ProductCategory(enum.StrEnum):
    """SPEC §3 product categories, spelled as the SPEC shows them (the stored value too)."""

    medical_supplies = "Medical Supplies"
    wellness = "Wellness"
    beauty = "Beauty"
    health_tech = "Health Tech"
    home_care = "Home Care"
    vitamins = "Vitamins"
    equipment = "Equipment"
    supplies = "Supplies"
    supplements = "Supplements"
    care = "Care"
    other = "Other"


class FulfilmentStatus(enum.StrEnum):
    """SPEC §4 fulfilment status (its spelling: 'canceled')."""

    pending = "pending"
    processed = "processed"
    shipped = "shipped"
    delivered = "delivered"
    returned = "returned"
    canceled = "canceled"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Product(Base):
    __tablename__ = "products"
    __table_args__ = (
        CheckConstraint("stock >= 0", name="stock_not_negative"),
        CheckConstraint("price_cents > 0", name="price_positive"),
        Index("ix_products_active_category_name", "active", "category", "name"),
        Index("ix_products_name_lower", text("lower(name)")),
    )

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    description: Mapped[str] = mapped_column(Text, default="")
    category: Mapped[str] = mapped_column(String(32))  # a ProductCategory value
    price_cents: Mapped[int] = mapped_column(BigInteger)
    stock: Mapped[int] = mapped_column(Integer, default=0)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ProductImage(Base):
    """A photo of a product, stored under UPLOAD_DIR like the project's other uploads."""

    __tablename__ = "product_images"
    __table_args__ = (Index("ix_product_images_product", "product_id", "position"),)

    id: Mapped[str] = id_column()
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"))
    stored_name: Mapped[str] = mapped_column(String(80))
    content_type: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer, default=0)
    uploaded_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = created_at_column()


class CartProduct(Base):
    """A product in a signed-in patient's cart (visits stay in `cart_items`; the cart service reads both)."""

    __tablename__ = "cart_products"
    __table_args__ = (
        CheckConstraint("quantity >= 1", name="quantity_positive"),
        Index("ix_cart_products_user_product", "user_id", "product_id", unique=True),
    )

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"))
    quantity: Mapped[int] = mapped_column(Integer, default=1)
    added_at: Mapped[datetime] = created_at_column()


class StoreOrder(Base):
    __tablename__ = "store_orders"
    __table_args__ = (
        Index("ix_store_orders_patient_created", "patient_id", "created_at"),
        Index("ix_store_orders_fulfilment_created", "fulfilment", "created_at"),
        CheckConstraint(
            "total_cents = subtotal_cents + shipping_cents + tax_cents + fee_cents", name="total_adds_up"
        ),
    )

    id: Mapped[str] = id_column()
    number: Mapped[str] = mapped_column(String(16), unique=True)  # "MS-7K3Q9P"
    patient_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16), default="pending")  # models.booking.OrderStatus
    fulfilment: Mapped[str] = mapped_column(String(16), default=FulfilmentStatus.pending.value)
    subtotal_cents: Mapped[int] = mapped_column(BigInteger)
    shipping_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    tax_cents: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    fee_cents: Mapped[int] = mapped_column(BigInteger)
    total_cents: Mapped[int] = mapped_column(BigInteger)
    payment_method: Mapped[str] = mapped_column(String(32))
    ship_name: Mapped[str] = mapped_column(String(100))
    ship_line1: Mapped[str] = mapped_column(String(200))
    ship_line2: Mapped[str] = mapped_column(String(200), default="")
    ship_city: Mapped[str] = mapped_column(String(100))
    ship_state: Mapped[str] = mapped_column(String(2))
    ship_zip: Mapped[str] = mapped_column(String(5))
    carrier: Mapped[str] = mapped_column(String(40), default="")
    tracking_number: Mapped[str] = mapped_column(String(40), default="")
    note: Mapped[str] = mapped_column(String(500), default="")  # staff's reason for a return or cancel
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    processed_at: Mapped[datetime | None] = mapped_column(default=None)
    shipped_at: Mapped[datetime | None] = mapped_column(default=None)
    delivered_at: Mapped[datetime | None] = mapped_column(default=None)
    returned_at: Mapped[datetime | None] = mapped_column(default=None)
    canceled_at: Mapped[datetime | None] = mapped_column(default=None)
    # One checkout (issue 29 item 4): the visit order placed with it from the same cart, if any (one
    # payment: a card order's Checkout Session is the visit order's), and when a card order was paid.
    visit_order_id: Mapped[str | None] = mapped_column(
        ForeignKey("orders.id", ondelete="SET NULL"), default=None, index=True
    )
    paid_at: Mapped[datetime | None] = mapped_column(default=None)


class StoreOrderLine(Base):
    __tablename__ = "store_order_lines"
    __table_args__ = (
        Index("ix_store_order_lines_order", "order_id"),
        CheckConstraint("quantity >= 1", name="quantity_positive"),
    )

    id: Mapped[str] = id_column()
    order_id: Mapped[str] = mapped_column(ForeignKey("store_orders.id", ondelete="CASCADE"))
    product_id: Mapped[str | None] = mapped_column(
        ForeignKey("products.id", ondelete="SET NULL"), default=None
    )
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    unit_price_cents: Mapped[int] = mapped_column(BigInteger)
    quantity: Mapped[int] = mapped_column(Integer)


# ---- schemas -------------------------------------------------------------------------------------
class StoreCardPayment(Base):
    """The Stripe Checkout Session of a store order paid by card on its own (a cart of products only); a
    store order placed with visits is paid through the visit order's card payment (`visit_order_id`)."""

    __tablename__ = "store_card_payments"
    __table_args__ = (Index("ix_store_card_payments_intent", "payment_intent_id"),)

    store_order_id: Mapped[str] = mapped_column(
        ForeignKey("store_orders.id", ondelete="CASCADE"), primary_key=True
    )
    checkout_session_id: Mapped[str] = mapped_column(String(255), unique=True)
    payment_intent_id: Mapped[str | None] = mapped_column(String(255), default=None)
    checkout_url: Mapped[str] = mapped_column(String(2048), default="")
    amount: Mapped[int] = mapped_column(BigInteger)  # cents
    currency: Mapped[str] = mapped_column(String(3), default="usd")
    status: Mapped[str] = mapped_column(String(16), default="awaiting")  # models.payment.CardPaymentStatus
    failure_reason: Mapped[str] = mapped_column(String(200), default="")
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    paid_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ProductCreate(BaseModel):
    """What staff type for a product; limits are checked by the service with clear messages."""

    name: str = Field(max_length=500)
    description: str = Field(default="", max_length=10_000)
    category: str = Field(max_length=64)
    price: str = Field(max_length=32)  # dollars as typed, e.g. "12.50"
    stock: str = Field(default="0", max_length=16)
    active: bool = True


class ProductUpdate(ProductCreate):
    pass


class ProductImageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    url: str


class ProductRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    description: str
    category: str
    price_cents: int
    stock: int
    active: bool
    images: list[ProductImageRead] = []

    @property
    def image_url(self) -> str | None:
        return self.images[0].url if self.images else None


class ProductPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[ProductRead]
    total: int
    page: int
    page_size: int


class ShippingAddress(BaseModel):
    """A US shipping address as typed; the store service trims and checks it (`shipping_problems`)."""

    name: str = Field(default="", max_length=500)
    line1: str = Field(default="", max_length=500)
    line2: str = Field(default="", max_length=500)
    city: str = Field(default="", max_length=500)
    state: str = Field(default="", max_length=50)
    zip_code: str = Field(default="", max_length=50)


class StoreOrderLineRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    product_id: str | None
    name: str
    unit_price_cents: int
    quantity: int


class StoreOrderRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    number: str
    patient_id: str
    patient_name: str = ""
    status: str
    fulfilment: FulfilmentStatus
    subtotal_cents: int
    shipping_cents: int = 0
    tax_cents: int = 0
    fee_cents: int
    total_cents: int
    payment_method: str
    ship_name: str
    ship_line1: str
    ship_line2: str
    ship_city: str
    ship_state: str
    ship_zip: str
    carrier: str
    tracking_number: str
    note: str
    created_at: datetime
    shipped_at: datetime | None
    delivered_at: datetime | None
    lines: list[StoreOrderLineRead]
    # One checkout: the visit order number placed with it (""), when a card order was paid, and the page to
    # pay a card order on while it awaits payment ("").
    visit_order_number: str = ""
    paid_at: datetime | None = None
    payment_url: str = ""


class StoreTotals(BaseModel):
    """A store order's figures in cents: total = subtotal + shipping + tax + fee (the table's CHECK)."""

    model_config = ConfigDict(frozen=True)

    subtotal_cents: int
    shipping_cents: int
    tax_cents: int
    fee_cents: int
    tax_percent: Decimal = Decimal(0)
    fee_percent: Decimal = Decimal(0)

    @property
    def total_cents(self) -> int:
        return self.subtotal_cents + self.shipping_cents + self.tax_cents + self.fee_cents


def _percent_of(cents: int, percent: Decimal) -> int:
    return int((Decimal(cents) * percent / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


class StorePricing(BaseModel):
    """What the owners' business settings say a store order costs beyond its products (issue 29 item 4):
    the platform fee and the sales tax as percentages of the products' subtotal, a flat shipping charge per
    order, waived from `free_from_cents` of subtotal (0: never free). The defaults add nothing."""

    model_config = ConfigDict(frozen=True)

    fee_percent: Decimal = Decimal(0)
    shipping_cents: int = 0
    free_from_cents: int = 0
    tax_percent: Decimal = Decimal(0)

    def totals(self, subtotal_cents: int) -> StoreTotals:
        """The figures of an order whose products cost `subtotal_cents`: each rounded half up to the cent.
        An empty order (no products) ships nothing."""
        free = self.free_from_cents > 0 and subtotal_cents >= self.free_from_cents
        return StoreTotals(
            subtotal_cents=subtotal_cents,
            shipping_cents=0 if free or subtotal_cents <= 0 else self.shipping_cents,
            tax_cents=_percent_of(subtotal_cents, self.tax_percent),
            fee_cents=_percent_of(subtotal_cents, self.fee_percent),
            tax_percent=self.tax_percent,
            fee_percent=self.fee_percent,
        )


class StoreOrderPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[StoreOrderRead]
    total: int
    page: int
    page_size: int
