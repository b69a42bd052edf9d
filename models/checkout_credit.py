"""Wallet credit spent at checkout and the payment modes a patient may choose (issue 29, items 1 and 3).

`OrderCredit`: the wallet credit an order was paid with, in part or in full, taken from the patient's
`patient_credit` account when the order was placed (the ledger's `credit_spent` entry) and split over the
order's visits on their charges (`VisitCharge.credit`). `returned_at`: when it all went back to the wallet
(the order's card payment failed or expired); a cancelled visit gives back its own share through its
refund or `credit_returned` entry.

`PaymentModeRead` / `CheckoutMoneyRead`: what checkout offers: the modes the owners allow that work here
(card at booking only with a card gateway configured) and the wallet credit the patient may apply.
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow


class PaymentMode(enum.StrEnum):
    """How a patient pays a booked order (the gateway names orders carry in `payment_method`)."""

    card = "stripe"  # card at booking, on Stripe Checkout
    visit = "pay_at_visit"  # in person, at the visit


class OrderCredit(Base):
    __tablename__ = "order_credits"

    order_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    patient_id: Mapped[str] = mapped_column(String(36), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)  # cents of the order's total paid from wallet credit
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    returned_at: Mapped[datetime | None] = mapped_column(default=None)


class PaymentModeRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    mode: PaymentMode
    label: str
    description: str
    recommended: bool


class CheckoutMoneyRead(BaseModel):
    """The payment modes checkout offers (first: the default choice) and the patient's wallet credit."""

    model_config = ConfigDict(frozen=True)

    modes: list[PaymentModeRead]
    credit: Decimal
