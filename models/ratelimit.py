"""Rate-limit counters shared by every worker and host on PostgreSQL (written by app/ratelimit.py with SQL)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base


class RateLimitCounter(Base):
    """One fixed window of one `scope:key`: when it opened and how many hits it has seen."""

    __tablename__ = "rate_limit_counters"

    bucket: Mapped[str] = mapped_column(String(255), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(index=True)
    hits: Mapped[int] = mapped_column(Integer)
