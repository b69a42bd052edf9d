"""The mail outbox: every e-mail the platform sends is stored here, then delivered over SMTP if configured."""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, Enum, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column


class OutboxStatus(enum.StrEnum):
    queued = "queued"  # stored; no SMTP server configured (outbox only)
    sent = "sent"
    failed = "failed"


class OutboxMessage(Base):
    __tablename__ = "outbox_messages"

    id: Mapped[str] = id_column()
    sender: Mapped[str] = mapped_column(String(320))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(String(998))
    html: Mapped[str] = mapped_column(Text)
    status: Mapped[OutboxStatus] = mapped_column(
        Enum(OutboxStatus, native_enum=False, length=16), default=OutboxStatus.queued, index=True
    )
    error: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = created_at_column()
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    # Set on messages holding a one-time code or link that were not delivered: the body is removed then.
    redact_after: Mapped[datetime | None] = mapped_column(default=None, index=True)


class OutboxMessageRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    sender: str
    recipients: list[str]
    subject: str
    html: str
    status: OutboxStatus
    error: str | None
    created_at: datetime
    sent_at: datetime | None
