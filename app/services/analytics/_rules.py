"""The analytics range: what a URL or CSV request may ask for (whole UTC days, at most MAX_DAYS, per day or
week), its clear refusals, and the one gate of every read (view_analytics)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.analytics import AnalyticsRange
from models.staff import Permission

GRANULARITIES = ("day", "week")
MAX_DAYS = 366
QUICK_DAYS = (7, 30, 90)
EARLIEST = date(2000, 1, 1)
TOP_ROWS = 50  # providers and ZIP codes listed, largest first
MAX_TOP_ROWS = 100

BAD_DATE = "Give the {which} date as YYYY-MM-DD."
BAD_ORDER = "The end date must be on or after the start date."
TOO_LONG = "Choose at most {days} days; this range has {got}."
TOO_EARLY = "Choose dates from 2000 onwards."
TOO_LATE = "Choose dates at most a year from today."
BAD_GRANULARITY = "Choose per day or per week."


def quick_range(days: int, *, today: date | None = None, granularity: str = "day") -> AnalyticsRange:
    """The last `days` days, today included."""
    today = today or datetime.now(UTC).date()
    return AnalyticsRange(start=today - timedelta(days=days - 1), end=today, granularity=granularity)


def _parse(text: str | date | None, which: str) -> date | None:
    if text is None or text == "":
        return None
    if isinstance(text, date):
        return text
    try:
        return date.fromisoformat(text.strip()) if len(text.strip()) == 10 else _bad(which)
    except ValueError:
        return _bad(which)


def _bad(which: str) -> date:
    raise ValidationFailed(BAD_DATE.format(which=which))


def parse_range(
    start: str | date | None,
    end: str | date | None,
    granularity: str | None = "day",
    *,
    today: date | None = None,
) -> AnalyticsRange:
    """The range `start`–`end` (inclusive; either missing: the last 30 days up to the other, or to today),
    checked; ValidationFailed with a message a person can act on otherwise."""
    today = today or datetime.now(UTC).date()
    granularity = granularity or "day"
    if granularity not in GRANULARITIES:
        raise ValidationFailed(BAD_GRANULARITY)
    first, last = _parse(start, "start"), _parse(end, "end")
    if last is None:
        last = today if first is None else min(first + timedelta(days=29), today + timedelta(days=366))
    if first is None:
        first = last - timedelta(days=29)
    return check_range(AnalyticsRange(start=first, end=last, granularity=granularity), today=today)


def check_range(chosen: AnalyticsRange, *, today: date | None = None) -> AnalyticsRange:
    today = today or datetime.now(UTC).date()
    if chosen.granularity not in GRANULARITIES:
        raise ValidationFailed(BAD_GRANULARITY)
    if chosen.end < chosen.start:
        raise ValidationFailed(BAD_ORDER)
    if chosen.start < EARLIEST:
        raise ValidationFailed(TOO_EARLY)
    if chosen.end > today + timedelta(days=366):
        raise ValidationFailed(TOO_LATE)
    if chosen.days > MAX_DAYS:
        raise ValidationFailed(TOO_LONG.format(days=MAX_DAYS, got=chosen.days))
    return chosen


def bounds(chosen: AnalyticsRange) -> tuple[datetime, datetime]:
    """The range as a half-open interval of UTC instants."""
    return (
        datetime.combine(chosen.start, time(), UTC),
        datetime.combine(chosen.end + timedelta(days=1), time(), UTC),
    )


async def require_analyst(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in staff member holding view_analytics; PermissionDenied for anyone else."""
    return await require_permission(session=session, actor=actor, permission=Permission.view_analytics)
