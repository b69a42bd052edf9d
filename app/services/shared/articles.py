"""What writing a Markdown article needs, for the staff handbook, the public help center, careers' postings
and the forum: a line of text tidied, a slug from its title that no other article holds, its place at the end
of its group, the changed fields of an edit, and the create-or-change step the handbook's and the help
center's saves go through."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.services.errors import NotFound, ValidationFailed
from models.base import utcnow
from models.handbook import MAX_SLUG


def one_line(raw: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", raw or "").split())


def slugify(title: str) -> str:
    """'Refunds & payouts' → 'refunds-payouts' (ASCII, short enough for a numbered twin within MAX_SLUG)."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title).strip("-")[: MAX_SLUG - 9].strip("-")
    return slug or "article"


async def free_slug(session: AsyncSession, slugs: InstrumentedAttribute[str], title: str) -> str:
    """`title`'s slug, numbered (-2, -3, …) when another article of the table of `slugs` holds it."""
    base = slugify(title)
    taken = set(await session.scalars(select(slugs).where(slugs.like(f"{base}%"))))
    return next(s for s in (base, *(f"{base}-{n}" for n in range(2, 10_000))) if s not in taken)


async def next_position(
    session: AsyncSession,
    positions: InstrumentedAttribute[int],
    group: InstrumentedAttribute[str],
    value: str,
) -> int:
    """After the last article of `group` == `value`."""
    statement = select(func.coalesce(func.max(positions), 0) + 10).where(group == value)
    return (await session.execute(statement)).scalar_one()


def apply_changes(row: Any, values: dict[str, Any]) -> list[str]:
    """Set `values` on `row`; the names of those that changed, sorted (for the audit entry)."""
    changed = sorted(name for name, value in values.items() if getattr(row, name) != value)
    for name, value in values.items():
        setattr(row, name, value)
    return changed


async def write_article_row(
    session: AsyncSession,
    model: Any,
    *,
    group: str,
    slug: str | None,
    values: dict[str, Any],
    editor_id: str,
    limit: int,
    full: str,
    not_found: str,
) -> tuple[Any, list[str]]:
    """Create an article of `model` (`slug` None: at most `limit` of them, else `full`; its slug from the
    title, at the end of its `group` column's value) or change the one at `slug` (locked; else `not_found`),
    stamped with its editor; the row and the names of the fields set or changed."""
    if slug is None:
        if (await session.execute(select(func.count()).select_from(model))).scalar_one() >= limit:
            raise ValidationFailed(full)
        position = await next_position(session, model.position, getattr(model, group), values[group])
        row = model(
            slug=await free_slug(session, model.slug, str(values["title"])), position=position, **values
        )
        session.add(row)
        changed = sorted(values)
    else:
        row = await session.scalar(select(model).where(model.slug == slug[:MAX_SLUG]).with_for_update())
        if row is None:
            raise NotFound(not_found)
        changed = apply_changes(row, values)
    row.updated_at = utcnow()
    row.updated_by = editor_id
    await session.flush()
    return row, changed
