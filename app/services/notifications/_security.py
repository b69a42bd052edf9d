"""Security notices from the identity service: a sign-in from a device or network not seen before (not
the account's first sign-in), a changed password, two-factor sign-in turned on or off, a requested e-mail
change. The identity core (app/auth/audit.py) hands its audit entries to `on_security_event` in the same
unit of work; the assembly registers it at start-up (`install_security_notices`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.audit import observe_security_events
from app.auth.common import RequestOrigin
from app.services.notifications._copy import SECURITY_COPY, SETTINGS_PATH, mfa_copy
from app.services.notifications._delivery import notify
from models.audit import AuditAction, AuditEntry
from models.notification import NotificationKind

K = NotificationKind


async def _new_device(session: AsyncSession, user_id: str, origin: RequestOrigin) -> bool:
    """Whether this sign-in (its audit entry is already in the session) comes from an address and browser
    the account never signed in from before, and is not its first sign-in. One aggregate query."""
    await session.flush()
    same = (AuditEntry.ip == origin.ip[:64]) & (AuditEntry.user_agent == origin.user_agent[:512])
    total, matching = (
        await session.execute(
            select(func.count(), func.count().filter(same)).where(
                AuditEntry.actor_id == user_id, AuditEntry.action == AuditAction.sign_in.value
            )
        )
    ).one()
    return total > 1 and matching <= 1


async def on_security_event(
    session: AsyncSession, action: AuditAction, user_id: str, origin: RequestOrigin, details: dict[str, Any]
) -> None:
    kind: NotificationKind | None = None
    copy: tuple[str, str] | None = None
    if action == AuditAction.sign_in:
        if await _new_device(session, user_id, origin or RequestOrigin()):
            kind = K.new_sign_in
    elif action == AuditAction.password_change:
        kind = K.password_changed
    elif action == AuditAction.email_change_request:
        kind = K.email_change_requested
    elif action == AuditAction.mfa_verify and details.get("first_verification"):
        kind, copy = K.mfa_changed, mfa_copy(turned_on=True)
    elif action == AuditAction.mfa_unenroll and details.get("verified"):
        kind, copy = K.mfa_changed, mfa_copy(turned_on=False)
    if kind is None:
        return
    title, body = copy or SECURITY_COPY[kind]
    await notify(session=session, recipients=[user_id], kind=kind, link=SETTINGS_PATH, title=title, body=body)


def install_security_notices() -> Callable[[], None]:
    """Have the identity service's security entries notify their account (idempotent); returns the undo
    (a no-op unless this call installed it)."""
    return observe_security_events(on_security_event)
