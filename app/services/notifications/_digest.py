"""The daily digest: one e-mail per person listing the notifications that waited for it (their category's
e-mail is set to "daily digest") and that they have not read in the app meanwhile.

Run every minute with the reminders (medivisit/main.py); a digest goes out at the first run after
DIGEST_HOUR in the site's default time zone and holds what arrived before that moment, so each item is sent
once, the day after it happened at the latest. Safe with several workers: the pending rows are claimed by one
UPDATE … RETURNING (a second worker's UPDATE waits for the first's row locks, then finds them claimed).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import Row, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.outbox import Email, send_emails
from app.services.notifications._delivery import digest_html, email_addresses
from app.settings import get_settings
from models.notification import Notification

DIGEST_HOUR = 8
DIGEST_BATCH = 2000
SUBJECT = "Your daily summary"
# A notification the digest claimed: id, recipient, title, body, link, created, read and archived at.
_Claimed = Row[str, str, str, str, str, datetime, datetime | None, datetime | None]


def digest_cutoff(now: datetime, time_zone: str) -> datetime:
    """The latest DIGEST_HOUR o'clock in `time_zone` at or before `now` (UTC)."""
    local = now.astimezone(ZoneInfo(time_zone))
    cutoff = datetime.combine(local.date(), time(DIGEST_HOUR), tzinfo=local.tzinfo)
    if cutoff > local:
        cutoff = datetime.combine(local.date() - timedelta(days=1), time(DIGEST_HOUR), tzinfo=local.tzinfo)
    return cutoff.astimezone(UTC)


async def send_daily_digests(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Send the digests due at `now`; returns how many e-mails were sent."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    cutoff = digest_cutoff(now, get_settings().default_time_zone)
    due = (
        select(Notification.id)
        .where(Notification.digest_pending, Notification.created_at < cutoff)
        .limit(DIGEST_BATCH)
        .scalar_subquery()
    )
    claimed = (
        await session.execute(
            update(Notification)
            .where(Notification.id.in_(due), Notification.digest_pending)
            .values(digest_pending=False)
            .returning(
                Notification.id,
                Notification.recipient_id,
                Notification.title,
                Notification.body,
                Notification.link,
                Notification.created_at,
                Notification.read_at,
                Notification.archived_at,
            )
            .execution_options(synchronize_session=False)
        )
    ).all()
    by_person: dict[str, list[_Claimed]] = defaultdict(list)
    for row in claimed:
        if row.read_at is None and row.archived_at is None:  # seen in the app: nothing left to tell
            by_person[row.recipient_id].append(row)
    if not by_person:
        return 0
    addresses = await email_addresses(session, by_person)
    emails, sent_ids = [], []
    for person, rows in by_person.items():
        if not addresses.get(person):
            continue
        rows.sort(key=lambda r: r.created_at)
        emails.append(
            Email(
                recipients=[addresses[person]],
                subject=SUBJECT,
                html=digest_html([(r.title, r.body, r.link) for r in rows]),
            )
        )
        sent_ids += [r.id for r in rows]
    if emails:
        await send_emails(session=session, emails=emails)
        await session.execute(
            update(Notification)
            .where(Notification.id.in_(sent_ids))
            .values(emailed_at=now)
            .execution_options(synchronize_session=False)
        )
    return len(emails)
