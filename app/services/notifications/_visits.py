"""Visit notifications for the booking and appointment domains: one call per event, for any number of
visits and audiences (`notify_each`), worded by `_copy.visit_copy` in the time zone of the visit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.notifications._copy import Audience, visit_copy, visit_link
from app.services.notifications._delivery import Delivery, Message, notify_each
from models.notification import NotificationKind


@dataclass(frozen=True)
class VisitNote:
    """Tell `recipient` (the visit's `audience`) about the visit starting at `starts_at` in `time_zone`."""

    recipient: str | None
    audience: Audience
    appointment_id: str
    starts_at: datetime
    time_zone: str


async def notify_visits(
    *, session: AsyncSession, kind: NotificationKind, notes: Sequence[VisitNote], now: datetime | None = None
) -> Delivery:
    messages = []
    for note in notes:
        if note.recipient:
            title, body = visit_copy(kind, note.audience, note.starts_at, note.time_zone)
            messages.append(Message(note.recipient, title, body, visit_link(note.appointment_id, kind)))
    return await notify_each(session=session, kind=kind, messages=messages, now=now)
