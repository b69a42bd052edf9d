"""What the patient and the provider hear when a visit moves along (subscribers of the visit lifecycle's
events, run after the commit): the notification in the app and, for those whose preferences want it now,
the visit's e-mail; a completed visit not yet reviewed asks the patient for a review."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.appointments._lifecycle import Party, _tell
from app.services.appointments._reads import appointment_read
from app.services.domain_events import (
    AppointmentCancelled,
    AppointmentCompleted,
    AppointmentConfirmed,
    AppointmentRescheduled,
)
from app.services.notifications import VisitNote, notify_visits
from models.booking import Appointment, AppointmentRead
from models.notification import NotificationKind
from models.provider import Provider


async def _visit(session: AsyncSession, appointment_id: str) -> tuple[AppointmentRead, Provider] | None:
    row = await session.get(Appointment, appointment_id)
    provider = await session.get(Provider, row.provider_id) if row is not None else None
    if row is None or provider is None:
        return None
    return await appointment_read(session, row), provider


async def tell_confirmed(session: AsyncSession, confirmed: AppointmentConfirmed) -> None:
    if found := await _visit(session, confirmed.appointment_id):
        await _tell(session, *found, "confirmed", "patient", now=confirmed.at)


async def tell_rescheduled(session: AsyncSession, moved: AppointmentRescheduled) -> None:
    if found := await _visit(session, moved.appointment_id):
        await _tell(session, *found, "rescheduled", "patient", "provider", now=moved.at)


async def tell_cancelled(session: AsyncSession, cancelled: AppointmentCancelled) -> None:
    """The patient always hears of it; the provider unless they cancelled it themselves."""
    if found := await _visit(session, cancelled.appointment_id):
        audiences = ("patient",) if cancelled.by == Party.provider else ("patient", "provider")
        await _tell(session, *found, "cancelled", *audiences, now=cancelled.at)


async def ask_for_review(session: AsyncSession, completed: AppointmentCompleted) -> None:
    found = await _visit(session, completed.appointment_id)
    if found is None or found[0].reviewed:
        return
    read, provider = found
    note = VisitNote(read.patient_id, "patient", read.id, read.starts_at, provider.time_zone)
    await notify_visits(session=session, kind=NotificationKind.review_request, notes=[note], now=completed.at)
