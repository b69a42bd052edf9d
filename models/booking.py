"""Orders, appointments and money movements (SPEC §3 transaction types, §4 order and transaction states).

- An **order** is one checkout: its appointments and its totals (subtotal, 5 % platform fee, total).
- An **appointment** is one visit of one provider for one service at one time and place. While a patient
  is checking out, the chosen slot is *held*: an appointment row in status `held` with `hold_expires_at`
  10 minutes ahead and no order yet. Placing the order turns the holds into `pending` appointments.
- The database refuses two live appointments (held ones included) of one provider whose busy time
  overlaps: busy time is [starts_at, busy_until), the visit plus the travel buffer after it. PostgreSQL
  enforces it with an exclusion constraint, SQLite with triggers (migration 0005). Expired holds are
  deleted by the booking service before it writes a provider's time.
- A **transaction** records money: a `booking` per appointment and one `fee` per order, `pending` until
  the visit is completed ("pay at visit"), `cancelled` when the visit is.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import CheckConstraint, Enum, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow
from models.catalog import MONEY, Price, ServiceLocation
from models.ledger import VisitPaymentRead
from models.provider import RatingRead


class OrderStatus(enum.StrEnum):
    pending = "pending"
    processing = "processing"
    shipped = "shipped"
    delivered = "delivered"
    cancelled = "cancelled"
    paid = "paid"
    refunded = "refunded"


class AppointmentStatus(enum.StrEnum):
    held = "held"  # a slot reserved during checkout, not booked yet
    pending = "pending"  # booked, waiting for the provider to confirm
    confirmed = "confirmed"
    in_progress = "in_progress"
    completed = "completed"
    cancelled = "cancelled"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").capitalize()


class TransactionType(enum.StrEnum):
    payout = "payout"
    booking = "booking"
    refund = "refund"
    deposit = "deposit"
    fee = "fee"
    adjustment = "adjustment"


class TransactionStatus(enum.StrEnum):
    pending = "pending"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"


def overlap_refused(error: Exception) -> bool:
    """Whether the database refused a row for the no-overlap rule: SQLite's trigger message, or PostgreSQL's
    exclusion violation (SQLSTATE 23P01)."""
    original = getattr(error, "orig", error)
    return getattr(original, "sqlstate", None) == "23P01" or "appointment_overlap" in str(original)


def lost_a_race(error: Exception) -> bool:
    """The no-overlap refusal, or PostgreSQL ending a transaction that waited on a competing booking
    (deadlock 40P01, serialization failure 40001): to the patient, all three mean the time was taken."""
    original = getattr(error, "orig", error)
    return overlap_refused(error) or getattr(original, "sqlstate", None) in {"40P01", "40001"}


def _enum(kind: type[enum.Enum]) -> Enum:
    return Enum(kind, native_enum=False, length=16)


class Order(Base):
    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_patient_created", "patient_id", "created_at"),)

    id: Mapped[str] = id_column()
    # A short code people can read out on the phone ("MV-7K3Q9P").
    number: Mapped[str] = mapped_column(String(16), unique=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    status: Mapped[OrderStatus] = mapped_column(_enum(OrderStatus), default=OrderStatus.pending)
    subtotal: Mapped[Decimal] = mapped_column(MONEY)
    platform_fee: Mapped[Decimal] = mapped_column(MONEY)
    total: Mapped[Decimal] = mapped_column(MONEY)
    payment_method: Mapped[str] = mapped_column(String(32))  # the PaymentGateway's name
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Appointment(Base):
    __tablename__ = "appointments"
    __table_args__ = (
        Index("ix_appointments_provider_starts", "provider_id", "starts_at"),
        Index("ix_appointments_patient_starts", "patient_id", "starts_at"),
        Index("ix_appointments_status_starts", "status", "starts_at"),
        # Analytics: each patient's first completed visit, read from the index alone.
        Index("ix_appointments_status_patient_starts", "status", "patient_id", "starts_at"),
        Index("ix_appointments_order", "order_id"),
        # Staff appointments' filters (issue 15): metro (the visit's city and state) and service line.
        Index("ix_appointments_metro_starts", "state", "city", "starts_at"),
        Index("ix_appointments_service_starts", "service_id", "starts_at"),
        CheckConstraint("starts_at < ends_at AND ends_at <= busy_until", name="span"),
        CheckConstraint("price >= 0", name="price_not_negative"),
    )

    id: Mapped[str] = id_column()
    order_id: Mapped[str | None] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), default=None)
    patient_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="RESTRICT"))
    service_id: Mapped[str] = mapped_column(ForeignKey("services.id", ondelete="RESTRICT"))
    status: Mapped[AppointmentStatus] = mapped_column(_enum(AppointmentStatus))
    starts_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime] = mapped_column()
    busy_until: Mapped[datetime] = mapped_column()  # ends_at plus the travel buffer
    hold_expires_at: Mapped[datetime | None] = mapped_column(default=None)
    location: Mapped[ServiceLocation] = mapped_column(Enum(ServiceLocation, native_enum=False, length=16))
    address_line: Mapped[str] = mapped_column(String(200), default="")
    city: Mapped[str] = mapped_column(String(100), default="")
    state: Mapped[str] = mapped_column(String(2), default="")
    zip_code: Mapped[str] = mapped_column(String(5), default="")
    notes: Mapped[str] = mapped_column(Text, default="")  # the patient's intake notes
    price: Mapped[Decimal] = mapped_column(MONEY)  # charged (sale applied)
    original_price: Mapped[Decimal] = mapped_column(MONEY)
    confirmed_at: Mapped[datetime | None] = mapped_column(default=None)
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_at: Mapped[datetime | None] = mapped_column(default=None)
    cancelled_by: Mapped[str] = mapped_column(String(16), default="")  # patient, provider or staff
    cancel_reason: Mapped[str] = mapped_column(String(500), default="")
    reminder_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Transaction(Base):
    __tablename__ = "transactions"
    __table_args__ = (
        Index("ix_transactions_order", "order_id"),
        Index("ix_transactions_appointment", "appointment_id"),
        Index("ix_transactions_user_created", "user_id", "created_at"),
    )

    id: Mapped[str] = id_column()
    order_id: Mapped[str | None] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), default=None)
    appointment_id: Mapped[str | None] = mapped_column(
        ForeignKey("appointments.id", ondelete="SET NULL"), default=None
    )
    user_id: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    type: Mapped[TransactionType] = mapped_column(_enum(TransactionType))
    status: Mapped[TransactionStatus] = mapped_column(
        _enum(TransactionStatus), default=TransactionStatus.pending
    )
    amount: Mapped[Decimal] = mapped_column(MONEY)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    description: Mapped[str] = mapped_column(String(200), default="")
    gateway: Mapped[str] = mapped_column(String(32), default="")
    gateway_reference: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = created_at_column()
    settled_at: Mapped[datetime | None] = mapped_column(default=None)


# ---- read schemas ------------------------------------------------------------------------------
class AppointmentRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    order_id: str | None
    order_number: str | None
    patient_id: str
    patient_name: str
    provider_id: str
    provider_name: str
    provider_user_id: str | None
    service_id: str
    service_slug: str
    service_name: str
    status: AppointmentStatus
    starts_at: datetime
    ends_at: datetime
    hold_expires_at: datetime | None
    location: ServiceLocation
    address_line: str
    city: str
    state: str
    zip_code: str
    notes: str
    # The provider's read of a visit closed longer than VISIT_DETAILS_VISIBLE_HOURS ago: address and notes
    # were left out (appointments._policy.provider_sees_details).
    details_hidden: bool = False
    price: Decimal
    original_price: Decimal
    cancelled_by: str
    cancel_reason: str
    reviewed: bool = False  # the patient has reviewed this visit
    # Why the patient may not cancel or reschedule it now (None: they may); see appointments._policy.
    change_refusal: str | None = None
    # From when its provider may start it (an hour before it starts); it is completed not before starts_at.
    start_opens_at: datetime | None = None
    # Its money (the ledger's): paid at booking or at the visit, what was collected in person, what is due.
    payment: VisitPaymentRead | None = None


class VisitSummary(BaseModel):
    """A patient's next open visit and latest completed one (either may be None)."""

    model_config = ConfigDict(frozen=True)

    next_visit: AppointmentRead | None
    last_completed: AppointmentRead | None


class TransactionRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    order_id: str | None
    appointment_id: str | None
    type: TransactionType
    status: TransactionStatus
    amount: Decimal
    currency: str
    description: str
    created_at: datetime
    settled_at: datetime | None


class OrderRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    number: str
    status: OrderStatus
    subtotal: Decimal
    platform_fee: Decimal
    total: Decimal
    payment_method: str
    created_at: datetime
    appointments: list[AppointmentRead]
    transactions: list[TransactionRead]
    # Card payments (PAYMENT_GATEWAY=stripe): "awaiting", "paid" or "failed" (models/payment.py), empty for
    # orders paid at the visit; while awaiting, the address of the page the patient pays on.
    payment_status: str = ""
    payment_url: str = ""
    # The 911 / 988 message for the patient when their intake notes have a red flag (issue 27); never stored.
    safety_message: str = ""


class CheckoutLine(BaseModel):
    """One visit to book: the hold taken for it, the cart item it came from (its SPEC id, empty when the
    visit was not in the cart), and where it happens."""

    model_config = ConfigDict(frozen=True)

    hold_id: str
    cart_item_id: str = ""
    location: ServiceLocation
    address_line: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    notes: str = ""


class ProviderTimes(BaseModel):
    """A provider who can do the visit, what it costs with them and when they can start it that day."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    name: str
    rating: RatingRead
    price: Price
    times: list[datetime]  # UTC, ascending


class CheckoutOptions(BaseModel):
    """What a checkout screen offers for one visit on one day of the visitor's calendar."""

    model_config = ConfigDict(frozen=True)

    service_slug: str
    service_name: str
    duration_minutes: int
    location: ServiceLocation
    zip_code: str
    day: date
    time_zone: str
    providers: list[ProviderTimes]  # best rated first, at most MAX_LISTED
    first_available: list[datetime]  # every time at least one eligible provider can start
