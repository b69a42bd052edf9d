"""Service requests and the job board (issue 17): who sees a request, the offer price bounds, accepting an
offer books the visit through checkout (once, even when two tabs accept at the same moment), and expiry."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.principal import Principal
from app.services.booking import hold_slot
from app.services.errors import NotFound, ValidationFailed
from app.services.service_requests import (
    accept_offer,
    get_service_request,
    list_job_board,
    list_my_offers,
    list_my_service_requests,
    list_offer_times,
    post_service_request,
    send_offer,
)
from app.services.service_requests._rules import ALREADY_OFFERED, NOT_ELIGIBLE, NOT_OPEN, reach_of
from app.services.service_requests.internal import expire_due_requests
from models.account import Role
from models.booking import Appointment, AppointmentStatus
from models.catalog import ServiceLocation
from models.notification import Notification
from models.service_request import OfferStatus, RequestStatus, ServiceRequestCreate, WindowInput
from tests.factories import person, present, provider, run

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
TUESDAY_NINE = datetime(2030, 1, 8, 14, 0, tzinfo=UTC)  # Tuesday 9:00 in New York
NOTES = "Fasting draw; I bruise easily, please use a small needle."
ADDRESS = {"address_line": "1 Request Road", "city": "New York", "state": "NY"}


async def provider_account(name: str, **kwargs: Any) -> tuple[Principal, str]:
    """A signed-in provider account with a verified profile (blood draws in 10001 and a NY licence by
    default)."""
    who = await person(Role.provider, name)
    return who.actor, await provider(name, owner=who, **kwargs)


async def post(actor: Principal, zip_code: str = "10001") -> str:
    request = ServiceRequestCreate(
        service_slug="routine-blood-draw",
        location="home",
        zip_code=zip_code,
        windows=[WindowInput(day="2030-01-08", start="09:00", end="12:00")],
        notes=NOTES,
    )
    return (await run(post_service_request, actor=actor, request=request, now=NOW)).id


async def offer(
    actor: Principal, request_id: str, price: str = "70", starts_at: datetime = TUESDAY_NINE
) -> str:
    sent = await run(
        send_offer,
        actor=actor,
        request_id=request_id,
        price=Decimal(price),
        starts_at=starts_at,
        message="I can come first thing.",
        now=NOW,
    )
    return sent.id


async def test_only_eligible_providers_see_a_request_and_never_its_notes(identity) -> None:
    eligible, _ = await provider_account("Ella Eligible")
    elsewhere, _ = await provider_account("Chi Elsewhere", zip_codes=("60614",))
    unlicensed, _ = await provider_account("Una Unlicensed", licenses=[])
    other_service, _ = await provider_account("Ivy Other", offers={"iv-hydration": ("150", ())})
    patient = await person(name="Pat Patient")
    request_id = await post(patient.actor)

    board = await run(list_job_board, actor=eligible, now=NOW)
    assert [r.id for r in board] == [request_id]
    assert board[0].notes is None and board[0].area == "New York, NY"
    assert board[0].distance_miles == 0.0  # the centre of a one-ZIP area is that ZIP's
    for actor in (elsewhere, unlicensed, other_service):
        assert await run(list_job_board, actor=actor, now=NOW) == []
    with pytest.raises(NotFound) as refused:
        await offer(elsewhere, request_id)
    assert refused.value.message == NOT_ELIGIBLE
    # The notes: the patient and staff with view_patient_logs; not support staff, not an eligible provider.
    manager, support = await person(Role.management, "Meg Manager"), await person(Role.support, "Sue Support")
    assert (await run(get_service_request, actor=manager.actor, request_id=request_id)).notes == NOTES
    for actor in (support.actor, eligible):
        with pytest.raises(NotFound):
            await run(get_service_request, actor=actor, request_id=request_id)


def test_the_reach_of_a_service_area_is_every_zip_code_within_25_miles() -> None:
    reach = reach_of(["10001"])
    assert {"10001", "10701", "07030"} <= reach  # itself; Yonkers, NY (15 miles); Hoboken, NJ (3 miles)
    assert reach.isdisjoint({"12207", "60614", "19103"})  # Albany, Chicago, Philadelphia (80 miles)
    assert 300 < len(reach) < 2000
    assert reach_of([]) == frozenset()


async def test_a_request_from_a_zip_nobody_lists_reaches_the_providers_nearby_and_is_booked(identity) -> None:
    # Nobody lists Yonkers (10701); Ella travels to Manhattan (10001), 15 miles away; Al to Albany (12207).
    ella, ella_id = await provider_account("Ella Nearby")
    albany, _ = await provider_account("Al Albany", zip_codes=("12207",))
    patient = await person(name="Pat Yonkers")
    request_id = await post(patient.actor, zip_code="10701")

    board = await run(list_job_board, actor=ella, now=NOW)
    assert [(r.id, r.area) for r in board] == [(request_id, "Yonkers, NY")]
    assert 14 < present(board[0].distance_miles) < 17
    assert await run(list_job_board, actor=albany, now=NOW) == []

    winning = await offer(ella, request_id, "80")
    address = {**ADDRESS, "city": "Yonkers"}
    accepted = await run(accept_offer, actor=patient.actor, offer_id=winning, now=NOW, **address)
    assert accepted.status == RequestStatus.booked
    async with app_db.unit_of_work() as session:
        visit = await session.scalar(select(Appointment).where(Appointment.provider_id == ella_id))
    assert (visit.status, visit.zip_code, visit.city) == (AppointmentStatus.pending, "10701", "Yonkers")

    # Her offer was for that visit only: booking her in Yonkers at another time is still refused.
    with pytest.raises(ValidationFailed, match="ZIP code 10701"):
        await run(
            hold_slot,
            actor=patient.actor,
            service_slug="routine-blood-draw",
            provider_id=ella_id,
            starts_at=TUESDAY_NINE + timedelta(hours=2),
            zip_code="10701",
            location=ServiceLocation.home,
            now=NOW,
        )


async def test_an_offer_is_priced_within_the_catalog_bounds_once_per_provider(identity) -> None:
    ella, _ = await provider_account("Ella Bounds")
    patient = await person(name="Pat Bounds")
    request_id = await post(patient.actor)
    # The routine blood draw lists at $79: offers from $63.20 (80 %) to $118.50 (150 %).
    for price in ("63.19", "118.51", "70.001"):
        with pytest.raises(ValidationFailed, match=r"between \$63.20 and \$118.50"):
            await offer(ella, request_id, price)
    assert (await run(list_offer_times, actor=ella, request_id=request_id, now=NOW))[0] == TUESDAY_NINE
    await offer(ella, request_id, "118.50")
    with pytest.raises(ValidationFailed) as twice:
        await offer(ella, request_id, "70")
    assert twice.value.message == ALREADY_OFFERED
    mine = await run(list_my_service_requests, actor=patient.actor)
    assert mine[0].status == RequestStatus.offered and mine[0].offers[0].price == Decimal("118.50")


async def test_accepting_an_offer_books_the_visit_and_closes_the_others(identity) -> None:
    ella, ella_id = await provider_account("Ella Winner")
    omar, _ = await provider_account("Omar Other")
    patient = await person(name="Pat Accept")
    request_id = await post(patient.actor)
    winning = await offer(ella, request_id, "70")
    await offer(omar, request_id, "75")

    accepted = await run(accept_offer, actor=patient.actor, offer_id=winning, now=NOW, **ADDRESS)

    assert accepted.status == RequestStatus.booked and accepted.order_number.startswith("MV-")
    async with app_db.unit_of_work() as session:
        visit = await session.scalar(select(Appointment).where(Appointment.provider_id == ella_id))
    assert visit.status == AppointmentStatus.pending and visit.price == Decimal("70.00")
    assert visit.notes == NOTES
    won, lost = (await run(list_my_offers, actor=ella))[0], (await run(list_my_offers, actor=omar))[0]
    assert (won.status, won.notes) == (OfferStatus.accepted, NOTES)
    assert (lost.status, lost.notes) == (OfferStatus.declined, None)
    assert await run(list_job_board, actor=omar, now=NOW) == []


async def test_two_tabs_accepting_at_once_book_one_visit(identity) -> None:
    ella, ella_id = await provider_account("Ella Race")
    omar, omar_id = await provider_account("Omar Race")
    patient = await person(name="Pat Race")
    request_id = await post(patient.actor)
    offers = [await offer(ella, request_id), await offer(omar, request_id)]

    async def accept(offer_id: str) -> str:
        try:
            read = await run(accept_offer, actor=patient.actor, offer_id=offer_id, now=NOW, **ADDRESS)
        except ValidationFailed as refusal:
            return refusal.message
        return read.order_number

    results = await asyncio.gather(accept(offers[0]), accept(offers[0]), accept(offers[1]))

    assert sum(result.startswith("MV-") for result in results) == 1, results
    assert all(result == NOT_OPEN for result in results if not result.startswith("MV-"))
    async with app_db.unit_of_work() as session:
        booked = await session.scalar(
            select(func.count()).where(Appointment.provider_id.in_([ella_id, omar_id]))
        )
    assert booked == 1


async def test_requests_expire_with_their_pending_offers(identity) -> None:
    ella, _ = await provider_account("Ella Expiry")
    patient = await person(name="Pat Expiry")
    request_id = await post(patient.actor)
    await offer(ella, request_id)
    assert await run(expire_due_requests, now=NOW + timedelta(hours=1)) == 0

    # The last preferred time ends on Tuesday at noon in New York, before the 72-hour lifetime.
    later = datetime(2030, 1, 8, 17, 0, tzinfo=UTC)
    assert await run(expire_due_requests, now=later) == 1

    mine = (await run(list_my_service_requests, actor=patient.actor))[0]
    assert mine.status == RequestStatus.expired and mine.offers[0].status == OfferStatus.expired
    async with app_db.unit_of_work() as session:
        told = await session.scalars(select(Notification.kind).where(Notification.recipient_id == patient.id))
        assert "service_request_closed" in told.all()
    assert await run(list_job_board, actor=ella, now=NOW) == []
