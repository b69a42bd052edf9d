"""Provider utilisation: booked visit time against offered weekly hours, per period and per provider, for
the providers listed today (definitions: the package docstring).

Offered time needs no row per day: the weekly hours are summed per weekday in SQL (seven rows; per provider,
one CASE weighting each weekday by how many times it occurs in the range), and booked time is one GROUP BY
over the (status, starts_at) index joined to the listed providers."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime

from sqlalchemy import ColumnElement, and_, case, func, literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.analytics._rules import MAX_TOP_ROWS, TOP_ROWS, bounds, check_range, require_analyst
from app.services.analytics._sql import as_date, minutes_between, weekdays_by_period
from app.services.shared.periods import period_of
from models.analytics import AnalyticsRange, ProviderUseRead
from models.booking import Appointment, AppointmentStatus
from models.provider import LISTED_CONDITIONS, Provider, WeeklyHours

BOOKED_STATUSES = (
    AppointmentStatus.pending,
    AppointmentStatus.confirmed,
    AppointmentStatus.in_progress,
    AppointmentStatus.completed,
)
A = Appointment


def _booked_in(since: datetime, until: datetime) -> ColumnElement[bool]:
    return and_(A.status.in_(BOOKED_STATUSES), A.starts_at >= since, A.starts_at < until)


def _visit_minutes(dialect: str) -> ColumnElement[float]:
    return func.round(minutes_between(A.ends_at, A.starts_at, dialect))


async def utilisation_by_period(session: AsyncSession, chosen: AnalyticsRange) -> dict[date, dict[str, int]]:
    """{period: {booked_minutes, offered_minutes}} for every period of the range."""
    since, until = bounds(chosen)
    dialect = session.get_bind().dialect.name
    weekly = dict(
        (
            await session.execute(
                select(WeeklyHours.weekday, func.sum(WeeklyHours.end_minute - WeeklyHours.start_minute))
                .join(Provider, Provider.id == WeeklyHours.provider_id)
                .where(*LISTED_CONDITIONS)
                .group_by(WeeklyHours.weekday)
            )
        ).all()
    )
    found = {
        start: {
            "booked_minutes": 0,
            "offered_minutes": sum(int(weekly.get(day, 0) or 0) * n for day, n in counts.items()),
        }
        for start, counts in weekdays_by_period(chosen).items()
    }
    booked_period = period_of(A.starts_at, chosen.granularity, dialect).label("period")
    rows = await session.execute(
        select(booked_period, func.coalesce(func.sum(_visit_minutes(dialect)), 0))
        .join(Provider, Provider.id == A.provider_id)
        .where(_booked_in(since, until), *LISTED_CONDITIONS)
        .group_by(booked_period)
    )
    for start, minutes in rows:
        found.setdefault(as_date(start), {"offered_minutes": 0})["booked_minutes"] = int(minutes)
    return found


async def list_provider_utilisation(
    *, session: AsyncSession, actor: Principal, dates: AnalyticsRange, limit: int = TOP_ROWS
) -> list[ProviderUseRead]:
    """Staff (view_analytics): the listed providers with the most booked visit time in the range (at most
    `limit`, ≤ 100), with their offered time; ties by name."""
    await require_analyst(session=session, actor=actor)
    chosen = check_range(dates)
    since, until = bounds(chosen)
    dialect = session.get_bind().dialect.name
    days: Counter[int] = Counter()
    for counts in weekdays_by_period(chosen).values():
        days.update(counts)
    weight = case(*((WeeklyHours.weekday == day, literal(n)) for day, n in days.items()), else_=literal(0))
    offered = (
        select(
            WeeklyHours.provider_id.label("provider_id"),
            func.sum((WeeklyHours.end_minute - WeeklyHours.start_minute) * weight).label("minutes"),
        )
        .group_by(WeeklyHours.provider_id)
        .subquery()
    )
    booked = (
        select(
            A.provider_id.label("provider_id"),
            func.count().label("visits"),
            func.sum(_visit_minutes(dialect)).label("minutes"),
        )
        .where(_booked_in(since, until))
        .group_by(A.provider_id)
        .subquery()
    )
    booked_minutes = func.coalesce(booked.c.minutes, 0)
    rows = await session.execute(
        select(
            Provider.id,
            Provider.first_name,
            Provider.last_name,
            func.coalesce(booked.c.visits, 0),
            booked_minutes,
            func.coalesce(offered.c.minutes, 0),
        )
        .outerjoin(offered, offered.c.provider_id == Provider.id)
        .outerjoin(booked, booked.c.provider_id == Provider.id)
        .where(*LISTED_CONDITIONS, (offered.c.minutes > 0) | (booked.c.visits > 0))
        .order_by(booked_minutes.desc(), Provider.first_name, Provider.last_name, Provider.id)
        .limit(min(max(int(limit), 1), MAX_TOP_ROWS))
    )
    return [
        ProviderUseRead(
            provider_id=pid,
            name=" ".join(part for part in (first, last) if part),
            visits=int(visits),
            booked_minutes=int(minutes),
            offered_minutes=int(offered_minutes),
        )
        for pid, first, last, visits, minutes, offered_minutes in rows
    ]
