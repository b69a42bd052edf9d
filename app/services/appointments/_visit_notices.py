"""What the patient and the providers hear when a visit moves along (subscribers of the visit lifecycle's
events, run after the commit, for the patient's, the provider's and staff's commands alike): the
notification in the app and, for those whose preferences want it now, the visit's e-mail; a completed visit
not yet reviewed asks the patient for a review."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.appointments._lifecycle import Party, _tell
from app.services.appointments._reads import appointment_read
from app.services.appointments._staff_actions import _tell as _tell_staff_change
from app.services.domain_events import (
    AppointmentCancelled,
    AppointmentCompleted,
    AppointmentConfirmed,
    AppointmentReassigned,
    AppointmentRescheduled,
)
from app.services.notifications import Audience, VisitNote
from app.services.notifications.internal import notify_visits
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
    found = await _visit(session, moved.appointment_id)
    if found is None:
        return
    if moved.by != Party.staff:
        await _tell(session, *found, "rescheduled", "patient", "provider", now=moved.at)
        return
    read, provider = found
    both: list[tuple[Audience, str | None]] = [
        ("patient", read.patient_id),
        ("provider", read.provider_user_id),
    ]
    await _tell_staff_change(
        session, read, provider.time_zone, NotificationKind.visit_changed, "staff_rescheduled", both, moved.at
    )


async def tell_reassigned(session: AsyncSession, reassigned: AppointmentReassigned) -> None:
    """The patient and the new provider hear of the new provider; the former one that the visit is gone."""
    found = await _visit(session, reassigned.appointment_id)
    if found is None:
        return
    read, chosen = found
    told: list[tuple[Audience, str | None]] = [("patient", read.patient_id), ("provider", chosen.user_id)]
    kind, at = NotificationKind.visit_reassigned, reassigned.at
    await _tell_staff_change(session, read, chosen.time_zone, kind, "reassigned", told, at)
    former = await session.get(Provider, reassigned.from_provider_id)
    if former is not None and former.user_id:
        gone: list[tuple[Audience, str | None]] = [("provider", former.user_id)]
        kind = NotificationKind.visit_unassigned
        await _tell_staff_change(session, read, chosen.time_zone, kind, "unassigned", gone, at)


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
