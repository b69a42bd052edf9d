"""The clock (now and today in UTC, or the moment a caller passes, so tests and jobs can inject one) and
calendar days and wall-clock time in a named time zone (IANA names, as providers and staff store them)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def day_bounds(day: date, time_zone: str) -> tuple[datetime, datetime]:
    """The UTC start and end of a calendar day in a time zone (23 or 25 hours long on DST days)."""
    tz = zone(time_zone)
    start = datetime.combine(day, time(), tz)
    end = datetime.combine(day + timedelta(days=1), time(), tz)
    return start.astimezone(UTC), end.astimezone(UTC)


def current_time(now: datetime | None) -> datetime:
    """`now` (or the current time when None), in UTC."""
    return (now or datetime.now(UTC)).astimezone(UTC)


def today_utc(now: datetime | None = None) -> date:
    """The UTC calendar day of `now` (default: the current time)."""
    return current_time(now).date()
