"""Provider search: filters (service or category, type, ZIP coverage, place of visit, date), sorting
(soonest, rating, price), pagination (≤ 20 per page), the next slot on each result, that unverified or
inactive providers never appear anywhere public, and a fixed number of queries per page (no N+1).

Each test works in ZIP codes of its own, so tests sharing the session database don't see each other.
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import event

from app import db as app_db
from app.principal import SYSTEM
from app.services.providers import Hours, add_time_off, list_featured, search_providers
from models.booking import AppointmentStatus
from models.catalog import ServiceLocation
from models.provider import MAX_PAGE_SIZE, ProviderQuery, SearchSort
from tests.factories import person, provider, visit

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
MONDAY, TUESDAY = date(2030, 1, 7), date(2030, 1, 8)
NY = "America/New_York"
EVERY_WEEKDAY = [Hours(day, 9 * 60, 17 * 60) for day in range(5)]
ZIP = "10001"  # each test has a database of its own: one fixed ZIP code, another where a test needs two


async def make_provider(
    zip_code: str,
    name: str,
    *,
    kind: str = "nurse",
    offers: dict[str, tuple[str, tuple[ServiceLocation, ...]]] | None = None,
    hours: list[Hours] | None = None,
    ratings: tuple[int, ...] = (),
    verified: bool = True,
    active: bool = True,
    time_zone: str = NY,
) -> str:
    """A provider serving `zip_code` only; by default IV hydration for 150, 09:00–17:00 on weekdays."""
    return await provider(
        name,
        kind=kind,
        offers=offers if offers is not None else {"iv-hydration": ("150", ())},
        zip_codes=[zip_code],
        hours=hours if hours is not None else EVERY_WEEKDAY,
        ratings=ratings,
        verified=verified,
        active=active,
        time_zone=time_zone,
    )


async def search(time_zone: str = NY, **params: str):  # noqa: ANN201 - ProviderPage
    query = ProviderQuery.from_params({k: [v] for k, v in params.items()})
    async with app_db.unit_of_work() as session:
        return await search_providers(session=session, query=query, time_zone=time_zone, now=NOW)


def names(page) -> list[str]:  # noqa: ANN001
    return [card.name for card in page.items]


@pytest.fixture
async def clinic_zip(configured) -> str:
    """One ZIP code with a small, varied set of providers (and some that must never show)."""
    zip_code = ZIP
    await make_provider(
        zip_code,
        "Ana Iv",
        offers={"iv-hydration": ("150", (ServiceLocation.home, ServiceLocation.office))},
        ratings=(5, 5),
    )
    await make_provider(
        zip_code,
        "Ben Draw",
        kind="technician",
        offers={"routine-blood-draw": ("70", (ServiceLocation.home,))},
    )
    await make_provider(
        zip_code,
        "Cy Np",
        kind="np",
        offers={"iv-hydration": ("120", (ServiceLocation.home,)), "iv-vitamin-infusion": ("200", ())},
        ratings=(4,),
    )
    await make_provider(zip_code, "Dee Unverified", verified=False, ratings=(5, 5, 5, 5, 5, 5))
    await make_provider(zip_code, "Eve Inactive", active=False, ratings=(5, 5, 5, 5, 5, 5))
    await make_provider("10002", "Fay Elsewhere")
    return zip_code


async def test_zip_coverage_and_listing_rules(clinic_zip) -> None:
    page = await search(zip=clinic_zip)
    assert sorted(names(page)) == ["Ana Iv", "Ben Draw", "Cy Np"] and page.total == 3


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"service": "iv-hydration"}, {"Ana Iv", "Cy Np"}),
        ({"service": "iv-vitamin-infusion"}, {"Cy Np"}),
        ({"service": "iv-therapy"}, {"Ana Iv", "Cy Np"}),  # a category
        ({"service": "phlebotomy"}, {"Ben Draw"}),
        ({"type": "nurse"}, {"Ana Iv"}),
        ({"type": "technician", "service": "iv-therapy"}, set()),
        ({"location": "office"}, {"Ana Iv", "Cy Np"}),  # Cy offers the vitamin infusion at offices
        ({"location": "office", "service": "iv-hydration"}, {"Ana Iv"}),
        ({"location": "home", "service": "phlebotomy"}, {"Ben Draw"}),
        ({"location": "clinic"}, {"Cy Np"}),  # the vitamin infusion is offered everywhere it may be
        ({"location": "virtual"}, set()),
    ],
)
async def test_filters(clinic_zip, params, expected) -> None:
    for sort in SearchSort:
        page = await search(zip=clinic_zip, sort=sort.value, **params)
        assert set(names(page)) == expected, sort
        assert page.total == len(expected)


async def test_an_unknown_service_is_reported_and_ignored(clinic_zip) -> None:
    page = await search(zip=clinic_zip, service="tattoo-removal")
    assert page.total == 3 and page.query.service is None
    assert page.notes and "tattoo-removal" in page.notes[0]


async def test_sort_by_rating_and_by_price(clinic_zip) -> None:
    assert names(await search(zip=clinic_zip, sort="rating")) == ["Ana Iv", "Cy Np", "Ben Draw"]
    by_price = await search(zip=clinic_zip, sort="price", service="iv-hydration")
    assert names(by_price) == ["Cy Np", "Ana Iv"]
    # The flash sale applies to the provider's own price; the original stays visible.
    cy = by_price.items[0]
    assert (cy.price.charge, cy.price.original, cy.price_is_from) == (
        Decimal("84.00"),
        Decimal("120.00"),
        False,
    )
    # Without a service, providers sort by their lowest price and show it as "from".
    anything = await search(zip=clinic_zip, sort="price")
    assert names(anything) == ["Ben Draw", "Cy Np", "Ana Iv"]
    assert anything.items[1].price_is_from and anything.items[1].price.original == Decimal("120.00")


async def test_results_carry_the_next_slot_and_sort_by_soonest(configured) -> None:
    zip_code = ZIP
    await make_provider(zip_code, "Late Starter", hours=[Hours(0, 14 * 60, 18 * 60)], ratings=(5,))
    await make_provider(zip_code, "Early Bird", hours=[Hours(0, 8 * 60, 12 * 60)], ratings=(3,))
    await make_provider(zip_code, "Tuesday Only", hours=[Hours(1, 8 * 60, 12 * 60)], ratings=(5, 5))
    await make_provider(zip_code, "Never Works", hours=[], ratings=(5, 5, 5))
    page = await search(zip=zip_code, sort="soonest", service="iv-hydration")
    assert names(page) == ["Early Bird", "Late Starter", "Tuesday Only", "Never Works"]
    slots = [card.next_slot for card in page.items]
    assert slots[:3] == [
        datetime(2030, 1, 7, 13, 0, tzinfo=UTC),  # 8:00 in New York
        datetime(2030, 1, 7, 19, 0, tzinfo=UTC),
        datetime(2030, 1, 8, 13, 0, tzinfo=UTC),
    ]
    assert slots[3] is None and page.items[0].slot_minutes == 60
    # Rating order still shows each provider's next slot.
    by_rating = await search(zip=zip_code, sort="rating")
    assert {c.name: c.next_slot for c in by_rating.items}["Early Bird"] == slots[0]


async def test_time_off_and_the_date_filter(configured) -> None:
    zip_code = ZIP
    away = await make_provider(
        zip_code, "Away Monday", hours=[Hours(0, 8 * 60, 12 * 60), Hours(1, 8 * 60, 12 * 60)]
    )
    await make_provider(zip_code, "Monday Person", hours=[Hours(0, 10 * 60, 12 * 60)])
    await make_provider(zip_code, "Tuesday Person", hours=[Hours(1, 9 * 60, 12 * 60)])
    async with app_db.unit_of_work() as session:
        await add_time_off(
            session=session,
            actor=SYSTEM,
            provider_id=away,
            starts_at=datetime(2030, 1, 7, 5, 0, tzinfo=UTC),
            ends_at=datetime(2030, 1, 8, 5, 0, tzinfo=UTC),
            reason="Training",
        )
    soonest = await search(zip=zip_code, sort="soonest")
    assert names(soonest) == ["Monday Person", "Away Monday", "Tuesday Person"]
    assert soonest.items[1].next_slot == datetime(2030, 1, 8, 13, 0, tzinfo=UTC)  # Tuesday 8:00

    monday = await search(zip=zip_code, date=MONDAY.isoformat())
    assert names(monday) == ["Monday Person"] and monday.total == 1
    assert monday.items[0].next_slot == datetime(2030, 1, 7, 15, 0, tzinfo=UTC)
    tuesday = await search(zip=zip_code, date=TUESDAY.isoformat(), sort="soonest")
    assert names(tuesday) == ["Away Monday", "Tuesday Person"]
    assert all(card.next_slot.date() == TUESDAY for card in tuesday.items)
    # The date is the visitor's: Monday in Tokyo ends before Monday's New York hours begin.
    assert (await search(time_zone="Asia/Tokyo", zip=zip_code, date=MONDAY.isoformat())).total == 0


async def test_pagination(configured) -> None:
    zip_code = ZIP
    for index in range(25):
        await make_provider(zip_code, f"Nurse {index:02d}", offers={"iv-hydration": (str(100 + index), ())})
    for sort in SearchSort:
        first = await search(zip=zip_code, sort=sort.value)
        second = await search(zip=zip_code, sort=sort.value, page="2")
        assert (first.total, len(first.items), len(second.items)) == (25, 20, 5)
        assert (first.pages, second.page) == (2, 2)
        assert not set(names(first)) & set(names(second))
        clamped = await search(zip=zip_code, sort=sort.value, page="9")
        assert clamped.page == 2 and names(clamped) == names(second)
    by_price = [
        c.price.original for p in ("1", "2") for c in (await search(zip=zip_code, sort="price", page=p)).items
    ]
    assert by_price == sorted(by_price)


async def test_unverified_or_inactive_never_appear(configured) -> None:
    zip_code = ZIP
    await make_provider(zip_code, "Shown Provider", ratings=(4,) * 5)
    hidden = {
        await make_provider(zip_code, "Hidden Unverified", verified=False, ratings=(5,) * 9),
        await make_provider(zip_code, "Hidden Inactive", active=False, ratings=(5,) * 9),
        await make_provider(zip_code, "Hidden Both", verified=False, active=False, ratings=(5,) * 9),
    }
    for sort in SearchSort:
        for extra in ({}, {"date": MONDAY.isoformat()}, {"service": "iv-therapy"}, {"type": "nurse"}):
            page = await search(zip=zip_code, sort=sort.value, **extra)
            assert names(page) == ["Shown Provider"], (sort, extra)
    async with app_db.unit_of_work() as session:
        featured = await list_featured(session=session, min_reviews=5, limit=24)
    assert not hidden & {p.id for p in featured}


async def test_featured_needs_enough_reviews_of_completed_visits(configured) -> None:
    few = await make_provider("10003", "Few Reviews", ratings=(5, 5))
    many = await make_provider("10004", "Many Reviews", ratings=(5,) * 6)
    async with app_db.unit_of_work() as session:
        featured = {p.id for p in await list_featured(session=session, min_reviews=5, limit=24)}
    assert many in featured and few not in featured


def _count_queries():  # noqa: ANN202
    engine = app_db.get_database().engine.sync_engine
    counter = {"n": 0}

    def count(*_args) -> None:  # noqa: ANN002
        counter["n"] += 1

    event.listen(engine, "before_cursor_execute", count)
    return counter, lambda: event.remove(engine, "before_cursor_execute", count)


async def test_a_page_costs_the_same_queries_whatever_its_size(configured) -> None:
    small, large = "10005", "10006"
    for index in range(3):
        await make_provider(small, f"Small {index}", ratings=(4,))
    for index in range(20):
        await make_provider(large, f"Large {index}", ratings=(4,), hours=[Hours(index % 5, 540, 1020)])
    cases = (
        {"sort": "rating"},
        {"sort": "soonest"},
        {"sort": "price", "date": TUESDAY.isoformat()},
        {"sort": "price", "service": "iv-therapy"},  # the price bound: one more statement, whatever the page
    )
    for params in cases:
        counts = []
        for zip_code in (small, large):
            counter, stop = _count_queries()
            try:
                page = await search(zip=zip_code, **params)
            finally:
                stop()
            assert page.items
            counts.append(counter["n"])
        assert counts[0] == counts[1], params
        assert counts[1] <= 8, params


async def test_a_providers_slots_on_a_day_in_the_visitors_zone(configured) -> None:
    from app.services.providers.internal import list_slots, next_slots

    provider_id = await make_provider(ZIP, "Day Planner", hours=[Hours(0, 9 * 60, 11 * 60)])
    async with app_db.unit_of_work() as session:
        monday = await list_slots(
            session=session, provider_id=provider_id, duration_minutes=60, day=MONDAY, time_zone=NY, now=NOW
        )
        first = await next_slots(
            session=session, providers={provider_id: (NY, "0:540-660")}, minutes=60, now=NOW
        )
    assert monday == [datetime(2030, 1, 7, 14, 0, tzinfo=UTC), datetime(2030, 1, 7, 14, 30, tzinfo=UTC),
                      datetime(2030, 1, 7, 15, 0, tzinfo=UTC)]  # fmt: skip
    assert first == {provider_id: monday[0]}


async def test_soonest_order_matches_a_brute_force_ranking(configured) -> None:
    """Small pages force the ranking to look further; the order must equal computing every slot."""
    from app.services.providers import Interval, SlotRules, next_slot

    rng = random.Random(42)
    zip_code = ZIP
    schedules = [
        [Hours(0, 8 * 60, 12 * 60)],
        [Hours(0, 9 * 60, 10 * 60)],
        [Hours(1, 7 * 60, 15 * 60)],
        [Hours(d, 13 * 60, 17 * 60) for d in range(5)],
        [Hours(2, 6 * 60, 9 * 60)],
    ]
    expected = []
    for index in range(30):
        hours = rng.choice(schedules)
        ratings = tuple(rng.choice((3, 4, 5)) for _ in range(rng.randint(0, 3)))
        provider_id = await make_provider(zip_code, f"Rank {index:02d}", hours=hours, ratings=ratings)
        blocked = []
        if rng.random() < 0.4:
            start = NOW + timedelta(hours=rng.randint(0, 72))
            blocked = [Interval(start, start + timedelta(hours=rng.randint(1, 30)))]
            async with app_db.unit_of_work() as session:
                await add_time_off(
                    session=session, actor=SYSTEM, provider_id=provider_id, starts_at=blocked[0].start,
                    ends_at=blocked[0].end,
                )  # fmt: skip
        slot = next_slot(
            hours=hours, time_zone=NY, now=NOW, rules=SlotRules(duration_minutes=60), blocked=blocked
        )
        average = sum(ratings) / len(ratings) if ratings else 0
        expected.append((slot is None, slot or NOW, -round(average, 2), -len(ratings), provider_id))
    expected_ids = [row[-1] for row in sorted(expected)]

    found = []
    for page in range(1, 9):
        query = ProviderQuery(
            zip_code=zip_code, service="iv-hydration", sort=SearchSort.soonest, page=page, per_page=4
        )
        async with app_db.unit_of_work() as session:
            result = await search_providers(session=session, query=query, now=NOW)
        found += [card.id for card in result.items]
    assert found == expected_ids


@pytest.mark.parametrize(("first_groups", "spare_rows"), [(1, 0), (3, 0), (None, 10)])
async def test_soonest_over_many_schedule_groups_matches_a_brute_force_ranking(
    configured, monkeypatch, first_groups, spare_rows
) -> None:
    """Soonest takes the schedule groups a batch at a time: with a dozen groups (two of them tied on their
    first slot), first batches of one or three groups or as sized from the count, no spare rows past the
    page, time off that pushes a provider past later groups, pages of one and a date filter, the order
    must still equal computing every slot."""
    from app.services.providers import Interval, SlotRules, _search, next_slot
    from app.services.shared.clock import day_bounds

    if first_groups is not None:
        monkeypatch.setattr(_search, "_first_batch", lambda groups, *_: min(first_groups, len(groups)))
    monkeypatch.setattr(_search, "SPARE_ROWS", spare_rows)
    rng = random.Random(5)
    schedules = [[Hours(day, start * 60, (start + 3) * 60)] for day in range(4) for start in (7, 10, 13)]
    schedules.append(
        [Hours(0, 7 * 60, 9 * 60), Hours(4, 7 * 60, 9 * 60)]
    )  # first slot tied with Monday 07:00
    rows = []
    for index in range(40):
        hours = rng.choice(schedules)
        ratings = tuple(rng.choice((2, 3, 4, 5)) for _ in range(rng.randint(0, 3)))
        provider_id = await make_provider(ZIP, f"Grouped {index:02d}", hours=hours, ratings=ratings)
        blocked = []
        if rng.random() < 0.4:
            start = NOW + timedelta(hours=rng.randint(0, 60))
            blocked = [Interval(start, start + timedelta(hours=rng.randint(2, 40)))]
            async with app_db.unit_of_work() as session:
                await add_time_off(
                    session=session, actor=SYSTEM, provider_id=provider_id, starts_at=blocked[0].start,
                    ends_at=blocked[0].end,
                )  # fmt: skip
        average = round(sum(ratings) / len(ratings), 2) if ratings else 0
        rows.append((hours, blocked, (-average, -len(ratings), provider_id)))

    def expected(day: date | None) -> list[str]:
        bounds = day_bounds(day, NY) if day else (None, None)
        ranked = []
        for hours, blocked, by_rating in rows:
            slot = next_slot(
                hours=hours, time_zone=NY, now=NOW, rules=SlotRules(duration_minutes=60), blocked=blocked,
                not_before=bounds[0], before=bounds[1],
            )  # fmt: skip
            if day is None or slot is not None:
                ranked.append((slot is None, slot or NOW, *by_rating))
        return [row[-1] for row in sorted(ranked)]

    for day in (None, TUESDAY):
        found = []
        for page in range(1, 42):
            query = ProviderQuery(
                zip_code=ZIP, service="iv-hydration", sort=SearchSort.soonest, day=day, page=page, per_page=1
            )
            async with app_db.unit_of_work() as session:
                result = await search_providers(session=session, query=query, time_zone=NY, now=NOW)
            if result.page == page:
                found += [card.id for card in result.items]
        assert found == expected(day), day


async def test_price_order_matches_a_brute_force_ranking(configured) -> None:
    """Price pages are bounded by each service's cheapest offers; with ties on price, several services per
    provider, cheaper offers outside the services searched (a provider's lowest price of all is not its
    price in scope), a place of visit, small pages, and with or without a ZIP code, the order must equal
    ranking every candidate."""
    rng = random.Random(7)
    services = ("routine-blood-draw", "fasting-blood-draw", "lab-kit-collection")
    home, office = ServiceLocation.home, ServiceLocation.office
    candidates: dict[str, list[tuple[str, int, tuple[ServiceLocation, ...]]]] = {}
    ratings_of: dict[str, tuple[int, ...]] = {}
    for index in range(30):
        chosen = rng.sample(services, k=rng.randint(1, 3))
        offers: list[tuple[str, int, tuple[ServiceLocation, ...]]] = [
            (slug, rng.choice((60, 70, 70, 80)), rng.choice(((home,), (office,), (home, office))))
            for slug in chosen
        ]
        if rng.random() < 0.5:  # outside every scope searched below, and often cheaper
            offers.append(("blood-pressure-screening", rng.choice((40, 70, 90)), (home,)))
        ratings = tuple(rng.choice((3, 4, 5)) for _ in range(rng.randint(0, 2)))
        provider_id = await make_provider(
            ZIP,
            f"Priced {index:02d}",
            kind="technician",
            offers={slug: (str(price), places) for slug, price, places in offers},
            ratings=ratings,
        )
        candidates[provider_id], ratings_of[provider_id] = offers, ratings

    def expected(service: str, location: ServiceLocation | None) -> list[str]:
        ranked = []
        for provider_id, offers in candidates.items():
            prices = [
                price
                for slug, price, places in offers
                if (slug in services if service == "phlebotomy" else slug == service)
                and (location is None or location in places)
            ]
            if prices:
                ratings = ratings_of[provider_id]
                average = round(sum(ratings) / len(ratings), 2) if ratings else 0
                ranked.append((min(prices), -average, -len(ratings), provider_id))
        return [row[-1] for row in sorted(ranked)]

    searches = (("phlebotomy", None), ("phlebotomy", home), ("fasting-blood-draw", office))
    for (service, location), zip_code in itertools.product(searches, (ZIP, None)):
        found = []
        for page in range(1, 10):
            query = ProviderQuery(
                zip_code=zip_code,
                service=service,
                location=location,
                sort=SearchSort.price,
                page=page,
                per_page=4,
            )
            async with app_db.unit_of_work() as session:
                result = await search_providers(session=session, query=query, now=NOW)
            if result.page == page:
                found += [card.id for card in result.items]
        assert found == expected(service, location), (service, location, zip_code)


async def test_a_broad_search_counts_up_to_a_cap(configured, monkeypatch) -> None:
    """Every sort counts matches only up to a cap past the page shown ('3+ providers match'), with or
    without a date: a broad search never visits every match to print their number."""
    from app.services.providers import _search
    from components.provider_ui import result_summary

    monkeypatch.setattr(_search, "COUNT_CAP", 3)
    for index in range(5):
        await make_provider(ZIP, f"Counted {index}", ratings=(index % 5 + 1,))

    async def page_of(page: int, sort: str = "rating"):  # noqa: ANN202
        query = ProviderQuery(zip_code=ZIP, sort=SearchSort(sort), page=page, per_page=2)
        async with app_db.unit_of_work() as session:
            return await search_providers(session=session, query=query, now=NOW)

    first = await page_of(1)
    assert (first.total, first.more, first.pages, first.has_next) == (3, True, 2, True)
    assert result_summary(first) == "3+ providers match; showing 1–2."
    last = await page_of(3, "price")  # the cap moves past the page asked for: the count is exact again
    assert (last.total, last.more, last.page, len(last.items), last.has_next) == (5, False, 3, 1, False)
    soonest = await page_of(1, "soonest")
    assert (soonest.total, soonest.more, soonest.has_next) == (3, True, True)
    assert (await page_of(3, "soonest")).total == 5  # exact again past the cap
    query = ProviderQuery(zip_code=ZIP, day=MONDAY, sort=SearchSort.rating, page=1, per_page=2)
    async with app_db.unit_of_work() as session:
        dated = await search_providers(session=session, query=query, now=NOW)
    assert (dated.total, dated.more, len(dated.items)) == (3, True, 2)


async def test_a_capped_date_search_skips_providers_busy_that_day(configured, monkeypatch) -> None:
    """A date search counts and pages only providers with a slot that day, fetching more candidates when
    time off leaves too few of the first ones free."""
    from app.services.providers import _search

    monkeypatch.setattr(_search, "COUNT_CAP", 2)
    free = {await make_provider(ZIP, f"Free {index}", ratings=(3,)) for index in range(2)}
    for index in range(4):
        away = await make_provider(ZIP, f"Away {index}", ratings=(5,))
        async with app_db.unit_of_work() as session:
            await add_time_off(
                session=session,
                actor=SYSTEM,
                provider_id=away,
                starts_at=datetime(2030, 1, 7, 0, 0, tzinfo=UTC),
                ends_at=datetime(2030, 1, 8, 5, 0, tzinfo=UTC),
            )
    for sort in SearchSort:
        query = ProviderQuery(zip_code=ZIP, day=MONDAY, sort=sort, per_page=1)
        async with app_db.unit_of_work() as session:
            first = await search_providers(session=session, query=query, time_zone=NY, now=NOW)
            second = await search_providers(
                session=session, query=query.model_copy(update={"page": 2}), time_zone=NY, now=NOW
            )
        assert (first.total, first.more) == (2, False), sort
        assert {first.items[0].id, second.items[0].id} == free, sort


async def test_a_date_search_counts_providers_free_all_day_and_checks_only_the_others(
    configured, monkeypatch
) -> None:
    """A date search counts the candidates without time off or live visits that day in SQL, and checks the
    others' busy time: time off or a visit for part of the day leaves a slot, time off or a visit all day
    none, and a cancelled visit keeps no one busy; with or without a ZIP code, under, at and over the cap."""
    from app.services.providers import _search

    patient = await person()
    monday_9am = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)  # 09:00 in New York
    free = {await make_provider(ZIP, f"Free {index}") for index in range(2)}
    morning_off = await make_provider(ZIP, "Morning Off")
    booked = await make_provider(ZIP, "Booked Morning")
    cancelled = await make_provider(ZIP, "Cancelled Visit")
    away = await make_provider(ZIP, "Away All Day")
    booked_all_day = await make_provider(ZIP, "Booked All Day")
    async with app_db.unit_of_work() as session:
        for provider_id, hours in ((morning_off, 3), (away, 24)):
            await add_time_off(
                session=session, actor=SYSTEM, provider_id=provider_id, starts_at=monday_9am,
                ends_at=monday_9am + timedelta(hours=hours),
            )  # fmt: skip
    await visit(patient, booked, monday_9am)
    await visit(patient, booked_all_day, monday_9am, minutes=8 * 60)
    await visit(patient, cancelled, monday_9am, status=AppointmentStatus.cancelled)
    available = {*free, morning_off, booked, cancelled}

    async def page_of(sort: SearchSort, where: dict, per_page: int):  # noqa: ANN202 - a ProviderPage
        query = ProviderQuery(day=MONDAY, sort=sort, per_page=per_page, **where)
        async with app_db.unit_of_work() as session:
            return await search_providers(session=session, query=query, time_zone=NY, now=NOW)

    for sort in SearchSort:
        for where in ({"zip_code": ZIP}, {}):
            every = await page_of(sort, where, MAX_PAGE_SIZE)
            assert {card.id for card in every.items} == available and every.total == 5, (sort, where)
            for cap, expected in ((5, (5, False)), (4, (4, True)), (2, (2, True)), (1, (1, True))):
                monkeypatch.setattr(_search, "COUNT_CAP", cap)
                first = await page_of(sort, where, 1)  # the cap is past the page: the count is capped
                assert (first.total, first.more) == expected, (cap, sort, where)
                assert first.items[0].id == every.items[0].id, (cap, sort, where)
            monkeypatch.setattr(_search, "COUNT_CAP", 1000)
