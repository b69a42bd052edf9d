"""The audit log (append-only): `record` adds an entry with the caller's unit of work; `record_apart` one
that outlives it (a refused escalation: the command raises, so its own transaction rolls back).

Reading it back is a staff concern (`app.services.staff.read_audit_log`, owners only).

There is deliberately no function that changes or removes an entry, and the database refuses UPDATE and
DELETE on the table (triggers in migration 0003). Secrets never enter the log: keys of `details` that name
a password, token, code, secret, nonce or link are dropped before the row is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import write_apart
from models.audit import AuditAction, AuditEntry, AuditEntryRead
from models.base import new_id, utcnow

if TYPE_CHECKING:
    from app.principal import Principal

# Substrings of `details` keys whose values are never stored.
_SECRET_KEYS = ("password", "token", "secret", "code", "nonce", "link", "otp", "hash", "key", "jwt")
_MAX_TEXT = 500


def _is_secret(key: str) -> bool:
    key = key.lower()
    return any(part in key for part in _SECRET_KEYS)


def scrub(value: Any) -> Any:
    """`details` without secret-named keys, with long strings shortened (JSON-safe values only)."""
    if isinstance(value, dict):
        return {str(k): scrub(v) for k, v in value.items() if not _is_secret(str(k))}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        return value[:_MAX_TEXT]
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)[:_MAX_TEXT]


async def record(
    *,
    session: AsyncSession,
    actor_id: str | None,
    actor_email: str | None,
    action: AuditAction | str,
    target: str | None,
    ip: str | None,
    user_agent: str | None,
    details: dict[str, Any] | None = None,
) -> AuditEntryRead:
    """Append one entry; it is written with the caller's unit of work."""
    row = _row(actor_id, actor_email, action, target, ip, user_agent, details)
    session.add(row)
    return AuditEntryRead.of(row)


def _row(
    actor_id: str | None,
    actor_email: str | None,
    action: AuditAction | str,
    target: str | None,
    ip: str | None,
    user_agent: str | None,
    details: dict[str, Any] | None,
) -> AuditEntry:
    return AuditEntry(
        id=new_id(),
        actor_id=actor_id or None,
        actor_email=(actor_email or "")[:320],
        action=str(action)[:64],
        target=(target or "")[:320],
        ip=(ip or "")[:64],
        user_agent=(user_agent or "")[:512],
        details=scrub(details or {}),
        created_at=utcnow(),
    )


async def record_apart(
    *,
    session: AsyncSession,
    actor_id: str | None,
    actor_email: str | None,
    action: AuditAction | str,
    target: str | None,
    ip: str | None,
    user_agent: str | None,
    details: dict[str, Any] | None = None,
) -> AuditEntryRead:
    """Append one entry that is kept whatever becomes of the caller's unit of work: it is written in a
    short transaction of its own once that unit of work has ended (`app.db.write_apart`). For refusals,
    which raise and so roll the command back."""
    row = _row(actor_id, actor_email, action, target, ip, user_agent, details)
    write_apart(session, row)
    return AuditEntryRead.of(row)


class Account(Protocol):
    """What `record_by` reads of an account: a `models.identity.User` row or its `AccountRead` snapshot."""

    @property
    def id(self) -> str: ...

    @property
    def email(self) -> str | None: ...


async def record_by(
    *,
    session: AsyncSession,
    account: Account,
    actor: Principal,
    action: AuditAction | str,
    target: str | None,
    details: dict[str, Any] | None = None,
) -> AuditEntryRead:
    """`record` an action of a signed-in `account`, with the address and browser of the connection it came
    through (`actor`)."""
    return await record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=action,
        target=target,
        ip=actor.ip,
        user_agent=actor.user_agent,
        details=details,
    )


async def record_by_stripe(
    *,
    session: AsyncSession,
    action: AuditAction | str,
    target: str | None,
    details: dict[str, Any] | None = None,
) -> AuditEntryRead:
    """`record` what Stripe's webhook (or the reconciliation that asks Stripe) did: no person, no address."""
    return await record(
        session=session,
        actor_id=None,
        actor_email="stripe",
        action=action,
        target=target,
        ip=None,
        user_agent=None,
        details=details,
    )
