"""Unsent form drafts (a new ticket, a reply, a review, visit notes), kept so typing survives a reconnect, a
server restart or a reconnect to another worker.

A draft belongs to its owner key, `user:<user id>` or `visitor:<mv_visitor cookie>`, decided on the server
from the connection's Principal (never sent by the browser), and to the form's key (e.g. `support:reply:<ticket
id>`). One row per owner and form; it expires `DRAFT_LIFETIME_DAYS` after its last change.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow

MAX_OWNER_KEY = 80
MAX_FORM_KEY = 120


class FormDraft(Base):
    __tablename__ = "form_drafts"
    __table_args__ = (UniqueConstraint("owner_key", "form_key", name="uq_form_drafts_owner_form"),)

    id: Mapped[str] = id_column()
    owner_key: Mapped[str] = mapped_column(String(MAX_OWNER_KEY), index=True)
    form_key: Mapped[str] = mapped_column(String(MAX_FORM_KEY))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)
