"""The sign-up waitlist (SPEC §1): with SIGNUPS=waitlist, /register puts an e-mail address here; an owner or
admin approves it, which invites the person to finish signing up."""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Enum, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column
from models.identity import as_utc


class WaitlistStatus(enum.StrEnum):
    pending = "pending"
    approved = "approved"


class WaitlistEntry(Base):
    __tablename__ = "waitlist_entries"

    id: Mapped[str] = id_column()
    email: Mapped[str] = mapped_column(String(320), unique=True)  # lower-cased
    name: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[WaitlistStatus] = mapped_column(
        Enum(WaitlistStatus, native_enum=False, length=16), default=WaitlistStatus.pending, index=True
    )
    created_at: Mapped[datetime] = created_at_column()
    approved_at: Mapped[datetime | None] = mapped_column(default=None)
    approved_by: Mapped[str | None] = mapped_column(String(36), default=None)  # the approver's user id


class WaitlistEntryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    email: str
    name: str
    status: WaitlistStatus
    created_at: datetime
    approved_at: datetime | None = None
    approved_by: str | None = None

    @classmethod
    def of(cls, row: WaitlistEntry) -> WaitlistEntryRead:
        return cls(
            id=row.id,
            email=row.email,
            name=row.name or "",
            status=row.status,
            created_at=as_utc(row.created_at),
            approved_at=as_utc(row.approved_at),
            approved_by=row.approved_by,
        )
