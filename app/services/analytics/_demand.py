"""Unmet demand: searches with a ZIP code that found no provider, counted per ZIP per UTC day (one upsert
by provider search, `record_unmet_search`), and read back per ZIP and per period."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.analytics._rules import MAX_TOP_ROWS, TOP_ROWS, check_range, require_analyst
from app.services.analytics._sql import as_date
from app.services.shared.periods import period_of
from models.analytics import AnalyticsRange, UnmetSearchDay, UnmetZipRead

U = UnmetSearchDay


async def record_unmet_search(session: AsyncSession, *, zip_code: str, now: datetime | None = None) -> None:
    """Count one search for `zip_code` (five digits) that found no provider, on today's UTC row. Written
    by provider search itself, so no screen can forget it; concurrent searches add up (one atomic upsert)."""
    day = (now or datetime.now(UTC)).astimezone(UTC).date()
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    statement = insert(U).values(day=day, zip_code=zip_code, searches=1)
    await session.execute(
        statement.on_conflict_do_update(index_elements=[U.day, U.zip_code], set_={"searches": U.searches + 1})
    )


async def unmet_by_period(session: AsyncSession, chosen: AnalyticsRange) -> dict[date, int]:
    dialect = session.get_bind().dialect.name
    start = period_of(U.day, chosen.granularity, dialect, is_date=True).label("period")
    rows = await session.execute(
        select(start, func.sum(U.searches)).where(U.day >= chosen.start, U.day <= chosen.end).group_by(start)
    )
    return {as_date(first): int(total) for first, total in rows}


async def list_unmet_demand(
    *, session: AsyncSession, actor: Principal, dates: AnalyticsRange, limit: int = TOP_ROWS
) -> list[UnmetZipRead]:
    """Staff (view_analytics): the ZIP codes searched most often without finding a provider in the range
    (at most `limit`, ≤ 100), with on how many days; ties by ZIP."""
    await require_analyst(session=session, actor=actor)
    chosen = check_range(dates)
    searches = func.sum(U.searches).label("searches")
    rows = await session.execute(
        select(U.zip_code, searches, func.count())
        .where(U.day >= chosen.start, U.day <= chosen.end)
        .group_by(U.zip_code)
        .order_by(searches.desc(), U.zip_code)
        .limit(min(max(int(limit), 1), MAX_TOP_ROWS))
    )
    return [UnmetZipRead(zip_code=z, searches=int(n), days=int(d)) for z, n, d in rows]
