"""Visit disputes (issue 29, item 3): a patient's "Report a problem with this visit" while its earning is still
pending, and how payments staff resolved it (a refund in full or in part, or a rejection with a note).

While a visit has an open dispute the ledger's release job leaves its earning pending
(app/services/ledger/_release.py). At most one open dispute per visit: a partial unique index says so, so two
reports at once cannot both land. The staff queue reads (status, opened_at) through its own index.
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import BigInteger, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow


class DisputeReason(enum.StrEnum):
    no_show = "no_show"
    cut_short = "cut_short"
    not_as_booked = "not_as_booked"
    wrong_amount = "wrong_amount"
    other = "other"

    @property
    def label(self) -> str:
        return REASON_LABELS[self]


REASON_LABELS = {
    DisputeReason.no_show: "The provider did not come",
    DisputeReason.cut_short: "The visit was cut short or late",
    DisputeReason.not_as_booked: "The service was not what was booked",
    DisputeReason.wrong_amount: "I was charged the wrong amount",
    DisputeReason.other: "Something else",
}


class DisputeStatus(enum.StrEnum):
    open = "open"
    refunded = "refunded"  # in full
    partially_refunded = "partially_refunded"
    rejected = "rejected"


class DisputeOutcome(enum.StrEnum):
    """What payments staff decide (the status it leads to is DisputeStatus)."""

    refund = "refund"
    partial_refund = "partial_refund"
    reject = "reject"


OUTCOME_STATUS = {
    DisputeOutcome.refund: DisputeStatus.refunded,
    DisputeOutcome.partial_refund: DisputeStatus.partially_refunded,
    DisputeOutcome.reject: DisputeStatus.rejected,
}


class Dispute(Base):
    __tablename__ = "visit_disputes"
    __table_args__ = (
        Index(
            "uq_visit_disputes_one_open",
            "appointment_id",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
        Index("ix_visit_disputes_appointment", "appointment_id", "opened_at"),
        Index("ix_visit_disputes_queue", "status", "opened_at"),
    )

    id: Mapped[str] = id_column()
    appointment_id: Mapped[str] = mapped_column(ForeignKey("appointments.id", ondelete="CASCADE"))
    patient_id: Mapped[str] = mapped_column(String(36))
    provider_id: Mapped[str] = mapped_column(String(36))
    reason: Mapped[str] = mapped_column(String(32))  # a DisputeReason
    details: Mapped[str] = mapped_column(Text)  # the patient's words: never shown to the provider
    status: Mapped[str] = mapped_column(String(24), default=DisputeStatus.open.value)  # a DisputeStatus
    refunded_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    resolution_note: Mapped[str] = mapped_column(String(500), default="")
    resolved_by: Mapped[str | None] = mapped_column(String(36), default=None)
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(default=None)


class DisputeRead(BaseModel):
    """A dispute as the patient and payments staff read it."""

    model_config = ConfigDict(frozen=True)

    id: str
    appointment_id: str
    reason: DisputeReason
    reason_label: str
    details: str
    status: DisputeStatus
    refunded: Decimal
    resolution_note: str
    opened_at: datetime
    resolved_at: datetime | None


class VisitDisputeRead(BaseModel):
    """The patient's view of one visit: its latest dispute, and whether a problem can be reported now."""

    model_config = ConfigDict(frozen=True)

    appointment_id: str
    can_report: bool
    window_ends_at: datetime | None
    dispute: DisputeRead | None


class DisputeQueueItem(BaseModel):
    """A row of the staff queue."""

    model_config = ConfigDict(frozen=True)

    dispute: DisputeRead
    patient_name: str
    provider_name: str
    service_name: str
    visit_at: datetime
    refundable: Decimal  # what is left to refund of the visit now


class DisputeQueueRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[DisputeQueueItem]
    total: int
    page: int
    pages: int
