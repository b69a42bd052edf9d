"""Automation (issue 15 part 4): the n8n webhook integration, its outbox of event deliveries and each
delivery's attempts.

- `automation_integration` holds one row (id "default"): the webhook URL, whether a test has connected it
  (SPEC §4: disconnected until a URL passes a test), the Standard Webhooks signing secret and the optional
  Header Auth token (both sealed at rest, app/auth/sealed.py), the secret being rotated out (still signed
  with until `previous_secret_until`), per-event-type switches and the per-type opt-in to clinical text.
- `automation_deliveries` is the durable outbox: a row is written in the same transaction as the change it
  reports (so a rolled-back change never leaves one), then the periodic job sends it and retries it on a
  schedule. `body` is the exact JSON sent (signed as it is, resent byte for byte on a retry).
- `automation_attempts` is the delivery log: every request made (or simulated), its answer and duration.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, Boolean, Enum, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_URL = 2048
MAX_HEADER_NAME = 64
MAX_HEADER_TOKEN = 512
MAX_EXCERPT = 500


class DeliveryStatus(enum.StrEnum):
    pending = "pending"  # waiting for its next attempt
    delivered = "delivered"  # a 2xx answer
    failed = "failed"  # every scheduled attempt failed, or the endpoint answered 410 Gone
    simulated = "simulated"  # simulation mode: no request was made


class AttemptTrigger(enum.StrEnum):
    scheduled = "scheduled"  # the periodic job
    redeliver = "redeliver"  # an administrator's Redeliver
    test = "test"  # Test connection


class AutomationIntegration(Base):
    __tablename__ = "automation_integration"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, default="default")
    webhook_url: Mapped[str] = mapped_column(String(MAX_URL), default="")
    connected: Mapped[bool] = mapped_column(Boolean, default=False)
    connected_at: Mapped[datetime | None] = mapped_column(default=None)
    # Why the server disconnected it by itself ("The endpoint answered 410 Gone"), shown on the screen.
    disabled_reason: Mapped[str] = mapped_column(String(200), default="")
    simulation: Mapped[bool] = mapped_column(Boolean, default=False)
    secret_sealed: Mapped[str] = mapped_column(Text, default="")
    previous_secret_sealed: Mapped[str] = mapped_column(Text, default="")
    previous_secret_until: Mapped[datetime | None] = mapped_column(default=None)
    header_name: Mapped[str] = mapped_column(String(MAX_HEADER_NAME), default="")
    header_token_sealed: Mapped[str] = mapped_column(Text, default="")
    disabled_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    detailed_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class AutomationDelivery(Base):
    __tablename__ = "automation_deliveries"

    id: Mapped[str] = id_column()
    message_id: Mapped[str] = mapped_column(String(40), unique=True)  # webhook-id: "msg_<hex>"
    event_type: Mapped[str] = mapped_column(String(64), index=True)
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[DeliveryStatus] = mapped_column(
        Enum(DeliveryStatus, native_enum=False, length=16), default=DeliveryStatus.pending, index=True
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    # A worker sending it holds it until then (several workers run the job; none sends it twice at once).
    claimed_until: Mapped[datetime | None] = mapped_column(default=None)
    last_status_code: Mapped[int | None] = mapped_column(Integer, default=None)
    # The next attempt was asked for by an administrator (Redeliver): it is tried once, not rescheduled.
    manual: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = created_at_column()
    finished_at: Mapped[datetime | None] = mapped_column(default=None)


class AutomationAttempt(Base):
    __tablename__ = "automation_attempts"

    id: Mapped[str] = id_column()
    delivery_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("automation_deliveries.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    trigger: Mapped[AttemptTrigger] = mapped_column(Enum(AttemptTrigger, native_enum=False, length=16))
    url: Mapped[str] = mapped_column(String(MAX_URL), default="")
    status_code: Mapped[int | None] = mapped_column(Integer, default=None)
    ok: Mapped[bool] = mapped_column(Boolean, default=False)
    simulated: Mapped[bool] = mapped_column(Boolean, default=False)
    error: Mapped[str] = mapped_column(String(200), default="")
    response_excerpt: Mapped[str] = mapped_column(String(MAX_EXCERPT), default="")
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    attempted_at: Mapped[datetime] = created_at_column()


# ---- reads -----------------------------------------------------------------------------------------
class EventTypeRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str  # "appointment.created"
    label: str  # "Created"
    group: str  # "appointment"
    enabled: bool
    detailed: bool  # clinical text included (the owner opted in)
    has_details: bool  # whether this type has any clinical text to include


class IntegrationRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    webhook_url: str
    connected: bool
    connected_at: datetime | None
    disabled_reason: str
    simulation: bool
    has_secret: bool
    secret_hint: str  # "whsec_…AbCd": enough to tell two secrets apart, never the secret
    rotating_until: datetime | None
    header_name: str
    has_header_token: bool
    event_types: list[EventTypeRead]
    can_rotate: bool  # owners only: rotating the secret breaks receivers that were not told


class RevealedSecretRead(BaseModel):
    """A freshly made or rotated secret, shown once to the administrator who asked for it."""

    model_config = ConfigDict(frozen=True)

    secret: str
    previous_valid_until: datetime | None


class TestResultRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    outcome: str  # "connected", "failed" (non-2xx) or "error" (network)
    message: str  # SPEC §8's words
    status_code: int | None
    detail: str


class AttemptRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, frozen=True)

    id: str
    number: int
    trigger: AttemptTrigger
    status_code: int | None
    ok: bool
    simulated: bool
    error: str
    response_excerpt: str
    duration_ms: int
    attempted_at: datetime


class DeliveryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    message_id: str
    event_type: str
    status: DeliveryStatus
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    created_at: datetime
    finished_at: datetime | None


class DeliveryDetailRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    delivery: DeliveryRead
    payload: dict[str, Any]
    attempts: list[AttemptRead]


class DeliveryPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[DeliveryRead]
    page: int
    pages: int
    total: int


class WorkflowTemplateRead(BaseModel):
    """SPEC §3's workflow template: id, name, description, difficulty and its nodes (counted)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    description: str
    difficulty: str  # easy, medium or advanced
    nodes: int
    webhook_path: str  # the path its Webhook trigger listens on in n8n
