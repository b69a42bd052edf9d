"""The copies search reads by ZIP code: each `provider_zip_codes` row carries the provider's listing state,
type, time zone, weekly hours, rating, lowest price and mask of services offered (`listing_values`), and every command that changes
one of them keeps the copies right; offers carry the provider's type. Checked after each such command, for
the sample seeder and the demo marketplace's rows too."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from sqlalchemy import select

from app import db as app_db
from app.principal import SYSTEM
from app.services.appointments.internal import add_review
from app.services.providers import (
    Hours,
    ServiceOffer,
    search_providers,
    set_listing,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from app.services.providers.internal import seed_providers
from models.catalog import Service, service_mask
from models.provider import Provider, ProviderQuery, ProviderService, ProviderZip, listing_values
from tests.factories import provider

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)


async def assert_copies_match() -> None:
    """Every ZIP-code row and offer agrees with its provider."""
    async with app_db.unit_of_work() as session:
        providers = {p.id: p for p in (await session.scalars(select(Provider))).all()}
        zip_rows = (await session.scalars(select(ProviderZip))).all()
        offers = (await session.scalars(select(ProviderService))).all()
        bits = dict((await session.execute(select(Service.id, Service.search_bit))).all())
    assert zip_rows
    offered: dict[str, list[int | None]] = {}
    for offer in offers:
        offered.setdefault(offer.provider_id, []).append(bits[offer.service_id])
    for p in providers.values():
        assert p.service_mask == service_mask(offered.get(p.id, [])), p.id
    for row in zip_rows:
        expected = listing_values(providers[row.provider_id])
        assert {name: getattr(row, name) for name in expected} == expected, row.provider_id
    for offer in offers:
        assert offer.provider_type == providers[offer.provider_id].provider_type


async def zip_search(zip_code: str, **changes: object) -> list[str]:
    query = ProviderQuery(zip_code=zip_code).model_copy(update=changes)
    async with app_db.unit_of_work() as session:
        page = await search_providers(session=session, query=query, now=NOW)
    return [card.id for card in page.items]


async def test_every_command_keeps_the_copies(configured) -> None:
    first = await provider("Copy One", zip_codes=["10001", "10002"], ratings=(4,))
    second = await provider("Copy Two", kind="technician", zip_codes=["10001"])
    await assert_copies_match()
    assert await zip_search("10001") == [first, second]

    async with app_db.unit_of_work() as session:  # weekly hours
        await set_weekly_hours(
            session=session, actor=SYSTEM, provider_id=second, hours=[Hours(0, 6 * 60, 9 * 60)]
        )
    await assert_copies_match()
    assert await zip_search("10001", sort="soonest") == [second, first]

    async with app_db.unit_of_work() as session:  # prices
        await set_services(
            session=session,
            actor=SYSTEM,
            provider_id=first,
            offers=[ServiceOffer("routine-blood-draw", "40")],
        )
    await assert_copies_match()
    assert await zip_search("10001", sort="price") == [first, second]

    async with app_db.unit_of_work() as session:  # services: the mask of those offered
        await set_services(
            session=session,
            actor=SYSTEM,
            provider_id=second,
            offers=[ServiceOffer("wound-care", "90"), ServiceOffer("routine-blood-draw", "80")],
        )
    await assert_copies_match()
    assert await zip_search("10001", service="wound-care") == [second]
    assert await zip_search("10001", service="nursing") == [second]
    assert await zip_search("10001", service="routine-blood-draw", sort="price") == [first, second]
    async with app_db.unit_of_work() as session:
        await set_services(
            session=session,
            actor=SYSTEM,
            provider_id=second,
            offers=[ServiceOffer("routine-blood-draw", "80")],
        )
    await assert_copies_match()
    assert await zip_search("10001", service="wound-care") == []

    for _ in range(2):  # reviews of completed visits move the rating
        async with app_db.unit_of_work() as session:
            await add_review(session=session, provider_id=second, rating=5, visit_completed=True)
    await assert_copies_match()
    assert await zip_search("10001") == [second, first]

    async with app_db.unit_of_work() as session:  # listing: unverified or inactive leave the ZIP code's list
        await set_listing(session=session, actor=SYSTEM, provider_id=second, verified=True, active=False)
    await assert_copies_match()
    assert await zip_search("10001") == [first]
    async with app_db.unit_of_work() as session:
        await set_listing(session=session, actor=SYSTEM, provider_id=second, verified=True, active=True)
        await set_service_area(session=session, actor=SYSTEM, provider_id=second, zip_codes=["10002"])
    await assert_copies_match()
    assert await zip_search("10001") == [first] and await zip_search("10002") == [second, first]


async def test_sample_providers_carry_the_copies(configured) -> None:
    async with app_db.unit_of_work() as session:
        await seed_providers(session=session, count=40, rng=random.Random(3))
    await assert_copies_match()
    async with app_db.unit_of_work() as session:  # every service has its own bit
        bits = (await session.scalars(select(Service.search_bit))).all()
    assert sorted(bits) == list(range(len(bits)))
