"""Help-desk volume and timeliness per period (tickets opened, first responses and resolutions against their
due times) and the medians of first-response and resolution times, in SQL on both databases (definitions
and the median method: the package docstring)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from app.services.analytics._rules import bounds
from app.services.analytics._sql import as_date, minutes_between
from app.services.shared.periods import period_of
from models.analytics import AnalyticsRange
from models.support import Ticket

T = Ticket


def _resolved() -> ColumnElement[bool]:
    """Resolved or closed now: `closed_at` is set exactly then (support's `apply_status`), so the
    created_at index stays the one range read."""
    return T.closed_at.is_not(None)


def _sum(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


async def ticket_counts(session: AsyncSession, chosen: AnalyticsRange) -> dict[date, dict[str, int]]:
    """{period: {tickets, first_responses, first_responses_on_time, resolved, resolved_on_time}}."""
    since, until = bounds(chosen)
    opened = period_of(T.created_at, chosen.granularity, session.get_bind().dialect.name).label("period")
    rows = await session.execute(
        select(
            opened,
            func.count(),
            _sum(T.first_responded_at.is_not(None)),
            _sum(T.first_responded_at <= T.first_response_due_at),
            _sum(_resolved()),
            _sum(and_(_resolved(), T.closed_at <= T.resolution_due_at)),
        )
        .where(T.created_at >= since, T.created_at < until)
        .group_by(opened)
    )
    keys = ("tickets", "first_responses", "first_responses_on_time", "resolved", "resolved_on_time")
    return {as_date(start): dict(zip(keys, map(int, counts), strict=True)) for start, *counts in rows}


async def median_minutes(session: AsyncSession, chosen: AnalyticsRange, *, until_column: str) -> float | None:
    """The median minutes from opening to `until_column` ('first_responded_at' or 'closed_at') over the
    tickets opened in the range that have it (resolution: resolved or closed now); None when there are none."""
    since, until = bounds(chosen)
    dialect = session.get_bind().dialect.name
    end = getattr(T, until_column)
    minutes = minutes_between(end, T.created_at, dialect)
    conditions = [T.created_at >= since, T.created_at < until, end.is_not(None)]
    if dialect == "postgresql":
        value = await session.scalar(
            select(func.percentile_cont(0.5).within_group(minutes)).where(*conditions)
        )
        return None if value is None else round(float(value), 2)
    count = await session.scalar(select(func.count()).where(*conditions)) or 0
    if not count:
        return None
    middle = (
        await session.scalars(
            select(minutes).where(*conditions).order_by(minutes).limit(2 - count % 2).offset((count - 1) // 2)
        )
    ).all()
    return round(sum(float(m) for m in middle) / len(middle), 2)
