"""Feature toggles (issue 15 item 3): what an administrator switched on or off at run time, by key. A key
with no row keeps the server's setting (the environment's default); app/flags.py holds each process's copy
and app/services/features the catalogue and the rules."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow


class FeatureSetting(Base):
    __tablename__ = "feature_settings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(36), default=None)  # user id


class FeatureRead(BaseModel):
    """One toggle as the console shows it: its current value and whether an administrator set it."""

    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    description: str
    kind: str  # switch, choice or date
    choices: list[tuple[str, str]]  # (value, label) for a choice
    value: Any  # bool, a choice's value, or an ISO date ("" for none)
    default: Any  # the server's setting
    overridden: bool
    updated_at: datetime | None
    updated_by_name: str | None
