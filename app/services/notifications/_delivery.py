"""`notify`: called by this domain's subscribers of other domains' events (and `notify_visits`), in the
unit of work they run in. It stores one inbox row per recipient, announces it on the recipient's topic
once the unit of work commits (every open tab's bell updates), and sends the e-mails the recipients'
preferences ask for: at once, or with the next daily digest.

Preferences are read for all recipients with one query, their addresses with another, and the e-mails are
stored with one insert (`app.outbox.send_emails`): a notification to many people costs the same statements
as one to a single person.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.outbox import Email, send_emails
from app.services.notifications._catalogue import KINDS, digest_eligible, is_critical
from app.settings import get_settings
from models.identity import User
from models.notification import (
    MAX_BODY,
    MAX_LINK,
    MAX_TITLE,
    Notification,
    NotificationCategory,
    NotificationKind,
    NotificationPreference,
)

MAX_RECIPIENTS = 500


def notifications_topic(user_id: str) -> str:
    """The event topic of one person's notifications: new ones, and read / archived changes made in any tab."""
    return f"notifications:{user_id}"


@dataclass(frozen=True)
class Channels:
    """What one person gets for one category (critical categories: always everything, at once)."""

    in_app: bool = True
    email: bool = True
    digest: bool = False

    @classmethod
    def of(cls, row: NotificationPreference | None, category: NotificationCategory) -> Channels:
        if row is None or is_critical(category):
            return cls()
        return cls(row.in_app, row.email, row.digest and digest_eligible(category))

    @property
    def email_now(self) -> bool:
        return self.email and not self.digest

    @property
    def email_digest(self) -> bool:
        return self.email and self.digest


@dataclass(frozen=True)
class Delivery:
    """What `notify` did: the rows' ids, and who wants an e-mail now (for kinds whose e-mail the caller sends)."""

    ids: tuple[str, ...]
    email_now: frozenset[str]


async def channels_of(
    session: AsyncSession, user_ids: Iterable[str], category: NotificationCategory
) -> dict[str, Channels]:
    ids = list(user_ids)
    rows = await session.scalars(
        select(NotificationPreference).where(
            NotificationPreference.user_id.in_(ids), NotificationPreference.category == category.value
        )
    )
    found = {row.user_id: row for row in rows}
    return {user_id: Channels.of(found.get(user_id), category) for user_id in ids}


