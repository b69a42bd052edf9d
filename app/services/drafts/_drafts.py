"""Saving, loading and discarding form drafts.

Whose draft it is comes from the Principal alone: a signed-in user's drafts are theirs on every device (the
session is re-checked on each call, so a signed-out tab neither reads nor writes any); a visitor's belong to
their `mv_visitor` cookie. Nobody names an owner, so nobody reaches another's draft. Drafts expire
`DRAFT_LIFETIME_DAYS` after their last change; each save sweeps expired ones. Values are capped (a draft
holds at most 20 fields of 20,000 characters), and one owner keeps at most 50 drafts (the oldest go).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.shared.signed_in import require_identity
from app.settings import get_settings
from models.base import new_id, utcnow
from models.draft import MAX_FORM_KEY, FormDraft
from models.identity import as_utc

DraftValues = dict[str, str | bool]
MAX_FIELDS = 20
MAX_FIELD_NAME = 64
MAX_TEXT = 20_000
MAX_DRAFTS_PER_OWNER = 50
MAX_VISITOR_ID = 64


async def _owner(session: AsyncSession, actor: Principal) -> str | None:
    """The owner key of `actor`'s drafts; None for whoever keeps none (the system, a visitor without a
    cookie). A user whose session has ended is refused (require_identity raises)."""
    if actor.is_user:
        identity = await require_identity(session=session, actor=actor)
        return f"user:{identity.user.id}"
    if actor.visitor_id and len(actor.visitor_id) <= MAX_VISITOR_ID:
        return f"visitor:{actor.visitor_id}"
    return None


def _clean(values: Mapping[str, object]) -> DraftValues:
    """Text and checkbox values only, names and lengths capped."""
    cleaned: DraftValues = {}
    for name, value in values.items():
        if len(cleaned) >= MAX_FIELDS or not isinstance(name, str) or len(name) > MAX_FIELD_NAME:
            continue
        if isinstance(value, bool):
            cleaned[name] = value
        elif isinstance(value, str):
            cleaned[name] = value[:MAX_TEXT]
    return cleaned


def _lifetime() -> timedelta:
    return timedelta(days=max(1, get_settings().draft_lifetime_days))


async def load_draft(
    *, session: AsyncSession, actor: Principal, form_key: str, now: datetime | None = None
) -> DraftValues | None:
    """The values `actor` last saved in the form `form_key`, or None (none saved, or expired)."""
    owner = await _owner(session, actor)
    if owner is None or len(form_key) > MAX_FORM_KEY:
        return None
    row = await session.scalar(
        select(FormDraft).where(FormDraft.owner_key == owner, FormDraft.form_key == form_key)
    )
    if row is None or as_utc(row.expires_at) <= (now or utcnow()):
        return None
    return _clean(row.fields or {})


async def save_draft(
    *,
    session: AsyncSession,
    actor: Principal,
    form_key: str,
    values: Mapping[str, object],
    now: datetime | None = None,
) -> None:
    """Keep `values` as `actor`'s draft of `form_key` (an upsert: two tabs saving at once is fine)."""
    owner = await _owner(session, actor)
    if owner is None or len(form_key) > MAX_FORM_KEY:
        return
    now = now or utcnow()
    await session.execute(delete(FormDraft).where(FormDraft.expires_at <= now))
    fields = _clean(values)
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else pg_insert
    statement = insert(FormDraft).values(
        id=new_id(),
        owner_key=owner,
        form_key=form_key,
        fields=fields,
        updated_at=now,
        expires_at=now + _lifetime(),
    )
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[FormDraft.owner_key, FormDraft.form_key],
            set_={"fields": fields, "updated_at": now, "expires_at": now + _lifetime()},
        )
    )
    surplus = (
        select(FormDraft.id)
        .where(FormDraft.owner_key == owner)
        .order_by(FormDraft.updated_at.desc(), FormDraft.id.desc())
        .offset(MAX_DRAFTS_PER_OWNER)
    )
    stale = list(await session.scalars(surplus))
    if stale:
        await session.execute(delete(FormDraft).where(FormDraft.id.in_(stale)))


async def discard_draft(*, session: AsyncSession, actor: Principal, form_key: str) -> None:
    """Forget `actor`'s draft of `form_key` (it was sent, or emptied)."""
    owner = await _owner(session, actor)
    if owner is None:
        return
    await session.execute(
        delete(FormDraft).where(FormDraft.owner_key == owner, FormDraft.form_key == form_key)
    )
