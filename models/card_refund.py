"""Refunds to the card (issue 29, item 3): one row per refund of a visit or a store order paid by card that
was sent back to the patient's card (PAYMENT_GATEWAY=stripe). A visit's names its order (`order_id`) and
visit; a store order's names the store order (`store_order_id`) and, when it was paid with visits on one
checkout (the visit order's card payment), that visit order too; paid on its own, no visit order.

Its id is the id of the visit's `refund` transaction row (the SPEC's readable view), and the idempotency key
of the Stripe refund is made from it, so a retried request never refunds twice. It keeps the Stripe refund's
id and charge, the amount in cents and where Stripe says it stands: `pending` until Stripe reports it
`succeeded`, or `failed` (the card could not take it back: the money came back to the platform, and the
ledger credits it to the patient's wallet instead).
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import BigInteger, Enum, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow
from models.payment import STRIPE_ID
from models.receipt import VisitRefundRead


class CardRefundStatus(enum.StrEnum):
    pending = "pending"  # asked for; Stripe has not said it reached the card yet
    succeeded = "succeeded"
    failed = "failed"  # Stripe could not return it to the card: credited to the wallet instead


class CardRefund(Base):
    __tablename__ = "card_refunds"
    __table_args__ = (
        Index("ix_card_refunds_order", "order_id"),
        Index("ix_card_refunds_store_order", "store_order_id"),
    )

    # The refund's transaction row (type refund, gateway stripe).
    id: Mapped[str] = mapped_column(ForeignKey("transactions.id", ondelete="CASCADE"), primary_key=True)
    order_id: Mapped[str | None] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), default=None)
    store_order_id: Mapped[str | None] = mapped_column(
        ForeignKey("store_orders.id", ondelete="CASCADE"), default=None
    )
    appointment_id: Mapped[str | None] = mapped_column(String(36), default=None)
    patient_id: Mapped[str] = mapped_column(String(36))
    payment_intent_id: Mapped[str] = mapped_column(String(STRIPE_ID))
    refund_id: Mapped[str | None] = mapped_column(String(STRIPE_ID), unique=True, default=None)
    charge_id: Mapped[str] = mapped_column(String(STRIPE_ID), default="")
    amount: Mapped[int] = mapped_column(BigInteger)  # cents
    status: Mapped[CardRefundStatus] = mapped_column(
        Enum(CardRefundStatus, native_enum=False, length=16), default=CardRefundStatus.pending
    )
    failure_reason: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class StoreOrderMoneyRead(BaseModel):
    """A store order's money as payments staff see it (app.services.store.get_store_order_money): its total,
    whether it was paid (by card, or on delivery), what was refunded (each refund: amount, when, by whom,
    why, to the card or as wallet credit) and what is left to refund (of it, to the card)."""

    model_config = ConfigDict(frozen=True)

    store_order_id: str
    number: str
    patient_id: str
    total: Decimal
    paid: bool
    paid_by_card: bool
    pay_on_delivery: bool
    refunded: Decimal
    refundable: Decimal
    card_refundable: Decimal
    refunds: list[VisitRefundRead]


class RefundableRead(BaseModel):
    """One of a patient's recent visits or store orders payments staff may refund (the help desk's chooser):
    `kind` "visit" (`id` the visit's) or "store_order" (`id` the store order's), what it is, when, and what
    is left to refund."""

    model_config = ConfigDict(frozen=True)

    kind: str
    id: str
    label: str
    at: datetime
    refundable: Decimal
