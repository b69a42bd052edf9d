"""Audit entries of the identity service: who did what, from which address and user agent.

Written at the service level (sign-in, failed sign-in, sign-out, password and MFA changes), so the JSON API
and the browser forms, which call the same functions, are both covered. Refreshing a token is not audited.

Security notices: the entries in SECURITY_ACTIONS are also handed, in the same unit of work, to the observers
registered with `observe_security_events` (the notification domain's, registered by the assembly at start-up:
this core layer imports nothing above it). An observer that raises fails the identity call, as any write of
its unit of work would.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.audit import record
from app.auth.common import RequestOrigin
from models.audit import AuditAction

SECURITY_ACTIONS = frozenset(
    {
        AuditAction.sign_in,
        AuditAction.password_change,
        AuditAction.mfa_verify,
        AuditAction.mfa_unenroll,
        AuditAction.email_change_request,
    }
)
# (session, action, user id, origin, details)
SecurityObserver = Callable[[AsyncSession, AuditAction, str, RequestOrigin, dict[str, Any]], Awaitable[None]]
# Set once at start-up by the assembly (never per connection): who hears of the SECURITY_ACTIONS entries.
_observers: list[SecurityObserver] = []


def observe_security_events(observer: SecurityObserver) -> Callable[[], None]:
    """Hand every later SECURITY_ACTIONS entry to `observer` (registering the same one twice is a no-op).
    Returns a function that takes it off again if this call added it (for tests)."""
    if observer in _observers:
        return lambda: None
    _observers.append(observer)

    def forget() -> None:
        if observer in _observers:
            _observers.remove(observer)

    return forget


async def audit(
    session: AsyncSession,
    origin: RequestOrigin | None,
    action: AuditAction,
    *,
    user_id: str | None,
    email: str | None,
    target: str | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """One entry whose actor is the user acting on their own account (target defaults to their e-mail)."""
    origin = origin or RequestOrigin()
    await record(
        session=session,
        actor_id=user_id,
        actor_email=email,
        action=action,
        target=target if target is not None else email,
        ip=origin.ip,
        user_agent=origin.user_agent,
        details=details,
    )
    if action in SECURITY_ACTIONS and user_id:
        for observer in tuple(_observers):
            await observer(session, action, user_id, origin, dict(details or {}))
