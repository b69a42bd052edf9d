"""Minimum necessary (issue 27, privacy 3): a visit's provider sees the patient's home address and intake notes
while the visit is open and for VISIT_DETAILS_VISIBLE_HOURS after it ended or was cancelled, then no more —
in the provider's schedule and in a won job's notes alike. The patient always sees their own."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from app import db as app_db
from app.services.appointments import list_my_appointments, list_provider_schedule
from app.services.service_requests import accept_offer, list_my_offers
from app.settings import get_settings
from models.account import Role
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus
from models.service_request import OfferStatus
from tests.factories import person, present, provider, run, visit
from tests.unit.test_service_requests import ADDRESS, NOTES, NOW, offer, post, provider_account


async def _close(visit_id: str, status: AppointmentStatus, at) -> None:  # noqa: ANN001
    """The visit ended (or was cancelled) at `at`."""
    values = {"status": status, "starts_at": at - timedelta(minutes=30), "ends_at": at, "busy_until": at}
    values |= {"completed_at": at} if status is AppointmentStatus.completed else {"cancelled_at": at}
    async with app_db.unit_of_work() as session:
        await session.execute(update(Appointment).where(Appointment.id == visit_id).values(**values))


async def test_a_provider_sees_address_and_notes_only_while_open_and_shortly_after(
    identity, monkeypatch
) -> None:
    owner = await person(Role.provider, "Ada Nurse")
    provider_id = await provider(owner=owner)
    patient = await person(name="Pat Home")
    now = utcnow()
    ahead = await visit(patient, provider_id, now + timedelta(days=2), status=AppointmentStatus.confirmed)
    just_done = await visit(patient, provider_id, now - timedelta(days=9))
    long_done = await visit(patient, provider_id, now - timedelta(days=8))
    just_cancelled = await visit(patient, provider_id, now - timedelta(days=7))
    long_cancelled = await visit(patient, provider_id, now - timedelta(days=6))
    await _close(just_done, AppointmentStatus.completed, now - timedelta(hours=2))
    await _close(long_done, AppointmentStatus.completed, now - timedelta(days=3))
    await _close(just_cancelled, AppointmentStatus.cancelled, now - timedelta(hours=5))
    await _close(long_cancelled, AppointmentStatus.cancelled, now - timedelta(days=2))

    def details(reads) -> dict:  # noqa: ANN001
        return {r.id: (r.address_line, r.city, r.notes, r.details_hidden) for r in reads}

    shown, hidden = ("12 Main St", "New York", "Gate code 1234", False), ("", "", "", True)
    upcoming = details(await run(list_provider_schedule, actor=owner.actor, when="upcoming"))
    past = details(await run(list_provider_schedule, actor=owner.actor, when="past"))
    assert upcoming[ahead] == shown
    assert (past[just_done], past[just_cancelled]) == (shown, shown)
    assert (past[long_done], past[long_cancelled]) == (hidden, hidden)
    # ZIP code and state stay: where the visit was, roughly, is part of the provider's own record.
    assert {r.zip_code for r in await run(list_provider_schedule, actor=owner.actor, when="past")} == {
        "10001"
    }

    # The patient's own visits are always whole.
    mine = details(await run(list_my_appointments, actor=patient.actor, when="past"))
    assert all(value == shown for value in mine.values())

    # The window is a setting.
    monkeypatch.setenv("VISIT_DETAILS_VISIBLE_HOURS", "96")
    get_settings.cache_clear()
    past = details(await run(list_provider_schedule, actor=owner.actor, when="past"))
    assert (past[long_done], past[long_cancelled]) == (shown, shown)


async def test_a_won_jobs_notes_follow_its_visit(identity) -> None:
    ella, _ = await provider_account("Ella Winner")
    patient = await person(name="Pat Request")
    request_id = await post(patient.actor)
    await run(accept_offer, actor=patient.actor, offer_id=await offer(ella, request_id), now=NOW, **ADDRESS)
    won = (await run(list_my_offers, actor=ella))[0]
    assert (won.status, won.notes) == (OfferStatus.accepted, NOTES)

    async with app_db.unit_of_work() as session:
        visit_id = await session.scalar(select(Appointment.id).where(Appointment.patient_id == patient.id))
    await _close(present(visit_id), AppointmentStatus.cancelled, utcnow() - timedelta(hours=25))
    assert (await run(list_my_offers, actor=ella))[0].notes is None
