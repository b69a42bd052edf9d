"""The mail outbox in the admin console: the newest messages first (to, subject, status, when), 50 a page,
and one message's text. One-time codes and links never leave the server: subjects, errors and bodies are
turned into plain text here with every link and every code-like token replaced (`redact`), so the browser
never receives a sign-in link or a code even for a message still holding one.

There is no retry of a failed delivery in the platform (app/outbox.py tries each message once, when it is
sent), so there is no attempt count to show.
"""

from __future__ import annotations

import html
import re

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.admin._access import require_admin
from app.services.errors import NotFound, ValidationFailed
from app.settings import get_settings
from models.admin import OutboxBodyRead, OutboxPageRead, OutboxRowRead
from models.identity import as_utc
from models.mail import OutboxMessage, OutboxStatus

PAGE_SIZE = 50
MAX_PAGE = 10_000
MAX_TEXT = 4000
LINK_HIDDEN = "[link hidden]"
CODE_HIDDEN = "[code hidden]"
NO_MESSAGE = "There is no such message."

_BLOCKS = re.compile(r"<\s*(br|/p|/div|/h[1-6]|/li|/tr)\b[^>]*>", re.IGNORECASE)
_ANCHORS = re.compile(r"<\s*a\b[^>]*>(.*?)<\s*/\s*a\s*>", re.IGNORECASE | re.DOTALL)
_TAGS = re.compile(r"<[^>]*>")
_INVISIBLE = re.compile(r"<\s*(style|script|head)\b.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
_URLS = re.compile(r"\b(?:https?|ftp|mailto)://\S+|\bwww\.\S+|\b[\w.-]+\.\w{2,}/\S*", re.IGNORECASE)
# A run of 6+ digits (the one-time codes' length; spaced or dashed too) not after '#' (ticket numbers stay),
# or a token of 6+ letters and digits with both (a token in a link's text).
_CODES = re.compile(
    r"(?<![#\w])\d(?:[\s-]?\d){5,}\b|\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{6,}\b"
)


def redact(text: str, *, markup: bool = False) -> str:
    """`text` (HTML when `markup`) as plain text with links and one-time codes replaced."""
    if markup:
        text = _INVISIBLE.sub(" ", text)
        text = _ANCHORS.sub(lambda m: f"{m.group(1)} {LINK_HIDDEN}", text)
        text = _BLOCKS.sub("\n", text)
        text = _TAGS.sub(" ", text)
        text = html.unescape(text)
    text = _URLS.sub(LINK_HIDDEN, text)
    text = _CODES.sub(CODE_HIDDEN, text)
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)[:MAX_TEXT]


def _status(value: OutboxStatus | str | None) -> OutboxStatus | None:
    if not value:
        return None
    try:
        return OutboxStatus(value)
    except ValueError:
        raise ValidationFailed("Choose queued, sent, failed or all.") from None


async def list_outbox(
    *, session: AsyncSession, actor: Principal, status: OutboxStatus | str | None = None, page: int = 1
) -> OutboxPageRead:
    """The newest messages first, PAGE_SIZE a page, optionally of one status; bodies are not included."""
    await require_admin(session=session, actor=actor)
    if not 1 <= int(page) <= MAX_PAGE:
        raise ValidationFailed("That page does not exist.")
    wanted = _status(status)
    where = [OutboxMessage.status == wanted] if wanted else []
    total = await session.scalar(select(func.count()).select_from(OutboxMessage).where(*where)) or 0
    rows = await session.execute(
        select(
            OutboxMessage.id,
            OutboxMessage.recipients,
            OutboxMessage.subject,
            OutboxMessage.status,
            OutboxMessage.error,
            OutboxMessage.created_at,
            OutboxMessage.sent_at,
        )
        .where(*where)
        .order_by(OutboxMessage.created_at.desc(), OutboxMessage.id)
        .offset((int(page) - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    )
    messages = [
        OutboxRowRead(
            id=row.id,
            recipients=[str(r)[:320] for r in (row.recipients or [])][:20],
            subject=redact(row.subject or "")[:300],
            status=row.status,
            error=redact(row.error or "")[:300],
            created_at=as_utc(row.created_at),
            sent_at=as_utc(row.sent_at),
        )
        for row in rows
    ]
    return OutboxPageRead(
        messages=messages,
        total=total,
        page=int(page),
        page_size=PAGE_SIZE,
        smtp_configured=bool(get_settings().smtp_url),
    )


async def get_outbox_message(*, session: AsyncSession, actor: Principal, message_id: str) -> OutboxBodyRead:
    """One message's text, links and codes replaced."""
    await require_admin(session=session, actor=actor)
    message_id = str(message_id or "")
    row = (
        (
            await session.execute(
                select(OutboxMessage.id, OutboxMessage.subject, OutboxMessage.html).where(
                    OutboxMessage.id == message_id
                )
            )
        ).first()
        if 0 < len(message_id) <= 36
        else None
    )
    if row is None:
        raise NotFound(NO_MESSAGE)
    return OutboxBodyRead(
        id=row.id, subject=redact(row.subject or ""), text=redact(row.html or "", markup=True)
    )
