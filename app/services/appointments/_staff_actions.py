"""Staff appointments, the commands (/staff/appointments, issue 15), all for members holding
manage_appointments: give a visit to another provider, move it to another open time of its provider, or
cancel it on the patient's behalf with a reason. (Confirming is `staff.confirm_visit`.)

The booking rules still hold: a visit goes only to a provider who is listed, offers its service at its place,
travels to its ZIP code, is licensed in its state and is free at its time (weekly hours, time off, the
booking notice and horizon, other visits and their travel buffer: booking's `open_providers_at` rules), and
moves only to one of its provider's open times. Between that check and the write, a patient may book the
same time: the provider's row lock queues the writers (PostgreSQL) and the database's no-overlap rule refuses
the second, so a visit is never double-booked; the member then reads that the time was just taken.

A visit given to another provider, or moved, waits for its provider to confirm it again. The patient and the
provider(s) are told each time: in-app notifications of the catalogue (visit_reassigned, visit_unassigned,
visit_changed, visit_cancelled) and the visit e-mails, sent when their preferences want them now.
Cancelling settles the money through the ledger's path (`cancel_appointment`): refunds of money paid ahead
inside 24 hours only as the existing staff exception (process_payments and its reason).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import events, flags
from app.events import publish_event
from app.principal import Principal
from app.services.appointments._emails import send_visit_update
from app.services.appointments._lifecycle import (
    ALREADY_STARTED,
    CHANGEABLE,
    Party,
    _changed,
    _expect,
    _open_starts,
    _visit,
    appointments_topic,
    cancel_appointment,
    move_visit,
)
from app.services.appointments._scheduling import eligible_providers, lock_providers, provider_calendars
from app.services.appointments._staff_reads import check_zone, staff_with
from app.services.domain_events import AppointmentReassigned, AppointmentRescheduled
from app.services.errors import ValidationFailed
from app.services.notifications import Audience, VisitNote
from app.services.notifications.internal import notify_visits
from app.services.providers import display_name, slot_rules
from app.services.shared.accounts import get_account
from models.booking import Appointment, AppointmentRead, AppointmentStatus, overlap_refused
from models.catalog import Service
from models.identity import as_utc
from models.notification import NotificationKind
from models.provider import Provider
from models.staff import Permission
from models.staff_visits import MAX_REASON, ReassignOption

STAFF_TOPIC = "appointments:staff"  # every change made here, for the staff screens to refetch
REASON_REQUIRED = "Enter the reason for cancelling; the patient and the provider read it."
LONG_REASON = f"The reason can be at most {MAX_REASON} characters."
SAME_PROVIDER = "The visit is already with this provider. Choose another provider."
NOT_FREE = "This provider can't take the visit at its time. Choose one of the providers offered."
TAKEN = "Someone has just booked this time with that provider. Choose another provider."
NOT_OPEN = "This time is not open for the visit's provider. Choose one of the times offered."


def _moment(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


async def _changeable(
    session: AsyncSession, actor: Principal, appointment_id: str, now: datetime
) -> tuple[Appointment, Provider]:
    """The visit (row-locked), for a member holding manage_appointments, while it is pending or confirmed
    and has not started."""
    await staff_with(session, actor, Permission.manage_appointments)
    row, provider = await _visit(session, appointment_id[:36])
    _expect(row, *CHANGEABLE)
    if now >= as_utc(row.starts_at):
        raise ValidationFailed(ALREADY_STARTED)
    return row, provider


async def _tell(
    session: AsyncSession,
    read: AppointmentRead,
    time_zone: str,
    kind: NotificationKind,
    email: str,
    recipients: list[tuple[Audience, str | None]],
    now: datetime,
) -> None:
    """Notify each (audience, user) in-app and send them the visit e-mail `email` when their preferences
    want it now (the catalogue's kinds here leave the e-mail to the caller)."""
    notes = [VisitNote(user_id, a, read.id, read.starts_at, time_zone) for a, user_id in recipients]
    delivery = await notify_visits(session=session, kind=kind, notes=notes, now=now)
    for audience, user_id in recipients:
        if user_id is None or user_id not in delivery.email_now:
            continue
        account = await get_account(session=session, user_id=user_id)
        if account is not None and account.email:
            await send_visit_update(
                session=session,
                to=account.email,
                kind=email,
                audience=audience,
                appointment=read,
                time_zone=time_zone,
            )


async def _staff_changed(session: AsyncSession, read: AppointmentRead, *also: str | None) -> None:
    await events.publish_on_commit(
        session, STAFF_TOPIC, {"appointment_id": read.id, "status": read.status.value}
    )
    for user_id in {u for u in also if u} - {read.patient_id, read.provider_user_id}:
        await events.publish_on_commit(
            session, appointments_topic(user_id), {"appointment_id": read.id, "status": read.status.value}
        )


# ---- give a visit to another provider -----------------------------------------------------------------
async def _free_providers(
    session: AsyncSession, row: Appointment, now: datetime
) -> tuple[list[Provider], set[str]]:
    """Providers other than the visit's own (and never its patient) who may take it at its time, best rated
    first, and those of them with an expired hold around it."""
    service = await session.get_one(Service, row.service_id)
    start = as_utc(row.starts_at)
    candidates = await eligible_providers(session, service, row.location, row.zip_code, None, start.date())
    providers = [
        c.provider
        for c in candidates
        if c.provider.id != row.provider_id and c.provider.user_id != row.patient_id
    ]
    minutes = int((as_utc(row.ends_at) - start).total_seconds() // 60)
    calendars = await provider_calendars(
        session, providers, slot_rules(minutes), start, start + timedelta(minutes=1), now
    )
    return [p for p in providers if calendars.starts(p) == [start]], calendars.expired


async def list_reassign_options(
    *, session: AsyncSession, actor: Principal, appointment_id: str, now: datetime | None = None
) -> list[ReassignOption]:
    """The providers this visit may be given to now (manage_appointments), best rated first."""
    now = _moment(now)
    row, _provider = await _changeable(session, actor, appointment_id, now)
    free, _expired = await _free_providers(session, row, now)
    return [
        ReassignOption(
            provider_id=p.id,
            name=display_name(p.first_name, p.last_name),
            rating=float(p.rating_average) if p.review_count else None,
            review_count=p.review_count,
        )
        for p in free
    ]


async def reassign_visit(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    provider_id: str,
    now: datetime | None = None,
) -> AppointmentRead:
    """Give the visit to `provider_id` at the same time and place (manage_appointments). It waits for the
    new provider's confirmation; the patient, the new provider and the former one are told."""
    now = _moment(now)
    row, former = await _changeable(session, actor, appointment_id, now)
    if provider_id == row.provider_id:
        raise ValidationFailed(SAME_PROVIDER)
    free, expired = await _free_providers(session, row, now)
    chosen = next((p for p in free if p.id == provider_id), None)
    if chosen is None:
        raise ValidationFailed(NOT_FREE)
    if chosen.id in expired:  # expired holds no longer count, but the no-overlap rule still sees their rows
        await session.execute(
            delete(Appointment).where(
                Appointment.provider_id == chosen.id,
                Appointment.status == AppointmentStatus.held,
                Appointment.hold_expires_at <= now,
            )
        )
    await lock_providers(session, [chosen.id])  # queue behind other writers of its time (PostgreSQL)
    try:
        async with session.begin_nested():
            row.provider_id = chosen.id
            row.busy_until = as_utc(row.ends_at) + timedelta(minutes=flags.travel_buffer_minutes())
            row.status, row.confirmed_at = AppointmentStatus.pending, None
            await session.flush()
    except IntegrityError as exc:
        if not overlap_refused(exc):
            raise
        raise ValidationFailed(TAKEN) from None
    # The ledger moves the visit's charge now; the patient and both providers are told after the commit.
    moved = AppointmentReassigned(
        appointment_id=row.id, from_provider_id=former.id, to_provider_id=chosen.id, at=now
    )
    await publish_event(session, moved)
    read = await _changed(session, row)
    await _staff_changed(session, read, former.user_id)
    return read


# ---- move a visit to another time of its provider -------------------------------------------------------
async def list_staff_reschedule_times(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    day: date,
    time_zone: str,
    now: datetime | None = None,
) -> list[datetime]:
    """The open times of the visit's provider on a calendar day of `time_zone` it may move to
    (manage_appointments); the visit's own time is left out."""
    now = _moment(now)
    row, provider = await _changeable(session, actor, appointment_id, now)
    current = as_utc(row.starts_at)
    starts = await _open_starts(session, row, provider, day, check_zone(time_zone), now)
    return [start for start in starts if start != current]


async def reschedule_visit_for_patient(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    starts_at: datetime,
    now: datetime | None = None,
) -> AppointmentRead:
    """Move the visit to another open time of its provider on the patient's behalf (manage_appointments;
    staff are not bound by the patient's 24-hour notice). It waits for the provider to confirm the new time;
    the patient and the provider are told."""
    now = _moment(now)
    row, provider = await _changeable(session, actor, appointment_id, now)
    await move_visit(session, row, provider, starts_at, now, not_open=NOT_OPEN, lock=True)
    read = await _changed(session, row)
    await _staff_changed(session, read)
    await publish_event(session, AppointmentRescheduled(appointment_id=row.id, by=Party.staff.value, at=now))
    return read


# ---- cancel on the patient's behalf ------------------------------------------------------------------
async def cancel_visit_for_patient(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    reason: str,
    refund_exception: str = "",
    now: datetime | None = None,
) -> AppointmentRead:
    """Cancel a pending or confirmed visit on the patient's behalf, with a reason (manage_appointments):
    recorded as cancelled by staff; the ledger settles its money (a refund inside 24 hours of money paid
    ahead only with `refund_exception`, which needs process_payments); the patient and provider are told."""
    await staff_with(session, actor, Permission.manage_appointments)
    reason = " ".join((reason or "").split())
    if not reason:
        raise ValidationFailed(REASON_REQUIRED)
    if len(reason) > MAX_REASON or len(refund_exception or "") > MAX_REASON:
        raise ValidationFailed(LONG_REASON)
    read = await cancel_appointment(
        session=session,
        actor=actor,
        appointment_id=appointment_id[:36],
        reason=reason,
        refund_exception=refund_exception,
        now=now,
    )
    await _staff_changed(session, read)
    return read
