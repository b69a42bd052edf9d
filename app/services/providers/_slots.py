"""The slot generator: when a provider can start a visit, as a pure function of their weekly hours (in their
own time zone), the time they are blocked, the visit length and the booking rules.

- Weekly hours are wall-clock times in the provider's zone, so 9:00–17:00 stays 9:00–17:00 across a
  daylight-saving change (its UTC times move instead). Everything returned is UTC.
- `busy` intervals are visits (later: booked appointments): a travel buffer is kept free before and after
  each. `blocked` intervals (time off) are simply unavailable.
- Start times are offered on a grid of `step` minutes from the start of each working window (rounded up
  to a quarter hour), so the grid depends neither on the moment of the request nor on what is booked: busy
  time only ever removes starts. That makes the first slot ignoring busy time a lower bound of the real
  one, which search uses to rank many providers cheaply. A start must be at least `notice` ahead of now
  and at most `horizon` ahead.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import ParamSpec
from zoneinfo import ZoneInfo

from app.services.shared.clock import zone

P = ParamSpec("P")

QUARTER = timedelta(minutes=15)


@dataclass(frozen=True)
class Hours:
    """Working hours on one weekday (0 = Monday), as minutes after local midnight; end ≤ 1440."""

    weekday: int
    start_minute: int
    end_minute: int


@dataclass(frozen=True)
class Interval:
    start: datetime
    end: datetime


@dataclass(frozen=True)
class SlotRules:
    duration_minutes: int
    buffer_minutes: int = 30
    notice_minutes: int = 120
    horizon_days: int = 30
    step_minutes: int = 30


def _local_to_utc(day: date, minute: int, tz: ZoneInfo) -> datetime:
    """Wall-clock `minute` after midnight of `day` in `tz`, as UTC (aware arithmetic is wall-clock)."""
    midnight = datetime(day.year, day.month, day.day, tzinfo=tz)
    return (midnight + timedelta(minutes=minute)).astimezone(UTC)


def _ceil_quarter(moment: datetime) -> datetime:
    floor = moment.replace(minute=moment.minute - moment.minute % 15, second=0, microsecond=0)
    return floor if floor == moment else floor + QUARTER


def _merge(intervals: Iterable[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    merged: list[tuple[datetime, datetime]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _free(
    start: datetime, end: datetime, blocks: list[tuple[datetime, datetime]], block_ends: list[datetime]
) -> Iterator[tuple[datetime, datetime]]:
    """Parts of [start, end) not covered by the merged, sorted `blocks`."""
    index = bisect_right(block_ends, start)
    cursor = start
    while index < len(blocks) and blocks[index][0] < end:
        block_start, block_end = blocks[index]
        if block_start > cursor:
            yield cursor, block_start
        cursor = max(cursor, block_end)
        index += 1
    if cursor < end:
        yield cursor, end


def _bounds(
    now: datetime, rules: SlotRules, not_before: datetime | None, before: datetime | None
) -> tuple[datetime, datetime]:
    """The first and last (inclusive) start allowed: notice and horizon, narrowed to [not_before, before)."""
    earliest = now + timedelta(minutes=rules.notice_minutes)
    latest = now + timedelta(days=rules.horizon_days)
    if not_before is not None and not_before > earliest:
        earliest = not_before
    if before is not None and before - timedelta(microseconds=1) < latest:
        latest = before - timedelta(microseconds=1)
    return earliest, latest


def _windows(
    hours: Sequence[Hours], tz: ZoneInfo, earliest: datetime, latest: datetime, duration: timedelta
) -> Iterator[tuple[datetime, datetime]]:
    """Working windows (UTC, in order) that could hold a visit starting in [earliest, latest]."""
    by_weekday: dict[int, list[Hours]] = {}
    for h in sorted(hours, key=lambda h: (h.weekday, h.start_minute)):
        by_weekday.setdefault(h.weekday, []).append(h)
    day = earliest.astimezone(tz).date() - timedelta(days=1)  # a window may start the evening before
    last_day = latest.astimezone(tz).date()
    while day <= last_day:
        for h in by_weekday.get(day.weekday(), ()):
            window_start = _local_to_utc(day, h.start_minute, tz)
            if window_start > latest:
                return
            window_end = _local_to_utc(day, h.end_minute, tz)
            if window_end - duration >= earliest:
                yield window_start, window_end
        day += timedelta(days=1)


def generate_slots(
    *,
    hours: Sequence[Hours],
    time_zone: str,
    now: datetime,
    rules: SlotRules,
    busy: Iterable[Interval] = (),
    blocked: Iterable[Interval] = (),
    not_before: datetime | None = None,
    before: datetime | None = None,
) -> Iterator[datetime]:
    """Start times (UTC, ascending) of visits of `rules.duration_minutes` the provider can take.

    Only starts in [max(now + notice, not_before), min(now + horizon, before)) are produced; the generator
    is lazy, so `next(generate_slots(...), None)` costs about one working day.
    """
    duration = timedelta(minutes=rules.duration_minutes)
    step = timedelta(minutes=rules.step_minutes)
    buffer = timedelta(minutes=rules.buffer_minutes)
    earliest, latest = _bounds(now, rules, not_before, before)
    if earliest > latest or not hours:
        return
    blocks = _merge([(b.start - buffer, b.end + buffer) for b in busy] + [(b.start, b.end) for b in blocked])
    block_ends = [end for _start, end in blocks]
    for window_start, window_end in _windows(hours, zone(time_zone), earliest, latest, duration):
        grid = _ceil_quarter(window_start)
        for free_start, free_end in _free(window_start, window_end, blocks, block_ends):
            # the first grid point at or after the free start and the earliest start allowed
            moment = grid + step * max(0, -((grid - max(free_start, earliest)) // step))
            while moment + duration <= free_end:
                if moment > latest:
                    return
                yield moment
                moment += step


def _first_of(slots: Callable[P, Iterator[datetime]]) -> Callable[P, datetime | None]:
    def first(*args: P.args, **kwargs: P.kwargs) -> datetime | None:
        return next(slots(*args, **kwargs), None)

    first.__doc__ = f"The first slot `{slots.__name__}` would offer, or None."
    return first


next_slot = _first_of(generate_slots)  # the same keyword arguments


def schedule_key(hours: Iterable[Hours]) -> str:
    """Weekly hours as a short text ('0:540-1020;1:540-1020'), cached on the provider row for search."""
    return ";".join(
        f"{h.weekday}:{h.start_minute}-{h.end_minute}"
        for h in sorted(hours, key=lambda h: (h.weekday, h.start_minute))
    )


@lru_cache(maxsize=4096)
def parse_schedule(key: str) -> tuple[Hours, ...]:
    hours = []
    for part in filter(None, (key or "").split(";")):
        weekday, _, span = part.partition(":")
        start, _, end = span.partition("-")
        hours.append(Hours(int(weekday), int(start), int(end)))
    return tuple(hours)
