"""Card payments (issue 14, PAYMENT_GATEWAY=stripe): what the platform keeps of the processor's side.

- A **card payment** is the online payment of one order: the Stripe Checkout Session the patient was sent to,
  the PaymentIntent it created, and where it stands: `awaiting` until Stripe confirms (the order's visits
  hold their times meanwhile), then `paid` (the ledger records the money as paid ahead) or `failed` (the
  order is cancelled and its visits released).
- A **payment customer** is the processor's customer of one patient (Stripe Customer), created with the
  patient's first card order, so cards saved at checkout show in the patient's wallet.
- A **payment event** is one webhook event already processed: its id is the primary key, so a replay (or two
  deliveries of one event at the same moment) is processed once.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import BigInteger, Enum, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow

# Stripe's ids are documented as strings of at most 255 characters.
STRIPE_ID = 255


class CardPaymentStatus(enum.StrEnum):
    awaiting = "awaiting"  # sent to the processor's payment page, not confirmed yet
    paid = "paid"
    failed = "failed"  # declined, or the payment page expired: the order is cancelled


class CardPayment(Base):
    __tablename__ = "card_payments"
    __table_args__ = (Index("ix_card_payments_intent", "payment_intent_id"),)

    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), primary_key=True)
    patient_id: Mapped[str] = mapped_column(String(36), index=True)
    gateway: Mapped[str] = mapped_column(String(32))
    checkout_session_id: Mapped[str] = mapped_column(String(STRIPE_ID), unique=True)
    payment_intent_id: Mapped[str | None] = mapped_column(String(STRIPE_ID), default=None)
    checkout_url: Mapped[str] = mapped_column(String(2048), default="")
    amount: Mapped[int] = mapped_column(BigInteger)  # cents
    currency: Mapped[str] = mapped_column(String(3), default="usd")
    status: Mapped[CardPaymentStatus] = mapped_column(
        Enum(CardPaymentStatus, native_enum=False, length=16), default=CardPaymentStatus.awaiting
    )
    failure_reason: Mapped[str] = mapped_column(String(200), default="")
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    paid_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class PaymentCustomer(Base):
    __tablename__ = "payment_customers"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    gateway: Mapped[str] = mapped_column(String(32))
    customer_id: Mapped[str] = mapped_column(String(STRIPE_ID), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PaymentEvent(Base):
    __tablename__ = "payment_events"

    id: Mapped[str] = mapped_column(String(STRIPE_ID), primary_key=True)  # the processor's event id
    gateway: Mapped[str] = mapped_column(String(32))
    type: Mapped[str] = mapped_column(String(100))
    order_id: Mapped[str | None] = mapped_column(String(36), default=None)  # the order it changed, if any
    received_at: Mapped[datetime] = mapped_column(default=utcnow)


# ---- read schemas ------------------------------------------------------------------------------
class SavedCardRead(BaseModel):
    """A card the patient saved with the processor (never its number: the brand and last four digits)."""

    model_config = ConfigDict(frozen=True)

    id: str  # the processor's payment method id
    brand: str
    last4: str
    exp_month: int
    exp_year: int


class PaymentOptionsRead(BaseModel):
    """How orders are paid here, for screens: the gateway's name and label, whether the patient pays online
    when placing an order, and whether cards can be kept on file."""

    model_config = ConfigDict(frozen=True)

    gateway: str
    label: str
    pays_online: bool
    cards_on_file: bool
