"""The admin console (issue 15 part 3): the periodic jobs' last runs (the one table it adds, migration 0033)
and the read schemas of its screens: accounts, the mail outbox, unknown paths and the system's health."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.account import Role
from models.base import Base
from models.mail import OutboxStatus


class JobRun(Base):
    """The last run of one periodic job (medivisit/periodic.py), written by whichever worker ran it: when
    it ran, whether it worked, what it did or why it failed, and how often it is meant to run."""

    __tablename__ = "job_runs"

    job: Mapped[str] = mapped_column(String(120), primary_key=True)  # the job's description
    every_seconds: Mapped[float] = mapped_column(Float)
    last_run_at: Mapped[datetime] = mapped_column()
    last_ok: Mapped[bool] = mapped_column()
    last_count: Mapped[int] = mapped_column(Integer, default=0)
    last_success_at: Mapped[datetime | None] = mapped_column(default=None)
    last_failure_at: Mapped[datetime | None] = mapped_column(default=None)
    last_error: Mapped[str] = mapped_column(Text, default="")


# ---- accounts ---------------------------------------------------------------------------------------
class UserSummaryRead(BaseModel):
    """One row of the accounts list."""

    model_config = ConfigDict(frozen=True)

    id: str
    email: str
    name: str
    role: Role
    is_master_admin: bool
    created_at: datetime
    last_sign_in_at: datetime | None
    disabled: bool


class UserPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    users: list[UserSummaryRead]
    total: int
    page: int
    page_size: int


class UserDetailRead(BaseModel):
    """One account as the console shows it, with what the viewing administrator may change on it."""

    model_config = ConfigDict(frozen=True)

    id: str
    email: str
    name: str
    role: Role
    is_master_admin: bool
    is_vip: bool
    has_free_access: bool
    owner_email: bool  # the flags come from OWNER_EMAILS and cannot be switched off here
    created_at: datetime
    last_sign_in_at: datetime | None
    email_confirmed_at: datetime | None
    disabled: bool
    active_sessions: int
    is_self: bool
    roles_grantable: list[Role]  # the roles the viewer may give this account (empty: none)
    may_manage: bool  # flags, disabling and forced sign-out
    why_not: str = ""  # when the viewer may change nothing on it: why, in words (empty otherwise)


# ---- the mail outbox --------------------------------------------------------------------------------
class OutboxRowRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    recipients: list[str]
    subject: str
    status: OutboxStatus
    error: str
    created_at: datetime
    sent_at: datetime | None


class OutboxPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    messages: list[OutboxRowRead]
    total: int
    page: int
    page_size: int
    smtp_configured: bool


class OutboxBodyRead(BaseModel):
    """A message's text with every link and one-time code replaced (redacted on the server)."""

    model_config = ConfigDict(frozen=True)

    id: str
    subject: str
    text: str


# ---- unknown paths ----------------------------------------------------------------------------------
class UnknownPathRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    path: str
    hits: int
    first_seen: datetime
    last_seen: datetime


class UnknownPathPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    paths: list[UnknownPathRead]
    total: int
    page: int
    page_size: int


# ---- system health ----------------------------------------------------------------------------------
class JobRunRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    job: str
    every_seconds: float
    last_run_at: datetime
    last_ok: bool
    last_count: int
    last_success_at: datetime | None
    last_failure_at: datetime | None
    last_error: str
    overdue: bool  # no run for more than twice its interval (plus a minute)


class HealthRead(BaseModel):
    """Measured now, on this server process: nothing here is estimated."""

    model_config = ConfigDict(frozen=True)

    checked_at: datetime
    database_ok: bool
    database_kind: str  # sqlite, postgresql
    database_latency_ms: float | None
    database_revision: str  # the applied migration
    smtp_configured: bool
    mail_queued: int  # stored, not delivered (no SMTP server configured when they were sent)
    mail_failed_24h: int
    mail_sent_24h: int
    last_mail_failure: str
    jobs: list[JobRunRead]
    unknown_paths_24h: int