def _clip(text: str, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Message:
    """One notification to one person: `title` and `body` come from `_copy` (PHI-free), `link` is a path."""

    recipient: str | None  # a user id; None or empty: nobody to tell (a provider without an account)
    title: str
    body: str
    link: str


async def notify(
    *,
    session: AsyncSession,
    recipients: Iterable[str | None],
    kind: NotificationKind,
    link: str,
    title: str,
    body: str = "",
    now: datetime | None = None,
) -> Delivery:
    """Notify `recipients` (user ids; empty ones and repeats are dropped) of `kind`, in the caller's unit of
    work, all with the same words and link."""
    ids = list(dict.fromkeys(r for r in recipients if r))
    messages = [Message(user_id, title, body, link) for user_id in ids]
    return await notify_each(session=session, kind=kind, messages=messages, now=now)


async def notify_each(
    *, session: AsyncSession, kind: NotificationKind, messages: Sequence[Message], now: datetime | None = None
) -> Delivery:
    """`notify` with words and a link of its own per message (a reminder per visit, a booking's patient and
    providers): one preferences query, one insert and one e-mail batch for all of them."""
    info = KINDS[NotificationKind(kind)]
    told = [(m.recipient, m) for m in messages if m.recipient][:MAX_RECIPIENTS]
    if not told:
        return Delivery((), frozenset())
    for _, message in told:
        if not message.link.startswith("/") or message.link.startswith("//"):
            raise ValueError("A notification links to a path of this site.")
    now = (now or datetime.now(UTC)).astimezone(UTC)
    channels = await channels_of(session, {recipient for recipient, _ in told}, info.category)
    sends = info.email != "elsewhere"
    rows = [
        Notification(
            recipient_id=recipient,
            kind=info.kind.value,
            category=info.category.value,
            title=_clip(m.title, MAX_TITLE),
            body=_clip(m.body, MAX_BODY),
            link=m.link[:MAX_LINK],
            created_at=now,
            digest_pending=sends and channels[recipient].email_digest,
            emailed_at=now if info.email == "notify" and channels[recipient].email_now else None,
        )
        for recipient, m in told
    ]
    session.add_all(rows)
    await session.flush()
    # Muted (in-app off): stored for the e-mail and the digest, never pushed.
    await events.publish_all_on_commit(
        session,
        [
            (notifications_topic(row.recipient_id), {"id": row.id, "kind": row.kind})
            for row in rows
            if channels[row.recipient_id].in_app
        ],
    )
    email_now = frozenset(user_id for user_id, c in channels.items() if sends and c.email_now)
    if info.email == "notify" and email_now:
        addresses = await email_addresses(session, email_now)
        await send_emails(
            session=session,
            emails=[
                Email(
                    recipients=[addresses[row.recipient_id]],
                    subject=row.title,
                    html=notification_html(row.title, row.body, row.link),
                )
                for row in rows
                if row.recipient_id in email_now and addresses.get(row.recipient_id)
            ],
        )
    return Delivery(tuple(row.id for row in rows), email_now)


async def email_addresses(session: AsyncSession, user_ids: Iterable[str]) -> dict[str, str]:
    found = await session.execute(select(User.id, User.email).where(User.id.in_(list(user_ids))))
    return {user_id: email for user_id, email in found.all() if email}


def _absolute(link: str) -> str:
    return get_settings().site_url.rstrip("/") + link


def _page(heading: str, inner: str) -> str:
    brand = escape(get_settings().brand_name)
    return (
        "<div style='font-family:system-ui,sans-serif;max-width:560px;color:#0f172a'>"
        f"<h1 style='font-size:20px'>{escape(heading)}</h1>{inner}"
        "<p style='color:#64748b;font-size:13px'>You can choose which e-mails you get under "
        f"<a href='{escape(_absolute('/dashboard/notification-settings'))}'>Notification settings</a>. "
        f"{brand} — mobile healthcare at your door.</p></div>"
    )


def _open_button(link: str) -> str:
    return (
        f"<p><a href='{escape(_absolute(link))}' style='display:inline-block;padding:10px 16px;"
        "background:#0f766e;color:#ffffff;border-radius:6px;text-decoration:none'>Open in "
        f"{escape(get_settings().brand_name)}</a></p>"
    )


def notification_html(
    title: str, body: str, link: str, *, points: Sequence[str] = (), quote: str = ""
) -> str:
    """One notification e-mail: the PHI-free title and preview, and a button to the detail. A caller that
    owns its kind's e-mail may add `points` (a bullet list) and a `quote` (someone's message, kept as
    typed); all of it is escaped here."""
    text = f"<p>{escape(body)}</p>" if body else ""
    if points:
        text += "<ul style='padding-left:18px'>" + "".join(f"<li>{escape(p)}</li>" for p in points) + "</ul>"
    if quote:
        text += (
            "<blockquote style='margin:0 0 12px;padding:8px 12px;border-left:3px solid #cbd5e1;"
            f"white-space:pre-wrap'>{escape(quote)}</blockquote>"
        )
    return _page(title, text + _open_button(link))


def digest_html(items: list[tuple[str, str, str]]) -> str:
    """The daily digest: one line per (title, preview, link)."""
    lines = "".join(
        f"<li style='margin:0 0 12px'><a href='{escape(_absolute(link))}'>{escape(title)}</a>"
        + (f"<br><span style='color:#475569'>{escape(body)}</span>" if body else "")
        + "</li>"
        for title, body, link in items
    )
    return _page("Your daily summary", f"<ul style='padding-left:18px'>{lines}</ul>")
