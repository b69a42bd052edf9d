"""Bug reports sent from the Report Bug dialog."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column

NOT_LOGGED_IN = "Not logged in"


class BugReport(Base):
    __tablename__ = "bug_reports"

    id: Mapped[str] = id_column()
    email: Mapped[str] = mapped_column(String(320), index=True)
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text)
    user_id: Mapped[str] = mapped_column(String(64), default=NOT_LOGGED_IN)
    user_agent: Mapped[str] = mapped_column(String(512), default="")
    created_at: Mapped[datetime] = created_at_column()


class BugReportCreate(BaseModel):
    email: str
    title: str
    description: str


class BugReportRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    email: str
    title: str
    description: str
    user_id: str
    user_agent: str
    created_at: datetime
