"""What a receipt and a visit's money read as (app/services/receipts): an order's visits, its credit lines
(visits cancelled before anything was collected, refunds) and the totals computed once from them, and, for
payments staff, what a visit was charged, what was refunded (when, by whom, why) and what is left to refund.
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict

from models.booking import AppointmentStatus, OrderStatus


class CreditKind(enum.StrEnum):
    cancelled = "cancelled"  # a visit (or store order) cancelled before its money was collected
    refund = "refund"  # money given back (to the card, or as wallet credit): a credit note


class ReceiptProductRead(BaseModel):
    """A product of the store order placed with the visits from one checkout (its line on the receipt)."""

    model_config = ConfigDict(frozen=True)

    name: str
    quantity: int
    unit_price: Decimal
    line_total: Decimal


class ReceiptVisitRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    appointment_id: str
    service_name: str
    provider_name: str
    starts_at: datetime
    status: AppointmentStatus
    price: Decimal
    fee: Decimal  # the visit's share of the order's platform fee (the shares add up to the order's fee)


class ReceiptCreditRead(BaseModel):
    """A credit line: 'Refunded to card — <service>, <visit date>: −$X', with the day it was refunded (`at`;
    amount is positive: what it takes off). A store order's line names the store order as its service."""

    model_config = ConfigDict(frozen=True)

    kind: CreditKind
    appointment_id: str
    service_name: str
    visit_starts_at: datetime
    at: datetime
    amount: Decimal
    to_card: bool = False  # a refund back to the card (else as wallet credit)
    pending: bool = False  # a card refund the bank has not confirmed yet

    @property
    def label(self) -> str:
        if self.kind is not CreditKind.refund:
            return "Cancelled"
        label = "Refunded to card" if self.to_card else "Refunded as wallet credit"
        return f"{label} (pending)" if self.pending else label


class ReceiptRead(BaseModel):
    """An order's receipt. `charged` is what the order was placed for (subtotal + fee); `total` is `charged`
    less the credit lines; `paid` what was collected (at checkout or at the visits); `refunded` what went back
    to the patient's wallet; `due` = total − (paid − refunded), what is still to pay. Every screen and the PDF
    show these figures, never their own sums."""

    model_config = ConfigDict(frozen=True)

    order_id: str
    number: str
    status: OrderStatus
    payment_method: str
    paid_ahead: bool  # collected at checkout (a card payment), not at the visits
    created_at: datetime
    visits: list[ReceiptVisitRead]
    credits: list[ReceiptCreditRead]
    subtotal: Decimal
    platform_fee: Decimal
    charged: Decimal
    credited: Decimal
    total: Decimal
    paid: Decimal
    refunded: Decimal
    due: Decimal
    # Of `paid`: what wallet credit paid at checkout (issue 29 item 3; the rest was paid by card or at visits).
    credit_applied: Decimal = Decimal("0")
    # The store order placed with the visits from one checkout (issue 29 item 4), if any: its products and
    # money lines. `charged`, `credits`, `total`, `paid`, `refunded` and `due` then cover both: one total.
    store_number: str = ""
    products: list[ReceiptProductRead] = []
    store_subtotal: Decimal = Decimal("0")
    shipping: Decimal = Decimal("0")
    tax: Decimal = Decimal("0")
    store_fee: Decimal = Decimal("0")
    store_total: Decimal = Decimal("0")

    @property
    def visits_total(self) -> Decimal:
        return self.subtotal + self.platform_fee

    @property
    def net_paid(self) -> Decimal:
        return self.paid - self.refunded


class VisitRefundRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    amount: Decimal
    at: datetime
    by_name: str  # "" when no person is recorded (a cancellation's automatic refund by the patient)
    reason: str
    description: str
    # Where it went (issue 29 item 3): back to the card it was paid with, or as wallet credit; a card
    # refund's status as Stripe reports it (pending, succeeded, failed: then credited to the wallet instead).
    to_card: bool = False
    card_status: str = ""
    failure_reason: str = ""


class VisitMoneyRead(BaseModel):
    """A visit's money as payments staff see it in the visit details."""

    model_config = ConfigDict(frozen=True)

    appointment_id: str
    patient_id: str
    order_number: str | None
    status: AppointmentStatus
    charged: Decimal  # price + its share of the fee
    refunded: Decimal
    refundable: Decimal  # what refund_visit may still refund (0 unless the visit is completed)
    paid_by_card: bool  # its order was paid by card at checkout (a refund may go back to the card)
    refunds: list[VisitRefundRead]
    due: Decimal = Decimal("0.00")  # pay at visit: what is still to be collected in person
    card_refundable: Decimal = Decimal("0.00")  # of `refundable`, what may go back to the card (0: none)
