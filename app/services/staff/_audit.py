"""Reading the audit log back: owners only, newest first, paged, with the names of the people behind the
actor's id and an account target (an id or an e-mail), read in the same query (two outer joins)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.services.errors import PermissionDenied
from models.account import AccountRead, Role
from models.audit import AuditAction, AuditEntry, AuditEntryRead
from models.identity import User, as_utc

MAX_PAGE = 100
AUDIT_DENIED = "Only an owner can read the audit log."


def _is_owner(reader: AccountRead) -> bool:
    return reader.role == Role.owner or reader.is_master_admin


async def list_audit(
    *,
    session: AsyncSession,
    reader: AccountRead,
    action: AuditAction | str | None = None,
    actor_query: str | None = None,
    target_query: str | None = None,
    limit: int = MAX_PAGE,
    before: datetime | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    older_than: str | None = None,
) -> list[AuditEntryRead]:
    """Newest first, at most 100. `actor_query` matches part of the actor's e-mail or the actor's id;
    `target_query` part of the target (a ticket number, a patient's id, a file name, an e-mail);
    `since` (inclusive) and `until` (exclusive) bound the time. To page on, pass `older_than`, the id of
    the last entry of the previous page (entries written in the same instant are not skipped), or
    `before`, its `created_at`."""
    if not _is_owner(reader):
        raise PermissionDenied(AUDIT_DENIED)
    actor, target = aliased(User), aliased(User)
    query = (
        select(AuditEntry, actor.raw_user_meta_data, target.raw_user_meta_data)
        .outerjoin(actor, actor.id == AuditEntry.actor_id)
        .outerjoin(target, or_(target.id == AuditEntry.target, target.email == AuditEntry.target))
    )
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
    target_needle = (target_query or "").strip().lower()
    if target_needle:
        query = query.where(func.lower(AuditEntry.target).contains(target_needle, autoescape=True))
    if before is not None:
        query = query.where(AuditEntry.created_at < as_utc(before).astimezone(UTC))
    limit = max(1, min(int(limit), MAX_PAGE))
    rows = await session.execute(
        query.order_by(AuditEntry.created_at.desc(), AuditEntry.id.desc()).limit(limit)
    )
    return [
        AuditEntryRead.of(row).model_copy(
            update={"actor_name": _name(actor_meta), "target_name": _name(target_meta)}
        )
        for row, actor_meta, target_meta in rows.tuples()
    ]


def _name(user_metadata: dict[str, Any] | None) -> str:
    """The profile's name (SPEC §5 first and last name), "" for none."""
    meta = user_metadata or {}
    parts = (meta.get("first_name"), meta.get("last_name"))
    return " ".join(p.strip() for p in parts if isinstance(p, str) and p.strip())[:200]
