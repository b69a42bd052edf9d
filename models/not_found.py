"""Unknown paths visitors asked for, counted so staff can fix broken links."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow

MAX_TRACKED_PATH = 512


class NotFoundPath(Base):
    __tablename__ = "not_found_paths"

    path: Mapped[str] = mapped_column(String(MAX_TRACKED_PATH), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer, default=1)
    first_seen: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(default=utcnow, index=True)
