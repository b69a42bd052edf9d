"""The provider's own editor and the public profile's reads, on SQLite and (with TEST_DATABASE_URL)
PostgreSQL: services and prices, service area, weekly hours and time off changed through the `*_own_*`
commands with a real signed-in session (refused once it ends, and never on another provider's profile);
listing and removing time off with ownership checks; the latest reviews of completed visits; the week of
open times in the visitor's time zone, in a fixed number of queries.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import event

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import authenticate, sign_in_with_password, sign_out
from app.principal import SYSTEM, Principal
from app.services.appointments import list_reviews
from app.services.appointments.internal import add_review
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers import (
    BAD_TIME_OFF,
    MAX_ZIPS,
    NO_OWN_PROFILE,
    PAST_TIME_OFF,
    Hours,
    ServiceOffer,
    add_own_time_off,
    add_time_off,
    get_own_provider,
    get_provider,
    list_openings,
    list_own_time_off,
    list_time_off,
    remove_own_time_off,
    remove_time_off,
    set_own_service_area,
    set_own_services,
    set_own_weekly_hours,
)
from models.account import AccountRead, Role
from models.catalog import ServiceLocation
from models.provider import WeeklyHoursRead
from tests.factories import ServiceCall, person, provider

PASSWORD = "correct-horse-1"
NY = "America/New_York"
CHICAGO = "America/Chicago"
OFFERS = [ServiceOffer("routine-blood-draw", Decimal("80")), ServiceOffer("iv-hydration", Decimal("150"))]
EVERY_DAY = [Hours(day, 9 * 60, 17 * 60) for day in range(7)]
NOW = datetime(2031, 3, 10, 12, 0, tzinfo=UTC)  # Monday 08:00 in New York (daylight time), 07:00 in Chicago


async def _account(role: Role) -> tuple[Principal, AccountRead, str]:
    """A new account of `role`, signed in: its Principal reference, account and access token."""
    from app.services.accounts.internal import create_account

    email = f"editor-{uuid.uuid4().hex[:10]}@medivisit.test"
    async with app_db.unit_of_work() as session:
        account = await create_account(
            session=session, email=email, password=PASSWORD, role=role, name="Nia Okafor"
        )
    async with app_db.unit_of_work() as session:
        result = await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=email, password=PASSWORD
        )
    return Principal.user(user_id=result.user.id, session_id=result.session_id), account, result.access_token


async def _provider(user_id: str | None = None, *, verified: bool = True) -> str:
    """Nia Okafor, a nurse in New York: blood draws and IV hydration, 09:00–17:00 every day."""
    return await provider(owner=user_id, offers=OFFERS, zip_codes=(), hours=EVERY_DAY, verified=verified)


async def _signed_in_provider() -> tuple[Principal, AccountRead, str]:
    someone = await person(Role.provider, "Nia Okafor")
    return someone.actor, someone.account, await _provider(someone.id)


async def _own(actor: Principal):  # noqa: ANN202 - ProviderRead | None
    async with app_db.unit_of_work() as session:
        return await get_own_provider(session=session, actor=actor)


# ---- services, prices and service area ------------------------------------------------------------
async def test_a_provider_sets_services_prices_and_places_as_typed(identity) -> None:
    actor, _account_read, provider_id = await _signed_in_provider()
    async with app_db.unit_of_work() as session:
        saved = await set_own_services(
            session=session,
            actor=actor,
            offers=[
                ServiceOffer("routine-blood-draw", "92.50", (ServiceLocation.home,)),
                ServiceOffer("injection-visit", "110", (ServiceLocation.home, ServiceLocation.office)),
            ],
        )
    assert saved.id == provider_id
    offers = {o.service_slug: o for o in (await _own(actor)).services}
    assert set(offers) == {"routine-blood-draw", "injection-visit"}  # iv-hydration is no longer offered
    assert offers["routine-blood-draw"].price.original == Decimal("92.50")
    assert offers["routine-blood-draw"].locations == [ServiceLocation.home]
    assert offers["injection-visit"].locations == [ServiceLocation.home, ServiceLocation.office]


@pytest.mark.parametrize(
    ("offer", "message"),
    [
        (ServiceOffer("routine-blood-draw", "abc", (ServiceLocation.home,)), "Routine blood draw: the price"),
        (ServiceOffer("routine-blood-draw", "-5", (ServiceLocation.home,)), "Routine blood draw: the price"),
        (ServiceOffer("routine-blood-draw", "", (ServiceLocation.home,)), "Routine blood draw: the price"),
        (ServiceOffer("routine-blood-draw", "80", ()), "Routine blood draw: choose at least one place"),
        (ServiceOffer("wound-care", "80", (ServiceLocation.virtual,)), "can't be offered at: Virtual"),
    ],
)
async def test_bad_offers_are_refused_naming_the_service(identity, offer, message) -> None:
    actor, _account_read, _provider_id = await _signed_in_provider()
    with pytest.raises(ValidationFailed, match=message):
        async with app_db.unit_of_work() as session:
            await set_own_services(session=session, actor=actor, offers=[offer])
    # nothing changed
    assert {o.service_slug for o in (await _own(actor)).services} == {"routine-blood-draw", "iv-hydration"}


async def test_service_area_is_deduplicated_and_bad_codes_are_named(identity) -> None:
    actor, _account_read, _provider_id = await _signed_in_provider()
    async with app_db.unit_of_work() as session:
        saved = await set_own_service_area(
            session=session, actor=actor, zip_codes="10003, 10001 10001;\n10002"
        )
    assert saved.zip_codes == ["10001", "10002", "10003"]

    with pytest.raises(ValidationFailed, match=r"Not a ZIP code: 1234, abcde\. ZIP codes are five digits\."):
        async with app_db.unit_of_work() as session:
            await set_own_service_area(session=session, actor=actor, zip_codes="10001, 1234 abcde")
    too_many = " ".join(f"{n:05d}" for n in range(MAX_ZIPS + 1))
    with pytest.raises(ValidationFailed, match=f"at most {MAX_ZIPS} ZIP codes"):
        async with app_db.unit_of_work() as session:
            await set_own_service_area(session=session, actor=actor, zip_codes=too_many)
    assert (await _own(actor)).zip_codes == ["10001", "10002", "10003"]


# ---- weekly hours -----------------------------------------------------------------------------------
async def test_weekly_hours_from_the_editor_with_split_days_and_midnight(identity) -> None:
    actor, _account_read, _provider_id = await _signed_in_provider()
    ranges = [(0, "08:00", "12:00"), (0, "13:00", "17:30"), (5, "18:00", "23:59")]
    async with app_db.unit_of_work() as session:
        await set_own_weekly_hours(session=session, actor=actor, ranges=ranges)
    assert (await _own(actor)).weekly_hours == [
        WeeklyHoursRead(weekday=0, start=time(8), end=time(12)),
        WeeklyHoursRead(weekday=0, start=time(13), end=time(17, 30)),
        WeeklyHoursRead(weekday=5, start=time(18), end=time(23, 59, 59)),  # until midnight
    ]


@pytest.mark.parametrize(
    ("ranges", "message"),
    [
        ([(0, "09:00", "12:00"), (0, "11:00", "14:00")], "Monday: each range needs a start before its end"),
        ([(1, "17:00", "09:00")], "Tuesday: each range needs a start before its end"),
        ([(2, "09:00", "")], "Wednesday: enter a start and an end time"),
        ([(3, "nine", "17:00")], "Thursday: enter a start and an end time"),
        ([(7, "09:00", "17:00")], "Each day's hours"),
    ],
)
async def test_bad_hours_are_refused_and_the_saved_hours_stay(identity, ranges, message) -> None:
    actor, _account_read, _provider_id = await _signed_in_provider()
    before = (await _own(actor)).weekly_hours
    with pytest.raises(ValidationFailed, match=message):
        async with app_db.unit_of_work() as session:
            await set_own_weekly_hours(session=session, actor=actor, ranges=ranges)
    assert (await _own(actor)).weekly_hours == before


# ---- time off ---------------------------------------------------------------------------------------
async def test_time_off_is_added_in_the_providers_zone_listed_and_removed(identity) -> None:
    actor, _account_read, provider_id = await _signed_in_provider()
    async with app_db.unit_of_work() as session:
        later = await add_own_time_off(
            session=session,
            actor=actor,
            starts="2031-03-20T09:00",
            ends="2031-03-21T17:00",
            reason=" Conference ",
        )
        sooner = await add_own_time_off(
            session=session, actor=actor, starts="2031-03-12T13:00", ends="2031-03-12T15:00"
        )
        # already over at NOW: kept, but not listed as upcoming
        await add_time_off(
            session=session,
            actor=SYSTEM,
            provider_id=provider_id,
            starts_at=NOW - timedelta(days=3),
            ends_at=NOW - timedelta(days=2),
        )
    assert later.starts_at == datetime(2031, 3, 20, 13, 0, tzinfo=UTC)  # 09:00 EDT
    assert later.ends_at == datetime(2031, 3, 21, 21, 0, tzinfo=UTC)
    assert later.reason == "Conference"
    async with app_db.unit_of_work() as session:
        listed = await list_own_time_off(session=session, actor=actor, now=NOW)
    assert [item.id for item in listed] == [sooner.id, later.id]

    async with app_db.unit_of_work() as session:
        await remove_own_time_off(session=session, actor=actor, time_off_id=sooner.id)
    async with app_db.unit_of_work() as session:
        assert [item.id for item in await list_own_time_off(session=session, actor=actor, now=NOW)] == [
            later.id
        ]
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await remove_own_time_off(session=session, actor=actor, time_off_id=sooner.id)


@pytest.mark.parametrize(
    ("starts", "ends", "message"),
    [
        ("2031-03-12T15:00", "2031-03-12T13:00", BAD_TIME_OFF),
        ("2031-03-12T15:00", "2031-03-12T15:00", BAD_TIME_OFF),
        ("", "2031-03-12T15:00", "Enter the start date and time"),
        ("2031-03-12T13:00", "soon", "Enter the end date and time"),
        ("2031-03-01T09:00", "2031-03-02T09:00", PAST_TIME_OFF),
    ],
)
async def test_bad_time_off_is_refused(identity, starts, ends, message) -> None:
    actor, _account_read, _provider_id = await _signed_in_provider()
    with pytest.raises(ValidationFailed, match=message):
        async with app_db.unit_of_work() as session:
            await add_own_time_off(session=session, actor=actor, starts=starts, ends=ends, now=NOW)
    async with app_db.unit_of_work() as session:
        assert await list_own_time_off(session=session, actor=actor, now=NOW) == []


async def test_time_off_of_another_provider_is_off_limits(identity) -> None:
    owner_actor, owner, provider_id = await _signed_in_provider()
    stranger_actor, stranger, _other_id = await _signed_in_provider()
    admin = (await person(Role.admin)).actor
    async with app_db.unit_of_work() as session:
        item = await add_own_time_off(
            session=session, actor=owner_actor, starts="2031-04-01T09:00", ends="2031-04-01T12:00"
        )

    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await list_time_off(session=session, actor=stranger_actor, provider_id=provider_id, now=NOW)
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await remove_own_time_off(session=session, actor=stranger_actor, time_off_id=item.id)
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await remove_time_off(session=session, actor=stranger_actor, time_off_id=item.id)
    async with app_db.unit_of_work() as session:
        # the stranger's own list never shows it
        assert await list_own_time_off(session=session, actor=stranger_actor, now=NOW) == []
        assert [
            t.id
            for t in await list_time_off(session=session, actor=owner_actor, provider_id=provider_id, now=NOW)
        ] == [item.id]
        assert [
            t.id for t in await list_time_off(session=session, actor=admin, provider_id=provider_id, now=NOW)
        ] == [item.id]
    async with app_db.unit_of_work() as session:
        await remove_time_off(session=session, actor=admin, time_off_id=item.id)
    async with app_db.unit_of_work() as session:
        assert await list_time_off(session=session, actor=SYSTEM, provider_id=provider_id, now=NOW) == []


# ---- who may use the editor -------------------------------------------------------------------------
async def test_signed_out_and_ended_sessions_change_nothing(identity) -> None:
    actor, account, access = await _account(Role.provider)
    await _provider(account.id)
    commands: list[ServiceCall] = [
        (get_own_provider, {}),
        (set_own_services, {"offers": [ServiceOffer("routine-blood-draw", "1", (ServiceLocation.home,))]}),
        (set_own_service_area, {"zip_codes": "99999"}),
        (set_own_weekly_hours, {"ranges": [(0, "01:00", "02:00")]}),
        (add_own_time_off, {"starts": "2031-05-01T09:00", "ends": "2031-05-01T10:00"}),
        (list_own_time_off, {}),
        (remove_own_time_off, {"time_off_id": str(uuid.uuid4())}),
    ]
    before = await _own(actor)
    async with app_db.unit_of_work() as session:
        who = await authenticate(session=session, authorization=f"Bearer {access}")
        await sign_out(session=session, actor=who, scope="local")
    for signed_out in (Principal.visitor("visitor-1"), actor):
        for command, arguments in commands:
            with pytest.raises(PermissionDenied, match="Your session has ended"):
                async with app_db.unit_of_work() as session:
                    await command(session=session, actor=signed_out, **arguments)
    async with app_db.unit_of_work() as session:
        after = await get_provider(session=session, provider_id=before.id)
    assert (after.services, after.zip_codes, after.weekly_hours) == (
        before.services,
        before.zip_codes,
        before.weekly_hours,
    )


async def test_an_account_without_a_profile(identity) -> None:
    actor, _account_read, _token = await _account(Role.provider)
    assert await _own(actor) is None
    with pytest.raises(NotFound, match=NO_OWN_PROFILE):
        async with app_db.unit_of_work() as session:
            await set_own_service_area(session=session, actor=actor, zip_codes="10001")
    with pytest.raises(NotFound, match=NO_OWN_PROFILE):
        async with app_db.unit_of_work() as session:
            await list_own_time_off(session=session, actor=actor)


# ---- public reads: reviews and the week of open times -------------------------------------------------
async def test_latest_reviews_of_completed_visits_newest_first(configured) -> None:
    provider_id = await _provider()
    async with app_db.unit_of_work() as session:
        for index in range(12):
            await add_review(
                session=session,
                provider_id=provider_id,
                rating=1 + index % 5,
                comment=f"visit {index}",
                visit_completed=True,
            )
        await add_review(session=session, provider_id=provider_id, rating=1, comment="not completed")
    async with app_db.unit_of_work() as session:
        latest = await list_reviews(session=session, provider_id=provider_id)
        three = await list_reviews(session=session, provider_id=provider_id, limit=3)
    assert len(latest) == 10
    assert "not completed" not in {review.comment for review in latest}
    assert [r.created_at for r in latest] == sorted((r.created_at for r in latest), reverse=True)
    assert [r.id for r in three] == [r.id for r in latest[:3]]

    hidden = await _provider(verified=False)
    async with app_db.unit_of_work() as session:
        await add_review(session=session, provider_id=hidden, rating=5, visit_completed=True)
        assert await list_reviews(session=session, provider_id=hidden) == []


def _count_queries():  # noqa: ANN202
    engine = app_db.get_database().engine.sync_engine
    counter = {"n": 0}

    def count(*_args) -> None:  # noqa: ANN002
        counter["n"] += 1

    event.listen(engine, "before_cursor_execute", count)
    return counter, lambda: event.remove(engine, "before_cursor_execute", count)


async def test_a_week_of_open_times_in_the_visitors_zone(configured) -> None:
    provider_id = await _provider()  # 09:00–17:00 New York time, every day
    async with app_db.unit_of_work() as session:
        await add_time_off(
            session=session,
            actor=SYSTEM,
            provider_id=provider_id,
            starts_at=datetime(2031, 3, 12, 4, 0, tzinfo=UTC),  # all of Wednesday in New York
            ends_at=datetime(2031, 3, 13, 4, 0, tzinfo=UTC),
        )
    counter, stop = _count_queries()
    try:
        async with app_db.unit_of_work() as session:
            week = await list_openings(
                session=session,
                provider_id=provider_id,
                service_slug="iv-hydration",
                time_zone=CHICAGO,
                now=NOW,
            )
    finally:
        stop()
    assert counter["n"] <= 4  # the offer, hours, time off, appointments: whatever the number of days
    assert [day.day.isoformat() for day in week] == [f"2031-03-{d}" for d in range(10, 17)]
    monday, tuesday, wednesday = week[0], week[1], week[2]
    # 60-minute IV visits on a 30-minute grid from 09:00 to 16:00 New York time (08:00–15:00 in Chicago);
    # on Monday two hours of notice from 08:00 New York time leave 10:00 as the first start.
    assert monday.starts[0] == datetime(2031, 3, 10, 14, 0, tzinfo=UTC)
    assert tuesday.starts[0] == datetime(2031, 3, 11, 13, 0, tzinfo=UTC)
    assert tuesday.starts[-1] == datetime(2031, 3, 11, 20, 0, tzinfo=UTC)
    assert len(tuesday.starts) == 15
    assert wednesday.starts == []

    with pytest.raises(NotFound, match="doesn't offer that service"):
        async with app_db.unit_of_work() as session:
            await list_openings(
                session=session,
                provider_id=provider_id,
                service_slug="wound-care",
                time_zone=CHICAGO,
                now=NOW,
            )
    hidden = await _provider(verified=False)
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await list_openings(
                session=session, provider_id=hidden, service_slug="iv-hydration", time_zone=CHICAGO
            )
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await get_provider(session=session, provider_id=hidden)
