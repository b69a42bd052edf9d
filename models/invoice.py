"""Invoices (issue 14 part 8): staff bill an organization (a name, a billing e-mail, an address) or a patient
(a user account) for line items, due on a date.

Status: `draft` (editable) → `sent` (e-mailed with its PDF) → `paid` (the payment recorded and posted to the
ledger), or `void` from draft or sent (with a reason). An invoice's number, INV-YYYY-NNNNN, is allocated
when it is created from `invoice_counters` (one row per year, incremented by one atomic upsert: concurrent
creators wait for each other's row and never share a number; the unique index on `number` says so again).
Money in integer cents; a line's amount is quantity × unit price, the invoice's total the sum of its lines
(no taxes: none of the platform's services is taxed here).
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import BigInteger, CheckConstraint, Enum, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow

MAX_LINES = 50
MAX_DESCRIPTION = 200
MAX_QUANTITY = 10_000
MAX_UNIT_PRICE_CENTS = 100_000_000  # $1,000,000.00
MAX_NAME = 200
MAX_EMAIL = 320
MAX_ADDRESS = 500
MAX_NOTES = 1_000
MAX_REASON = 500
MAX_REFERENCE = 100


class InvoiceStatus(enum.StrEnum):
    draft = "draft"
    sent = "sent"
    paid = "paid"
    void = "void"


class RecipientKind(enum.StrEnum):
    organization = "organization"
    patient = "patient"


class PaymentMethod(enum.StrEnum):
    bank_transfer = "bank_transfer"
    card = "card"
    check = "check"
    cash = "cash"
    other = "other"


def _enum(kind: type[enum.Enum]) -> Enum:
    return Enum(kind, native_enum=False, length=16)


class InvoiceCounter(Base):
    __tablename__ = "invoice_counters"

    year: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    last: Mapped[int] = mapped_column(Integer, default=0)


class Invoice(Base):
    __tablename__ = "invoices"
    __table_args__ = (
        Index("ix_invoices_status_created", "status", "created_at"),
        Index("ix_invoices_created", "created_at"),
        Index("ix_invoices_patient_status", "patient_id", "status"),
        CheckConstraint("total_cents >= 0", name="total_not_negative"),
    )

    id: Mapped[str] = id_column()
    number: Mapped[str] = mapped_column(String(16), unique=True)  # INV-2026-00042
    status: Mapped[InvoiceStatus] = mapped_column(_enum(InvoiceStatus), default=InvoiceStatus.draft)
    recipient_kind: Mapped[RecipientKind] = mapped_column(_enum(RecipientKind))
    patient_id: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    recipient_name: Mapped[str] = mapped_column(String(MAX_NAME))
    recipient_email: Mapped[str] = mapped_column(String(MAX_EMAIL))
    recipient_address: Mapped[str] = mapped_column(String(MAX_ADDRESS), default="")
    # Lower-cased number, name and e-mail: the staff list's search (a trigram index on PostgreSQL).
    search_text: Mapped[str] = mapped_column(String(600), default="")
    due_on: Mapped[date] = mapped_column()
    notes: Mapped[str] = mapped_column(String(MAX_NOTES), default="")
    total_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    paid_at: Mapped[datetime | None] = mapped_column(default=None)
    payment_method: Mapped[str] = mapped_column(String(16), default="")
    payment_reference: Mapped[str] = mapped_column(String(MAX_REFERENCE), default="")
    ledger_entry_id: Mapped[str | None] = mapped_column(String(36), default=None)  # the payment's entry
    voided_at: Mapped[datetime | None] = mapped_column(default=None)
    void_reason: Mapped[str] = mapped_column(String(MAX_REASON), default="")


class InvoiceLine(Base):
    __tablename__ = "invoice_lines"
    __table_args__ = (
        Index("ix_invoice_lines_invoice", "invoice_id", "position"),
        CheckConstraint("quantity > 0 AND unit_price_cents >= 0", name="line_positive"),
    )

    id: Mapped[str] = id_column()
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(String(MAX_DESCRIPTION))
    quantity: Mapped[int] = mapped_column(Integer)
    unit_price_cents: Mapped[int] = mapped_column(BigInteger)
    amount_cents: Mapped[int] = mapped_column(BigInteger)


# ---- schemas ------------------------------------------------------------------------------------
class InvoiceLineInput(BaseModel):
    """A line as staff type it (checked by the service, which explains what is wrong in words)."""

    description: str = ""
    quantity: int = 1
    unit_price_cents: int = 0


class InvoiceCreate(BaseModel):
    recipient_kind: RecipientKind
    patient_email: str = ""  # a patient recipient: their account's e-mail
    recipient_name: str = ""  # an organization's
    recipient_email: str = ""  # an organization's billing e-mail
    recipient_address: str = ""
    due_on: date
    notes: str = ""
    lines: list[InvoiceLineInput] = Field(default_factory=list)


class InvoiceUpdate(InvoiceCreate):
    pass


class InvoiceLineRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    position: int
    description: str
    quantity: int
    unit_price_cents: int
    amount_cents: int


class InvoiceRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    number: str
    status: InvoiceStatus
    recipient_kind: RecipientKind
    patient_id: str | None
    recipient_name: str
    recipient_email: str
    recipient_address: str
    due_on: date
    notes: str
    total_cents: int
    created_at: datetime
    sent_at: datetime | None
    paid_at: datetime | None
    payment_method: str
    payment_reference: str
    voided_at: datetime | None
    void_reason: str
    lines: list[InvoiceLineRead]


class InvoicePageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[InvoiceRead]
    total: int
    page: int
    page_size: int
