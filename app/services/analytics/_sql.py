"""SQL pieces shared by the analytics reads, the same on SQLite and PostgreSQL (a value's period is
app/services/shared/periods.py's): the minutes between two instants, the periods of a range and its weekdays."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import Float, SQLColumnExpression, cast, extract, func
from sqlalchemy.sql.elements import ColumnElement

from models.analytics import AnalyticsRange


def minutes_between(
    later: SQLColumnExpression[datetime], earlier: SQLColumnExpression[datetime], dialect: str
) -> ColumnElement[float | Decimal]:
    """`later - earlier` in minutes (a float) in SQL."""
    if dialect == "postgresql":
        return extract("epoch", later - earlier) / 60.0
    return cast((func.julianday(later) - func.julianday(earlier)) * 1440.0, Float)


def as_date(value: object) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def period_start(day: date, granularity: str) -> date:
    return day - timedelta(days=day.weekday()) if granularity == "week" else day


def periods(chosen: AnalyticsRange) -> list[date]:
    """The first day of every period touching the range, oldest first."""
    starts: list[date] = []
    day = chosen.start
    while day <= chosen.end:
        start = period_start(day, chosen.granularity)
        if not starts or starts[-1] != start:
            starts.append(start)
        day += timedelta(days=1)
    return starts


def weekdays_by_period(chosen: AnalyticsRange) -> dict[date, Counter[int]]:
    """For each period, how many of the range's days fall on each weekday (0 = Monday)."""
    found: dict[date, Counter[int]] = {}
    day = chosen.start
    while day <= chosen.end:
        found.setdefault(period_start(day, chosen.granularity), Counter())[day.weekday()] += 1
        day += timedelta(days=1)
    return found
