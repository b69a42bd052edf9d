"""The audit log (append-only): `record` adds an entry, `list_audit` reads them back for an owner.

There is deliberately no function that changes or removes an entry, and the database refuses UPDATE and
DELETE on the table (triggers in migration 0003). Secrets never enter the log: keys of `details` that name
a password, token, code, secret, nonce or link are dropped before the row is written.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import PermissionDenied
from models.account import AccountRead, Role
from models.audit import AuditAction, AuditEntry, AuditEntryRead
from models.base import new_id, utcnow
from models.identity import as_utc

MAX_PAGE = 100
AUDIT_DENIED = "Only an owner can read the audit log."
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
    row = AuditEntry(
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
    session.add(row)
    return AuditEntryRead.of(row)


def _is_owner(actor: AccountRead | None) -> bool:
    return actor is not None and (actor.role == Role.owner or actor.is_master_admin)


async def list_audit(
    *,
    session: AsyncSession,
    actor: AccountRead | None,
    action: AuditAction | str | None = None,
    actor_query: str | None = None,
    limit: int = MAX_PAGE,
    before: datetime | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    older_than: str | None = None,
) -> list[AuditEntryRead]:
    """Newest first, at most 100. `actor_query` matches part of the actor's e-mail or the actor's id;
    `since` (inclusive) and `until` (exclusive) bound the time. To page on, pass `older_than`, the id of
    the last entry of the previous page (entries written in the same instant are not skipped), or
    `before`, its `created_at`."""
    if not _is_owner(actor):
        raise PermissionDenied(AUDIT_DENIED)
    query = select(AuditEntry)
    if since is not None:
        query = query.where(AuditEntry.created_at >= as_utc(since).astimezone(UTC))
    if until is not None:
        query = query.where(AuditEntry.created_at < as_utc(until).astimezone(UTC))
    if older_than:
        last = await session.get(AuditEntry, older_than)
        if last is not None:
            query = query.where(
                or_(
                    AuditEntry.created_at < last.created_at,
                    and_(AuditEntry.created_at == last.created_at, AuditEntry.id < last.id),
                )
            )
    if action:
        query = query.where(AuditEntry.action == str(action))
    needle = (actor_query or "").strip().lower()
    if needle:
        query = query.where(
            or_(
                func.lower(AuditEntry.actor_email).contains(needle, autoescape=True),
                AuditEntry.actor_id == needle,
            )
        )
    if before is not None:
        query = query.where(AuditEntry.created_at < as_utc(before).astimezone(UTC))
    limit = max(1, min(int(limit), MAX_PAGE))
    rows = await session.scalars(
        query.order_by(AuditEntry.created_at.desc(), AuditEntry.id.desc()).limit(limit)
    )
    return [AuditEntryRead.of(row) for row in rows]
