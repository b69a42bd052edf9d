"""Audit entries of the identity service: who did what, from which address and user agent.

Written at the service level (sign-in, failed sign-in, sign-out, password and MFA changes), so the JSON API
and the browser forms, which call the same functions, are both covered. Refreshing a token is not audited.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.audit import record
from app.auth.common import RequestOrigin
from models.audit import AuditAction


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
