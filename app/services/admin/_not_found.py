"""The unknown paths visitors asked for (the 404 counter, app/services/feedback), most frequent first, 50 a
page, so an administrator can fix the broken links behind them."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.admin._access import require_admin
from app.services.errors import ValidationFailed
from models.admin import UnknownPathPageRead, UnknownPathRead
from models.identity import as_utc
from models.not_found import NotFoundPath

PAGE_SIZE = 50
MAX_PAGE = 1_000


async def list_unknown_paths(
    *, session: AsyncSession, actor: Principal, page: int = 1
) -> UnknownPathPageRead:
    """The counted paths by number of requests, then the most recently seen."""
    await require_admin(session=session, actor=actor)
    if not 1 <= int(page) <= MAX_PAGE:
        raise ValidationFailed("That page does not exist.")
    total = await session.scalar(select(func.count()).select_from(NotFoundPath)) or 0
    rows = await session.scalars(
        select(NotFoundPath)
        .order_by(NotFoundPath.hits.desc(), NotFoundPath.last_seen.desc(), NotFoundPath.path)
        .offset((int(page) - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    )
    paths = [
        UnknownPathRead(
            path=row.path, hits=row.hits, first_seen=as_utc(row.first_seen), last_seen=as_utc(row.last_seen)
        )
        for row in rows
    ]
    return UnknownPathPageRead(paths=paths, total=total, page=int(page), page_size=PAGE_SIZE)
