"""The demo accounts' notification history: what Jordan (the demo patient) and Priya (the demo provider)
were told about their visits — requests, confirmations, cancellations and review requests — so their bell,
inbox and dashboard overview look like an account in use. Worded by the notifications domain (PHI-free),
stored as history: no e-mail is sent for events that happened before the demo existed. The newest few
are unread.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.notifications import KINDS, Audience, visit_copy, visit_link
from models.booking import Appointment, AppointmentStatus
from models.identity import as_utc
from models.notification import Notification, NotificationKind

PER_PERSON = 8  # the newest events each demo account was told about
UNREAD = 3  # of which the newest are still unread
K = NotificationKind
S = AppointmentStatus


def _events(visit: Appointment, audience: Audience, now: datetime) -> list[tuple[datetime, NotificationKind]]:
    """When `audience` heard what about `visit` (only what has happened by `now`)."""
    starts = as_utc(visit.starts_at)
    booked = min(now - timedelta(hours=1), starts - timedelta(days=3))
    events = [(booked, K.visit_booked)]
    if visit.confirmed_at is not None:
        events.append((as_utc(visit.confirmed_at), K.visit_confirmed))
    if visit.status == S.cancelled:
        events.append((min(now, starts - timedelta(days=1)), K.visit_cancelled))
    if visit.status == S.completed and audience == "patient":
        events.append((as_utc(visit.ends_at) + timedelta(hours=1), K.review_request))
    return [(at, kind) for at, kind in events if at <= now]


async def seed_demo_notices(
    *,
    session: AsyncSession,
    visits: Sequence[Appointment],
    patient_id: str,
    provider_id: str,
    provider_user_id: str,
    time_zone: str,
    now: datetime,
) -> int:
    rows: list[dict[str, object]] = []
    told_whom: tuple[tuple[str, Audience, list[Appointment]], ...] = (
        (patient_id, "patient", [v for v in visits if v.patient_id == patient_id]),
        (provider_user_id, "provider", [v for v in visits if v.provider_id == provider_id]),
    )
    for recipient, audience, mine in told_whom:
        told = sorted(
            ((at, kind, visit) for visit in mine for at, kind in _events(visit, audience, now)),
            key=lambda event: event[0],
            reverse=True,
        )[:PER_PERSON]
        for rank, (at, kind, visit) in enumerate(told):
            title, body = visit_copy(kind, audience, as_utc(visit.starts_at), time_zone)
            rows.append(
                {
                    "recipient_id": recipient,
                    "kind": kind.value,
                    "category": KINDS[kind].category.value,
                    "title": title,
                    "body": body,
                    "link": visit_link(visit.id, kind),
                    "created_at": at,
                    "read_at": None if rank < UNREAD else at + timedelta(hours=2),
                }
            )
    if rows:
        await session.execute(insert(Notification), rows)
    return len(rows)
