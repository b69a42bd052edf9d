"""The account's signed-in devices (ASVS 7.5.2): list them, sign one out, sign out every other one.

A session is a row of `auth_sessions`; deleting it ends it everywhere at once: its refresh tokens go with it
(ON DELETE CASCADE), and the Principal re-check every command makes (`require_account`) finds nothing, so
an open tab of that session is refused on its next command and its next page load asks for a sign-in.
"""

from __future__ import annotations

import re

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.audit import record
from app.auth.sessions import delete_other_sessions
from app.db import changed_rows
from app.principal import Principal
from app.services.errors import NotFound
from app.services.shared.signed_in import require_account
from models.account import AccountRead, ActiveSession
from models.audit import AuditAction
from models.identity import AuthSession, as_utc

MAX_SESSIONS_LISTED = 50
NOT_YOURS = "That session is not one of yours, or it has already ended."

# Most specific first: Edge and Opera say "Chrome" too, Chrome says "Safari".
_BROWSERS = (
    ("Edge", re.compile(r"Edg(e|A|iOS)?/")),
    ("Opera", re.compile(r"OPR/|Opera")),
    ("Samsung Internet", re.compile(r"SamsungBrowser/")),
    ("Firefox", re.compile(r"Firefox/|FxiOS/")),
    ("Chrome", re.compile(r"Chrome/|CriOS/|HeadlessChrome/")),
    ("Safari", re.compile(r"Safari/")),
)
_SYSTEMS = (
    ("iPhone", re.compile(r"iPhone")),
    ("iPad", re.compile(r"iPad")),
    ("Android", re.compile(r"Android")),
    ("Windows", re.compile(r"Windows")),
    ("ChromeOS", re.compile(r"CrOS")),
    ("macOS", re.compile(r"Mac OS X|Macintosh")),
    ("Linux", re.compile(r"Linux")),
)


def describe_device(user_agent: str | None) -> str:
    """A browser's User-Agent in plain words: 'Chrome on Windows', 'Safari on iPhone', 'Unknown device'."""
    agent = (user_agent or "")[:512]
    browser = next((name for name, pattern in _BROWSERS if pattern.search(agent)), "")
    system = next((name for name, pattern in _SYSTEMS if pattern.search(agent)), "")
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or ("A program or app" if agent else "Unknown device")


async def list_sessions(*, session: AsyncSession, actor: Principal) -> list[ActiveSession]:
    """The account's live sessions, this one first, then the most recently active."""
    account = await require_account(session=session, actor=actor)
    rows = await session.scalars(
        select(AuthSession)
        .where(AuthSession.user_id == account.id)
        .order_by(AuthSession.created_at.desc())
        .limit(MAX_SESSIONS_LISTED)
    )
    found = [
        ActiveSession(
            id=row.id,
            device=describe_device(row.user_agent),
            ip=row.ip or "",
            signed_in_at=as_utc(row.created_at),
            last_seen_at=as_utc(row.active_at or row.refreshed_at or row.created_at),
            current=row.id == actor.session_id,
        )
        for row in rows
    ]
    return sorted(found, key=lambda s: (not s.current, -s.last_seen_at.timestamp()))


async def audit_own(
    session: AsyncSession, account: AccountRead, actor: Principal, action: AuditAction, **details: object
) -> None:
    """Audit what the signed-in `account` did to its own account, from the connection of `actor`."""
    await record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=action,
        target=account.id,
        ip=actor.ip,
        user_agent=actor.user_agent,
        details=details,
    )


async def sign_out_session(*, session: AsyncSession, actor: Principal, session_id: str) -> None:
    """End one of the account's sessions (this one included: the tab then signs in again)."""
    account = await require_account(session=session, actor=actor)
    ended = await changed_rows(
        session,
        delete(AuthSession)
        .where(AuthSession.id == str(session_id)[:36], AuthSession.user_id == account.id)
        .execution_options(synchronize_session=False),
    )
    if not ended:
        raise NotFound(NOT_YOURS)
    await audit_own(
        session, account, actor, AuditAction.session_revoke, scope="one", session_id=str(session_id)[:36]
    )


async def sign_out_other_sessions(*, session: AsyncSession, actor: Principal) -> int:
    """End every session of the account but this one; answers how many ended."""
    account = await require_account(session=session, actor=actor)
    ended = await delete_other_sessions(session, user_id=account.id, keep=actor.session_id)
    await audit_own(session, account, actor, AuditAction.session_revoke, scope="others", ended=ended)
    return ended
