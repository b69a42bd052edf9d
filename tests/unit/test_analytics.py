"""Staff analytics (`app.services.analytics`, issue 15 part 2) on SQLite and, with TEST_DATABASE_URL,
PostgreSQL.

Generated data (a fixed random seed): visits of every status before, inside and after the range, with
listed and unlisted providers; tickets answered and resolved early or late; unmet searches on days inside
and outside the range. Every figure the services return is checked against a count made here in Python
from what was inserted (the expected values never come from the code under test), per day and per week.
The permission matrix runs every read as each role.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlalchemy import event, select

from app import db as app_db
from app.principal import SYSTEM, Principal
from app.services.analytics import (
    get_analytics,
    list_provider_utilisation,
    list_unmet_demand,
    parse_range,
    quick_range,
)
from app.services.analytics._demand import record_unmet_search
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.providers import search_providers
from models.account import Role
from models.analytics import AnalyticsRange, UnmetSearchDay
from models.booking import Appointment, AppointmentStatus
from models.catalog import Service
from models.provider import ProviderQuery, ServiceLocation
from models.staff import Permission
from models.support import Ticket, TicketPriority, TicketStatus
from tests.factories import Hours, person, provider, run

START, END = date(2026, 3, 4), date(2026, 4, 14)  # a Wednesday to a Tuesday: partial weeks at both ends
RANGE_DAYS = (END - START).days + 1
S = AppointmentStatus
BOOKED = (S.pending, S.confirmed, S.in_progress, S.completed)


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), UTC)


def _week(day: date) -> date:
    return day - timedelta(days=day.weekday())


@dataclass
class Visit:
    patient: str
    provider: str
    status: AppointmentStatus
    starts_at: datetime
    minutes: int
    created_at: datetime


@dataclass
class World:
    analyst: Principal
    visits: list[Visit]
    listed: dict[str, list[tuple[int, int, int]]]  # provider id -> weekly hours
    tickets: list[Ticket]
    unmet: list[tuple[date, str, int]]


async def build_world() -> World:
    rng = random.Random(15)
    hours_a = [Hours(d, 9 * 60, 17 * 60) for d in range(5)]
    hours_b = [Hours(0, 8 * 60, 12 * 60), Hours(2, 13 * 60, 19 * 60), Hours(5, 10 * 60, 14 * 60)]
    a = await provider("Ada Nurse", hours=hours_a)
    b = await provider("Bea Phleb", hours=hours_b)
    c = await provider("Cy Idle", hours=[Hours(6, 600, 720)])  # listed, no visits
    hidden = await provider("Dee Hidden", hours=hours_a, verified=False)  # not listed: left out
    patients = [(await person(Role.patient, f"Patient {n}")).account.id for n in range(6)]
    analyst = (await person(Role.management, "Mia Manager")).actor

    used: set[tuple[str, date, int]] = set()
    visits: list[Visit] = []
    first_day = START - timedelta(days=45)
    while len(visits) < 220:
        who = rng.choice((a, b, hidden))
        day = first_day + timedelta(days=rng.randrange((END - first_day).days + 12))
        hour = rng.randrange(0, 23)
        if (who, day, hour) in used:
            continue
        used.add((who, day, hour))
        starts = _at(day, hour)
        status = rng.choice(
            (S.held, S.pending, S.confirmed, S.in_progress, S.completed, S.completed, S.cancelled)
        )
        created = starts - timedelta(days=rng.randrange(0, 20), minutes=rng.randrange(0, 1440))
        patient = rng.choice(patients)
        if patient in patients[4:] and day < START + timedelta(days=7):
            patient = patients[0]  # two newcomers: their first visits fall inside the range
        visits.append(Visit(patient, who, status, starts, rng.choice((30, 45, 60)), created))

    async with app_db.unit_of_work() as session:
        service_id = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
        for v in visits:
            session.add(
                Appointment(
                    patient_id=v.patient,
                    provider_id=v.provider,
                    service_id=service_id,
                    status=v.status,
                    starts_at=v.starts_at,
                    ends_at=v.starts_at + timedelta(minutes=v.minutes),
                    busy_until=v.starts_at + timedelta(minutes=v.minutes),
                    location=ServiceLocation.home,
                    price=79,
                    original_price=79,
                    created_at=v.created_at,
                )
            )

        tickets = []
        for number in range(1, 91):
            opened = _at(START - timedelta(days=5), 0) + timedelta(minutes=rng.randrange(0, 60 * 24 * 55))
            priority = rng.choice(list(TicketPriority))
            ticket_status = rng.choice(list(TicketStatus))
            answered = None if rng.random() < 0.3 else opened + timedelta(minutes=rng.randrange(1, 1800))
            closed = (
                opened + timedelta(minutes=rng.randrange(30, 6000))
                if ticket_status in (TicketStatus.resolved, TicketStatus.closed)
                else None
            )
            ticket = Ticket(
                number=10_000 + number,
                user_id=rng.choice(patients),
                subject=f"Question {number}",
                description="Generated",
                status=ticket_status,
                priority=priority,
                first_response_due_at=opened + timedelta(hours=8),
                resolution_due_at=opened + timedelta(hours=48),
                first_responded_at=answered,
                closed_at=closed,
                created_at=opened,
                updated_at=opened,
            )
            session.add(ticket)
            tickets.append(ticket)

        unmet = []
        for _ in range(40):
            day = START - timedelta(days=3) + timedelta(days=rng.randrange(RANGE_DAYS + 6))
            zip_code = rng.choice(("99501", "59001", "82001", "05401"))
            for _n in range(rng.randrange(1, 4)):
                await record_unmet_search(session, zip_code=zip_code, now=_at(day, rng.randrange(24)))
                unmet.append((day, zip_code, 1))
    listed = {
        a: [(h.weekday, h.start_minute, h.end_minute) for h in hours_a],
        b: [(h.weekday, h.start_minute, h.end_minute) for h in hours_b],
        c: [(6, 600, 720)],
    }
    return World(analyst, visits, listed, tickets, unmet)


@pytest.fixture
async def world(identity, world_once) -> World:
    return await world_once(build_world)


def _in_range(moment: datetime) -> bool:
    return START <= moment.date() <= END


def _key(moment: datetime | date, granularity: str) -> date:
    day = moment.date() if isinstance(moment, datetime) else moment
    return _week(day) if granularity == "week" else day


def _expected(world: World, granularity: str) -> dict[date, Counter]:
    """Every figure per period, counted here from the generated rows."""
    out: dict[date, Counter] = defaultdict(Counter)
    visits = [v for v in world.visits if v.status is not S.held]
    for v in visits:
        if _in_range(v.created_at):
            out[_key(v.created_at, granularity)]["booked"] += 1
        if _in_range(v.starts_at):
            k = _key(v.starts_at, granularity)
            out[k]["due"] += 1
            out[k]["completed"] += v.status is S.completed
            out[k]["cancelled"] += v.status is S.cancelled
            if v.status in BOOKED and v.provider in world.listed:
                out[k]["booked_minutes"] += v.minutes
    first_visit: dict[str, datetime] = {}
    seen: dict[date, set[str]] = defaultdict(set)
    for v in sorted(visits, key=lambda v: v.starts_at):
        if v.status is S.completed:
            first_visit.setdefault(v.patient, v.starts_at)
            if _in_range(v.starts_at):
                seen[_key(v.starts_at, granularity)].add(v.patient)
    for k, who in seen.items():
        out[k]["patients"] = len(who)
    for when in first_visit.values():
        if _in_range(when):
            out[_key(when, granularity)]["new_patients"] += 1
    day = START
    while day <= END:
        for hours in world.listed.values():
            for weekday, begin, end in hours:
                if weekday == day.weekday():
                    out[_key(day, granularity)]["offered_minutes"] += end - begin
        day += timedelta(days=1)
    for day, _zip, n in world.unmet:
        if START <= day <= END:
            out[_key(day, granularity)]["unmet_searches"] += n
    for t in world.tickets:
        if _in_range(t.created_at):
            k = _key(t.created_at, granularity)
            out[k]["tickets"] += 1
            out[k]["first_responses"] += t.first_responded_at is not None
            out[k]["first_responses_on_time"] += (
                t.first_responded_at is not None and t.first_responded_at <= t.first_response_due_at
            )
            out[k]["resolved"] += t.closed_at is not None
            out[k]["resolved_on_time"] += t.closed_at is not None and t.closed_at <= t.resolution_due_at
    return out


FIGURES = (
    "booked",
    "due",
    "completed",
    "cancelled",
    "patients",
    "new_patients",
    "booked_minutes",
    "offered_minutes",
    "unmet_searches",
    "tickets",
    "first_responses",
    "first_responses_on_time",
    "resolved",
    "resolved_on_time",
)


@pytest.mark.parametrize("granularity", ["day", "week"])
async def test_every_figure_matches_an_independent_count(world, granularity) -> None:
    report = await run(
        get_analytics,
        actor=world.analyst,
        dates=AnalyticsRange(start=START, end=END, granularity=granularity),
    )
    expected = _expected(world, granularity)
    keys = sorted({_key(START + timedelta(days=n), granularity) for n in range(RANGE_DAYS)})
    assert [r.period for r in report.rows] == keys  # every period listed, zeros included
    assert set(expected) <= set(keys)
    for row in report.rows:
        for name in FIGURES:
            assert getattr(row, name) == expected[row.period][name], (row.period, name)
    # The data is not trivial: each figure is non-zero somewhere.
    for name in FIGURES:
        assert sum(getattr(r, name) for r in report.rows) > 0, name
    for name in FIGURES:
        if name not in ("patients", "new_patients"):
            assert getattr(report.totals, name) == sum(expected[k][name] for k in keys), name


async def test_patients_over_the_whole_range_are_counted_once(world) -> None:
    report = await run(get_analytics, actor=world.analyst, dates=AnalyticsRange(start=START, end=END))
    done = sorted((v for v in world.visits if v.status is S.completed), key=lambda v: v.starts_at)
    seen = {v.patient for v in done if _in_range(v.starts_at)}
    first: dict[str, datetime] = {}
    for v in done:
        first.setdefault(v.patient, v.starts_at)
    new = {p for p in seen if _in_range(first[p])}
    assert report.totals.patients == len(seen) > 0
    assert report.totals.new_patients == len(new)
    assert report.totals.returning_patients == len(seen - new) > 0
    # Summed over the days a patient seen on two days counts twice; over the range once.
    assert sum(r.patients for r in report.rows) > report.totals.patients


async def test_medians_of_response_and_resolution_times(world) -> None:
    report = await run(get_analytics, actor=world.analyst, dates=AnalyticsRange(start=START, end=END))
    opened = [t for t in world.tickets if _in_range(t.created_at)]

    def minutes(later: datetime, earlier: datetime) -> float:
        return (later - earlier).total_seconds() / 60

    responses = [minutes(t.first_responded_at, t.created_at) for t in opened if t.first_responded_at]
    resolutions = [minutes(t.closed_at, t.created_at) for t in opened if t.closed_at]
    assert report.median_first_response_minutes == pytest.approx(statistics.median(responses), abs=0.02)
    assert report.median_resolution_minutes == pytest.approx(statistics.median(resolutions), abs=0.02)
    # Odd and even counts (the middle value, the mean of the two): ranges ending on successive days.
    parities = set()
    for cut in range(1, 6):
        shorter = AnalyticsRange(start=START, end=END - timedelta(days=cut))
        fewer = [t for t in opened if t.created_at.date() <= shorter.end and t.first_responded_at]
        parities.add(len(fewer) % 2)
        again = await run(get_analytics, actor=world.analyst, dates=shorter)
        assert again.median_first_response_minutes == pytest.approx(
            statistics.median(minutes(t.first_responded_at, t.created_at) for t in fewer), abs=0.02
        )
    assert parities == {0, 1}


async def test_a_range_with_nothing_says_so_with_zeros_and_no_medians(world) -> None:
    empty = AnalyticsRange(start=date(2020, 1, 1), end=date(2020, 1, 7), granularity="day")
    report = await run(get_analytics, actor=world.analyst, dates=empty)
    assert len(report.rows) == 7
    assert all(getattr(r, name) == 0 for r in report.rows for name in FIGURES if name != "offered_minutes")
    assert report.totals.completion_rate is None and report.totals.booked == 0
    assert report.totals.offered_minutes > 0 and report.totals.utilisation == 0
    assert report.median_first_response_minutes is None and report.median_resolution_minutes is None


async def test_provider_utilisation_per_provider(world) -> None:
    rows = await run(
        list_provider_utilisation, actor=world.analyst, dates=AnalyticsRange(start=START, end=END)
    )
    by_id = {r.provider_id: r for r in rows}
    assert set(by_id) == set(world.listed)  # the unlisted provider is left out, the idle one listed
    for pid, hours in world.listed.items():
        visits = [
            v for v in world.visits if v.provider == pid and v.status in BOOKED and _in_range(v.starts_at)
        ]
        offered = sum(
            end - begin
            for n in range(RANGE_DAYS)
            for weekday, begin, end in hours
            if weekday == (START + timedelta(days=n)).weekday()
        )
        assert (by_id[pid].visits, by_id[pid].booked_minutes, by_id[pid].offered_minutes) == (
            len(visits),
            sum(v.minutes for v in visits),
            offered,
        )
    assert [r.booked_minutes for r in rows] == sorted((r.booked_minutes for r in rows), reverse=True)
    assert rows[-1].booked_minutes == 0 and rows[-1].utilisation == 0


async def test_unmet_demand_by_zip(world) -> None:
    rows = await run(list_unmet_demand, actor=world.analyst, dates=AnalyticsRange(start=START, end=END))
    searches: Counter = Counter()
    days: dict[str, set[date]] = defaultdict(set)
    for day, zip_code, n in world.unmet:
        if START <= day <= END:
            searches[zip_code] += n
            days[zip_code].add(day)
    assert {r.zip_code: (r.searches, r.days) for r in rows} == {
        z: (n, len(days[z])) for z, n in searches.items()
    }
    assert [r.searches for r in rows] == sorted(searches.values(), reverse=True)


async def test_provider_search_counts_a_zip_with_no_provider(identity) -> None:
    await provider("Ada Nurse")  # serves the factories' ZIP, not 99950
    now = datetime(2026, 3, 10, 15, tzinfo=UTC)
    async with app_db.unit_of_work() as session:
        for _ in range(3):
            page = await search_providers(
                session=session, query=ProviderQuery(zip_code="99950"), now=now, count_unmet=True
            )
            assert page.total == 0
        # The first paint's copy of the page (count_unmet left False) counts nothing.
        await search_providers(session=session, query=ProviderQuery(zip_code="99950"), now=now)
        served = await search_providers(
            session=session, query=ProviderQuery(zip_code="10001"), now=now, count_unmet=True
        )
        await search_providers(session=session, query=ProviderQuery(), now=now, count_unmet=True)  # no ZIP
    async with app_db.unit_of_work() as session:
        rows = (await session.execute(select(UnmetSearchDay))).scalars().all()
    counted = {(r.day, r.zip_code): r.searches for r in rows}
    assert served.total == 1
    assert counted == {(date(2026, 3, 10), "99950"): 3}


# ---- the range --------------------------------------------------------------------------------------
def test_ranges_and_their_refusals() -> None:
    today = date(2026, 11, 26)
    assert parse_range("2026-01-01", "2026-01-31", "week", today=today) == AnalyticsRange(
        start=date(2026, 1, 1), end=date(2026, 1, 31), granularity="week"
    )
    assert parse_range(None, None, None, today=today) == AnalyticsRange(
        start=today - timedelta(days=29), end=today
    )
    assert quick_range(7, today=today) == AnalyticsRange(start=date(2026, 11, 20), end=today)
    assert parse_range("2025-11-26", "2026-11-26", today=today).days == 366
    refusals = {
        ("2026-13-01", "2026-12-31", "day"): "Give the start date as YYYY-MM-DD.",
        ("2026-01-01", "31/01/2026", "day"): "Give the end date as YYYY-MM-DD.",
        ("2026-02-01", "2026-01-31", "day"): "The end date must be on or after the start date.",
        ("2024-01-01", "2026-01-31", "day"): "Choose at most 366 days; this range has 762.",
        ("1999-12-01", "1999-12-31", "day"): "Choose dates from 2000 onwards.",
        ("2028-01-01", "2028-01-02", "day"): "Choose dates at most a year from today.",
        ("2026-01-01", "2026-01-31", "month"): "Choose per day or per week.",
    }
    for (start, end, by), message in refusals.items():
        with pytest.raises(ValidationFailed) as refused:
            parse_range(start, end, by, today=today)
        assert refused.value.message == message


async def test_a_range_too_long_is_refused_by_the_service_too(world) -> None:
    with pytest.raises(ValidationFailed):
        await run(
            get_analytics,
            actor=world.analyst,
            dates=AnalyticsRange(start=date(2024, 1, 1), end=date(2025, 6, 1)),
        )


# ---- who may read them ------------------------------------------------------------------------------
ALLOWED = {Role.owner, Role.management, Role.hr}


@pytest.mark.parametrize(
    "role", [Role.owner, Role.admin, Role.management, Role.hr, Role.support, Role.patient, Role.provider]
)
async def test_permission_matrix(identity, role) -> None:
    actor = (await person(role, "Someone")).actor
    dates = AnalyticsRange(start=START, end=END)
    for fn in (get_analytics, list_provider_utilisation, list_unmet_demand):
        if role in ALLOWED:
            await run(fn, actor=actor, dates=dates)
        else:
            with pytest.raises(PermissionDenied):
                await run(fn, actor=actor, dates=dates)


async def test_an_extra_permission_grants_it_and_an_inactive_member_is_refused(identity) -> None:
    dates = AnalyticsRange(start=START, end=END)
    granted = (await person(Role.support, "Sam", extras=(Permission.view_analytics,))).actor
    await run(get_analytics, actor=granted, dates=dates)
    inactive = (await person(Role.management, "Gone", active=False)).actor
    for actor in (inactive, Principal.visitor("visitor-analytics"), SYSTEM):
        with pytest.raises(PermissionDenied):
            await run(get_analytics, actor=actor, dates=dates)


async def test_the_report_costs_the_same_statements_however_much_data(world) -> None:
    """Aggregated in SQL: a fixed number of statements, whatever the number of visits and tickets."""
    engine = app_db.get_database().engine.sync_engine
    dates = AnalyticsRange(start=START, end=END, granularity="week")

    async def statements() -> int:
        seen = []

        def note(*_args) -> None:  # noqa: ANN002
            seen.append(1)

        event.listen(engine, "before_cursor_execute", note)
        try:
            await run(get_analytics, actor=world.analyst, dates=dates)
            await run(list_provider_utilisation, actor=world.analyst, dates=dates)
            await run(list_unmet_demand, actor=world.analyst, dates=dates)
        finally:
            event.remove(engine, "before_cursor_execute", note)
        return len(seen)

    before = await statements()
    async with app_db.unit_of_work() as session:
        service_id = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
        provider_id, patient = world.visits[0].provider, world.visits[0].patient
        for n in range(120):
            starts = _at(START + timedelta(days=n % RANGE_DAYS), 3) + timedelta(minutes=n)  # in the range
            session.add(
                Appointment(
                    patient_id=patient,
                    provider_id=provider_id,
                    service_id=service_id,
                    status=S.cancelled,
                    starts_at=starts,
                    ends_at=starts + timedelta(minutes=30),
                    busy_until=starts + timedelta(minutes=30),
                    location=ServiceLocation.home,
                    price=79,
                    original_price=79,
                    created_at=_at(START, 12),
                )
            )
    assert await statements() == before <= 30  # the sign-in re-checks of three calls included
