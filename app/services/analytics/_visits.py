"""Visits per period: booked, due, completed and cancelled, and the patients seen (new and returning) —
each one GROUP BY over an indexed range of appointments (definitions: the package docstring)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import ColumnElement, Subquery, and_, case, distinct, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.analytics._rules import bounds
from app.services.analytics._sql import as_date
from app.services.shared.periods import period_of
from models.analytics import AnalyticsRange
from models.booking import Appointment, AppointmentStatus

VISIT_STATUSES = tuple(s for s in AppointmentStatus if s is not AppointmentStatus.held)
A = Appointment


def _dialect(session: AsyncSession) -> str:
    return session.get_bind().dialect.name


async def visit_counts(session: AsyncSession, chosen: AnalyticsRange) -> dict[date, dict[str, int]]:
    """{period: {booked, due, completed, cancelled}} for the periods where anything happened."""
    since, until = bounds(chosen)
    dialect = _dialect(session)
    found: dict[date, dict[str, int]] = {}

    booked_period = period_of(A.created_at, chosen.granularity, dialect).label("period")
    booked = await session.execute(
        select(booked_period, func.count())
        # `!=`, not IN: the created_at index is the range to read, whatever the planner knows of status.
        .where(A.status != AppointmentStatus.held, A.created_at >= since, A.created_at < until)
        .group_by(booked_period)
    )
    for start, count in booked:
        found.setdefault(as_date(start), {})["booked"] = int(count)

    due_period = period_of(A.starts_at, chosen.granularity, dialect).label("period")

    def count_of(status: AppointmentStatus) -> ColumnElement[int]:
        return func.coalesce(func.sum(case((A.status == status, 1), else_=0)), 0)

    due = await session.execute(
        select(
            due_period,
            func.count(),
            count_of(AppointmentStatus.completed),
            count_of(AppointmentStatus.cancelled),
        )
        .where(A.status.in_(VISIT_STATUSES), A.starts_at >= since, A.starts_at < until)
        .group_by(due_period)
    )
    for start, total, completed, cancelled in due:
        found.setdefault(as_date(start), {}).update(
            due=int(total), completed=int(completed), cancelled=int(cancelled)
        )
    return found


def _completed_in(since: datetime, until: datetime) -> ColumnElement[bool]:
    return and_(A.status == AppointmentStatus.completed, A.starts_at >= since, A.starts_at < until)


def _first_visits(since: datetime, until: datetime) -> Subquery:
    """Each patient seen in the range with their first completed visit ever (index-only: status,
    patient_id, starts_at)."""
    seen = select(A.patient_id).where(_completed_in(since, until))
    return (
        select(A.patient_id.label("patient_id"), func.min(A.starts_at).label("first_at"))
        .where(A.status == AppointmentStatus.completed, A.patient_id.in_(seen))
        .group_by(A.patient_id)
        .subquery()
    )


async def patient_counts(
    session: AsyncSession, chosen: AnalyticsRange
) -> tuple[dict[date, dict[str, int]], dict[str, int]]:
    """({period: {patients, new_patients}}, the whole range's {patients, new_patients}), each patient
    counted once per period and once over the range."""
    since, until = bounds(chosen)
    dialect = _dialect(session)
    found: dict[date, dict[str, int]] = {}

    seen_period = period_of(A.starts_at, chosen.granularity, dialect).label("period")
    seen = await session.execute(
        select(seen_period, func.count(distinct(A.patient_id)))
        .where(_completed_in(since, until))
        .group_by(seen_period)
    )
    for start, count in seen:
        found.setdefault(as_date(start), {})["patients"] = int(count)

    first = _first_visits(since, until)
    new_period = period_of(first.c.first_at, chosen.granularity, dialect).label("period")
    new = await session.execute(
        select(new_period, func.count())
        .select_from(first)
        .where(first.c.first_at >= since, first.c.first_at < until)
        .group_by(new_period)
    )
    for start, count in new:
        found.setdefault(as_date(start), {})["new_patients"] = int(count)

    whole = (
        await session.execute(
            select(
                func.count(),
                func.coalesce(func.sum(case((first.c.first_at >= since, 1), else_=0)), 0),
            ).select_from(first)
        )
    ).one()
    return found, {"patients": int(whole[0]), "new_patients": int(whole[1])}
