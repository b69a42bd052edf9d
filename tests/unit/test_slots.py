"""The slot generator: visit length, travel buffer, minimum notice, booking horizon, time off, the fixed
start-time grid, and daylight-saving changes in the provider's own time zone."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from app.services.errors import ValidationFailed
from app.services.providers import (
    Hours,
    Interval,
    SlotRules,
    check_hours,
    generate_slots,
    next_slot,
    parse_schedule,
    schedule_key,
)
from app.services.shared.clock import day_bounds

NY = "America/New_York"
WEEKDAYS_9_TO_5 = tuple(Hours(day, 9 * 60, 17 * 60) for day in range(5))
MONDAY = datetime(2030, 1, 7, 0, 0, tzinfo=UTC)  # Monday 7 Jan 2030, 19:00 Sunday in New York
RULES = SlotRules(
    duration_minutes=60, buffer_minutes=30, notice_minutes=120, horizon_days=30, step_minutes=30
)


def utc(day: int, hour: int, minute: int = 0, month: int = 1) -> datetime:
    return datetime(2030, month, day, hour, minute, tzinfo=UTC)


def slots(**kwargs) -> list[datetime]:  # noqa: ANN003
    arguments: dict[str, Any] = {"hours": WEEKDAYS_9_TO_5, "time_zone": NY, "now": MONDAY, "rules": RULES}
    arguments |= kwargs
    return list(generate_slots(**arguments))


def monday_slots(**kwargs) -> list[datetime]:  # noqa: ANN003
    start, end = day_bounds(MONDAY.date(), NY)
    return slots(not_before=start, before=end, **kwargs)


def test_slots_fill_the_working_day_on_a_half_hour_grid() -> None:
    found = monday_slots()
    assert found[0] == utc(7, 14)  # 9:00 in New York (EST, UTC-5)
    assert found[-1] == utc(7, 21)  # 16:00: a 60-minute visit must end by 17:00
    assert all(b - a == timedelta(minutes=30) for a, b in zip(found, found[1:], strict=False))
    assert len(found) == 15


def test_visit_length_decides_the_last_start() -> None:
    long_visit = SlotRules(duration_minutes=120, buffer_minutes=30, notice_minutes=120, horizon_days=30)
    assert monday_slots(rules=long_visit)[-1] == utc(7, 20)  # 15:00 + 2 h = 17:00


def test_minimum_notice() -> None:
    now = utc(7, 15, 10)  # 10:10 in New York: nothing before 12:10, so 12:30 is first
    assert next_slot(hours=WEEKDAYS_9_TO_5, time_zone=NY, now=now, rules=RULES) == utc(7, 17, 30)
    no_notice = SlotRules(duration_minutes=60, notice_minutes=0)
    assert next_slot(hours=WEEKDAYS_9_TO_5, time_zone=NY, now=now, rules=no_notice) == utc(7, 15, 30)


def test_after_hours_the_next_slot_is_the_next_working_morning() -> None:
    friday_evening = utc(11, 23)  # 18:00 Friday in New York
    assert next_slot(hours=WEEKDAYS_9_TO_5, time_zone=NY, now=friday_evening, rules=RULES) == utc(14, 14)


def test_booking_horizon() -> None:
    short = SlotRules(duration_minutes=60, notice_minutes=120, horizon_days=2)
    found = slots(rules=short)
    assert found[0] == utc(7, 14) and found[-1] <= MONDAY + timedelta(days=2)
    assert {slot.date() for slot in found} == {utc(7, 0).date(), utc(8, 0).date()}
    assert slots()[-1] <= MONDAY + timedelta(days=30)


def test_travel_buffer_around_a_visit() -> None:
    visit = Interval(utc(7, 16), utc(7, 17))  # 11:00–12:00 in New York
    found = monday_slots(busy=[visit])
    # A 60-minute visit must end 30 minutes before 11:00 and start 30 minutes after 12:00.
    assert utc(7, 15) not in found and utc(7, 14, 30) in found
    assert utc(7, 17) not in found and utc(7, 17, 30) in found
    no_buffer = SlotRules(duration_minutes=60, buffer_minutes=0)
    assert utc(7, 15) in monday_slots(busy=[visit], rules=no_buffer)


def test_time_off_blocks_without_a_buffer() -> None:
    afternoon_off = Interval(utc(7, 18), utc(7, 22))  # 13:00–17:00 in New York
    found = monday_slots(blocked=[afternoon_off])
    assert found[-1] == utc(7, 17)  # 12:00–13:00 still fits
    week_off = Interval(utc(7, 0), utc(12, 0))
    assert slots(blocked=[week_off])[0] == utc(14, 14)  # back on Monday the 14th


def test_busy_time_only_removes_starts_from_the_grid() -> None:
    """Starts stay on the window's grid after a visit: the first slot ignoring busy time is a lower bound."""
    visit = Interval(utc(7, 14), utc(7, 14, 45))  # 9:00–9:45; with the buffer free from 10:15
    found = monday_slots(busy=[visit])
    assert found[0] == utc(7, 15, 30)  # 10:30, the next grid point (not 10:15)
    assert set(found) <= set(monday_slots())


