"""The reference catalog (idempotent seeding, prices with the flash sale), provider profiles and their
permissions, and the rating: only reviews of completed visits count."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from app import db as app_db
from app.principal import SYSTEM
from app.services.accounts.internal import create_account
from app.services.appointments import rating_summary
from app.services.appointments.internal import add_review, mark_visit_completed
from app.services.catalog import CATALOG, list_catalog
from app.services.catalog.internal import ensure_reference_catalog
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers import (
    ServiceOffer,
    create_provider,
    get_provider,
    set_listing,
    set_service_area,
    set_services,
)
from models.account import Role
from models.booking import Appointment, AppointmentStatus
from models.catalog import Service, ServiceLocation
from models.provider import RatingRead
from tests.factories import person

NOON = datetime(2030, 3, 14, 16, 0, tzinfo=UTC)


def test_rating_summary_counts_only_completed_visits() -> None:
    assert rating_summary([]) == RatingRead()
    assert rating_summary([(1, False), (2, False)]) == RatingRead()
    summary = rating_summary([(5, True), (4, True), (1, False), (4, True)])
    assert summary == RatingRead(average=Decimal("4.33"), count=3)


async def test_reference_catalog_is_seeded_once(configured) -> None:
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
    async with app_db.unit_of_work() as session:
        assert await ensure_reference_catalog(session=session) == []
        catalog = await list_catalog(session=session, at=NOON)
    assert [c.slug for c in catalog] == ["phlebotomy", "iv-therapy", "nursing", "diagnostics"]
    assert [len(c.services) for c in catalog] == [len(c.services) for c in CATALOG]
    draw = catalog[0].services[0]
    assert draw.slug == "routine-blood-draw" and "fasting" in draw.preparation.lower()
    assert draw.price.charge == draw.price.original == Decimal("79.00") and draw.duration_minutes == 30
    assert ServiceLocation.home in draw.locations and ServiceLocation.virtual not in draw.locations
    hydration = catalog[1].services[0]
    assert "drink water" in hydration.preparation.lower()
    assert hydration.price.on_sale and hydration.price.charge == Decimal("104.30")  # the sale runs daily


async def _provider(**kwargs) -> str:  # noqa: ANN003
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        profile = await create_provider(
            session=session,
            actor=SYSTEM,
            first_name="Ada",
            last_name="Nurse",
            provider_type="nurse",
            **kwargs,
        )
    return profile.id


async def _visit(provider_id: str) -> str:
    """A visit of a new patient with the provider, booked and not yet completed."""
    async with app_db.unit_of_work() as session:
        patient = await create_account(
            session=session,
            email=f"patient-{uuid.uuid4().hex[:10]}@medivisit.test",
            password="correct-horse-1",
            role=Role.patient,
        )
        service = await session.scalar(select(Service).where(Service.slug == "routine-blood-draw"))
        visit = Appointment(
            patient_id=patient.id,
            provider_id=provider_id,
            service_id=service.id,
            status=AppointmentStatus.in_progress,
            starts_at=NOON,
            ends_at=NOON + timedelta(minutes=30),
            busy_until=NOON + timedelta(minutes=60),
            location=ServiceLocation.home,
            price=service.price,
            original_price=service.price,
        )
        session.add(visit)
        await session.flush()
        return visit.id


async def test_rating_counts_only_completed_visits(identity) -> None:
    provider_id = await _provider(verified=True)
    appointment = await _visit(provider_id)
    async with app_db.unit_of_work() as session:
        await add_review(session=session, provider_id=provider_id, rating=5, visit_completed=True)
        await add_review(session=session, provider_id=provider_id, rating=4, visit_completed=True)
        await add_review(session=session, provider_id=provider_id, rating=1, appointment_id=appointment)
    async with app_db.unit_of_work() as session:
        profile = await get_provider(session=session, provider_id=provider_id)
    assert profile.rating == RatingRead(average=Decimal("4.50"), count=2)

    async with app_db.unit_of_work() as session:
        assert await mark_visit_completed(session=session, appointment_id=appointment) == 1
    async with app_db.unit_of_work() as session:
        profile = await get_provider(session=session, provider_id=provider_id)
    assert profile.rating == RatingRead(average=Decimal("3.33"), count=3)


@pytest.mark.parametrize("rating", [0, 6, 4.5])
async def test_review_ratings_are_whole_stars(configured, rating) -> None:
    provider_id = await _provider()
    with pytest.raises(ValidationFailed):
        async with app_db.unit_of_work() as session:
            await add_review(session=session, provider_id=provider_id, rating=rating)


async def test_only_verified_active_profiles_are_public(configured) -> None:
    provider_id = await _provider()
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await get_provider(session=session, provider_id=provider_id)
    async with app_db.unit_of_work() as session:
        await set_listing(session=session, actor=SYSTEM, provider_id=provider_id, verified=True, active=True)
    async with app_db.unit_of_work() as session:
        assert (await get_provider(session=session, provider_id=provider_id)).is_verified
        await set_listing(session=session, actor=SYSTEM, provider_id=provider_id, verified=True, active=False)
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await get_provider(session=session, provider_id=provider_id)


async def test_profile_services_and_area(configured) -> None:
    provider_id = await _provider(verified=True)
    async with app_db.unit_of_work() as session:
        await set_services(
            session=session,
            actor=SYSTEM,
            provider_id=provider_id,
            offers=[
                ServiceOffer("iv-hydration", Decimal("160"), (ServiceLocation.home,)),
                ServiceOffer("routine-blood-draw", Decimal("70")),
            ],
        )
        await set_service_area(
            session=session, actor=SYSTEM, provider_id=provider_id, zip_codes=["10002", "10001"]
        )
    async with app_db.unit_of_work() as session:
        profile = await get_provider(session=session, provider_id=provider_id, at=NOON)
    offers = {o.service_slug: o for o in profile.services}
    assert offers["iv-hydration"].price.charge == Decimal("112.00")  # the provider's own price, 30% off
    assert offers["iv-hydration"].locations == [ServiceLocation.home]
    assert offers["routine-blood-draw"].price.charge == Decimal("70.00")
    assert profile.zip_codes == ["10001", "10002"]

    with pytest.raises(ValidationFailed, match="can't be offered"):
        async with app_db.unit_of_work() as session:
            await set_services(
                session=session,
                actor=SYSTEM,
                provider_id=provider_id,
                offers=[ServiceOffer("wound-care", Decimal("100"), (ServiceLocation.virtual,))],
            )
    with pytest.raises(ValidationFailed):
        async with app_db.unit_of_work() as session:
            await set_service_area(session=session, actor=SYSTEM, provider_id=provider_id, zip_codes=["1234"])


async def test_who_may_change_a_profile(configured) -> None:
    a_provider = (await person(Role.provider)).actor
    stranger = (await person(Role.provider)).actor
    patient = (await person(Role.patient)).actor
    provider_id = await _provider()
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await set_service_area(
                session=session, actor=stranger, provider_id=provider_id, zip_codes=["10001"]
            )
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await set_listing(
                session=session, actor=a_provider, provider_id=provider_id, verified=True, active=True
            )
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await create_provider(
                session=session, actor=patient, first_name="P", last_name="Q", provider_type="nurse"
            )