def test_split_shifts_and_no_hours() -> None:
    split = (Hours(0, 9 * 60, 12 * 60), Hours(0, 13 * 60, 17 * 60))
    found = monday_slots(hours=split)
    assert utc(7, 16, 30) not in found  # 11:30 would run into the lunch break
    assert utc(7, 18) in found  # 13:00
    assert slots(hours=()) == []


def test_spring_forward_keeps_wall_clock_hours() -> None:
    """US clocks go forward on Sunday 10 March 2030: 9:00 is 14:00 UTC before and 13:00 UTC after."""
    now = datetime(2030, 3, 8, 0, 0, tzinfo=UTC)
    every_day = tuple(Hours(day, 9 * 60, 17 * 60) for day in range(7))
    found = list(generate_slots(hours=every_day, time_zone=NY, now=now, rules=RULES))
    first_by_day: dict[date, datetime] = {}
    for slot in found:
        first_by_day.setdefault(slot.date(), slot)
    assert first_by_day[datetime(2030, 3, 9).date()] == datetime(2030, 3, 9, 14, 0, tzinfo=UTC)
    assert first_by_day[datetime(2030, 3, 10).date()] == datetime(2030, 3, 10, 13, 0, tzinfo=UTC)
    assert first_by_day[datetime(2030, 3, 11).date()] == datetime(2030, 3, 11, 13, 0, tzinfo=UTC)


def test_fall_back_keeps_wall_clock_hours() -> None:
    """US clocks go back on Sunday 3 November 2030: 16:00 in New York is 20:00 UTC before, 21:00 after."""
    now = datetime(2030, 11, 1, 0, 0, tzinfo=UTC)
    every_day = tuple(Hours(day, 9 * 60, 17 * 60) for day in range(7))
    found = list(generate_slots(hours=every_day, time_zone=NY, now=now, rules=RULES))
    last_by_day = {}
    for slot in found:
        last_by_day[slot.date()] = slot
    assert last_by_day[datetime(2030, 11, 2).date()] == datetime(2030, 11, 2, 20, 0, tzinfo=UTC)
    assert last_by_day[datetime(2030, 11, 4).date()] == datetime(2030, 11, 4, 21, 0, tzinfo=UTC)


def test_day_bounds_are_23_or_25_hours_on_dst_days() -> None:
    start, end = day_bounds(datetime(2030, 3, 10).date(), NY)
    assert end - start == timedelta(hours=23)
    start, end = day_bounds(datetime(2030, 11, 3).date(), NY)
    assert end - start == timedelta(hours=25)


def test_other_zones() -> None:
    """The same 9–5 in Los Angeles starts three hours later in UTC."""
    found = slots(time_zone="America/Los_Angeles")
    assert found[0] == utc(7, 17)


def test_schedule_key_round_trips() -> None:
    key = schedule_key(reversed(WEEKDAYS_9_TO_5))
    assert key.startswith("0:540-1020;1:540-1020")
    assert parse_schedule(key) == WEEKDAYS_9_TO_5
    assert parse_schedule("") == ()


@pytest.mark.parametrize(
    "hours",
    [
        [Hours(7, 540, 600)],
        [Hours(0, 600, 540)],
        [Hours(0, 0, 1441)],
        [Hours(0, 540, 720), Hours(0, 700, 800)],
    ],
)
def test_bad_hours_are_refused(hours: list[Hours]) -> None:
    with pytest.raises(ValidationFailed):
        check_hours(hours)
