"""The visit lifecycle after checkout: patients' and providers' lists of visits, and the commands that move a
visit along — confirm, start, complete (settling its money), cancel and reschedule under the 24-hour notice
policy — plus the 24-hour reminders.

Who may do what (checked here, on every call, after re-checking the browser session):
- the visit's patient: see it; cancel or reschedule it before it starts, when `patient_change_refusal` has
  no objection: CANCEL_NOTICE_HOURS ahead, while the provider has not confirmed it, or within
  CANCEL_GRACE_MINUTES of booking it (every visit's read carries the answer, so screens offer only what works);
- its provider (the account linked to the provider profile): see it; confirm, start and complete it; cancel
  it, with a reason, at any time before it starts;
- owners and admins: what the provider may, on any visit, and cancel at any time.
Held slots (a checkout in progress) are not visits yet: nobody sees or changes them here.

Money is the ledger's (`app.services.ledger`), written in the same unit of work: completing a visit
publishes `AppointmentCompleted`, whose ledger subscriber collects a paid-ahead visit (the provider's pending
earning, the platform's fee share) and settles its `booking` transaction, and once no visit of the order is
open the `fee` settles at what was collected and the order is paid. A pay-at-visit visit is completed with
what the provider says they collected in person (`record_visit_payment`), or with its payment due.
Cancelling a visit voids what was owed, or refunds what was paid ahead as wallet credit under the refund
policy (inside 24 hours only as a staff exception: `refund_exception`, its reason); once every visit of the
order is cancelled, the fee and the order are cancelled too. Cancelling calls the ledger itself: its refund
policy may refuse the cancellation (a refund inside 24 hours needs the staff exception).

What the patient and the provider are told (notifications, the visit's e-mails, the review request) follows
the commit: `_visit_notices` subscribes to AppointmentConfirmed, -Rescheduled, -Cancelled and -Completed.
"""

from __future__ import annotations

import enum
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Literal

from sqlalchemy import ColumnElement, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import events, flags
from app.db import changed_rows
from app.events import publish_event
from app.principal import Principal
from app.services.appointments._emails import send_visit_update
from app.services.appointments._policy import START_EARLY, patient_change_refusal
from app.services.appointments._reads import appointment_read, appointment_reads
from app.services.appointments._reviews import mark_visit_completed
from app.services.appointments._scheduling import lock_providers
from app.services.automation.internal import emit_visit_events
from app.services.domain_events import (
    AppointmentCancelled,
    AppointmentCompleted,
    AppointmentConfirmed,
    AppointmentRescheduled,
)
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger import record_visit_payment, settle_cancelled_visit
from app.services.notifications import Audience, VisitNote
from app.services.notifications.internal import notify_visits
from app.services.providers import Interval, generate_slots, slot_rules
from app.services.providers.internal import load_blocks, load_hours
from app.services.shared.accounts import get_account, is_admin
from app.services.shared.clock import day_bounds, zone
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from models.account import AccountRead
from models.booking import (
    Appointment,
    AppointmentRead,
    AppointmentStatus,
    Order,
    VisitSummary,
    overlap_refused,
)
from models.identity import User, as_utc
from models.notification import NotificationKind
from models.provider import Provider
from models.staff import Permission

REMINDER_AHEAD = timedelta(hours=24)
LIST_LIMIT = 100
REMINDER_BATCH = 500
MAX_REASON = 500

When = Literal["upcoming", "past"]
OPEN = (AppointmentStatus.pending, AppointmentStatus.confirmed, AppointmentStatus.in_progress)
CLOSED = (AppointmentStatus.completed, AppointmentStatus.cancelled)
CHANGEABLE = (AppointmentStatus.pending, AppointmentStatus.confirmed)

NO_VISIT = "No visit has this id."
NOT_YOURS = "You can only see and change your own visits."
PROVIDER_ONLY = "Only the visit's provider can do this."
PATIENT_ONLY = "Only the patient who booked this visit can reschedule it."
NO_PROFILE = "Your account has no provider profile yet."
NO_PROVIDER = "No provider has this id."
NOT_YOUR_SCHEDULE = "You can only see your own schedule."
BAD_WHEN = "Choose upcoming or past visits."
REASON_REQUIRED = "Please tell the patient why you are cancelling."
ALREADY_STARTED = "This visit has already started; it can no longer be cancelled."
TOO_EARLY = "A visit can be started from 1 hour before its start time."
COMPLETE_TOO_EARLY = "A visit can be completed once its start time has passed."
BAD_TIME = "Choose one of the open times."
SAME_TIME = "The visit is already at this time. Choose another time."
NOT_OPEN = "This time is not open. Choose another of the provider's open times."
TAKEN = "Someone has just booked this time. Choose another time."

_POSSIBLE = {
    AppointmentStatus.pending: "it can be confirmed, rescheduled or cancelled",
    AppointmentStatus.confirmed: "it can be started from 1 hour before its start, rescheduled or cancelled",
    AppointmentStatus.in_progress: "it can only be completed",
    AppointmentStatus.completed: "it can no longer be changed",
    AppointmentStatus.cancelled: "it can no longer be changed",
}


class Party(enum.StrEnum):
    """How the actor relates to a visit (also what `cancelled_by` records)."""

    patient = "patient"
    provider = "provider"
    staff = "staff"


def appointments_topic(user_id: str) -> str:
    """The event topic of one account's visits (as patient or as provider): screens refetch on it."""
    return f"appointments:{user_id}"


def _moment(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


def _wrong_step(status: AppointmentStatus) -> ValidationFailed:
    return ValidationFailed(f"This visit is {status.label.lower()}; {_POSSIBLE[status]}.")


def _expect(row: Appointment, *allowed: AppointmentStatus) -> None:
    if row.status not in allowed:
        raise _wrong_step(row.status)


# ---- who is acting, on which visit ------------------------------------------------------------------
async def _visit(session: AsyncSession, appointment_id: str) -> tuple[Appointment, Provider]:
    """The visit (row-locked on PostgreSQL until the unit of work ends) and its provider."""
    row = await session.scalar(
        select(Appointment)
        .where(Appointment.id == appointment_id, Appointment.status != AppointmentStatus.held)
        .with_for_update()
    )
    if row is None:
        raise NotFound(NO_VISIT)
    return row, await session.get_one(Provider, row.provider_id)


async def _party(session: AsyncSession, account: AccountRead, row: Appointment, provider: Provider) -> Party:
    """Who `account` is to this visit: its patient, its provider, or staff (owners, admins and staff members
    holding manage_appointments)."""
    if row.patient_id == account.id:
        return Party.patient
    if provider.user_id == account.id:
        return Party.provider
    if is_admin(account) or Permission.manage_appointments in await permissions_of(
        session=session, account=account
    ):
        return Party.staff
    raise PermissionDenied(NOT_YOURS)


async def _acting(
    session: AsyncSession, actor: Principal, appointment_id: str
) -> tuple[Party, Appointment, Provider]:
    account = await require_account(session=session, actor=actor)
    row, provider = await _visit(session, appointment_id)
    return await _party(session, account, row, provider), row, provider


async def _as_provider(
    session: AsyncSession, actor: Principal, appointment_id: str
) -> tuple[Appointment, Provider]:
    party, row, provider = await _acting(session, actor, appointment_id)
    if party is Party.patient:
        raise PermissionDenied(PROVIDER_ONLY)
    return row, provider


async def _check_notice(session: AsyncSession, row: Appointment, now: datetime) -> None:
    # The grace period runs from Place order (the order's time), not from when checkout held the time.
    placed = (
        await session.scalar(select(Order.created_at).where(Order.id == row.order_id))
        if row.order_id
        else None
    )
    refusal = patient_change_refusal(
        status=row.status, starts_at=row.starts_at, booked_at=placed or row.created_at, now=now
    )
    if refusal:
        raise ValidationFailed(refusal)


# ---- reads --------------------------------------------------------------------------------------
def _when(when: When) -> tuple[ColumnElement[bool], ColumnElement[datetime]]:
    """Upcoming: open visits (pending, confirmed, in progress), soonest first. Past: completed and
    cancelled ones, newest first."""
    if when == "upcoming":
        return Appointment.status.in_(OPEN), Appointment.starts_at.asc()
    if when == "past":
        return Appointment.status.in_(CLOSED), Appointment.starts_at.desc()
    raise ValidationFailed(BAD_WHEN)


async def list_my_appointments(
    *, session: AsyncSession, actor: Principal, when: When
) -> list[AppointmentRead]:
    """The signed-in patient's own visits (at most LIST_LIMIT)."""
    account = await require_account(session=session, actor=actor)
    condition, order = _when(when)
    rows = await session.scalars(
        select(Appointment)
        .where(Appointment.patient_id == account.id, condition)
        .order_by(order, Appointment.id)
        .limit(LIST_LIMIT)
    )
    return await appointment_reads(session, rows.all(), with_payment=True)


async def get_my_visit_summary(*, session: AsyncSession, actor: Principal) -> VisitSummary:
    """The signed-in patient's next open visit and their latest completed one (the dashboard overview's
    "next visit" and "book again"): two indexed single-row reads."""
    account = await require_account(session=session, actor=actor)
    mine = select(Appointment).where(Appointment.patient_id == account.id)
    upcoming = await session.scalar(
        mine.where(Appointment.status.in_(OPEN))
        .order_by(Appointment.starts_at.asc(), Appointment.id)
        .limit(1)
    )
    completed = await session.scalar(
        mine.where(Appointment.status == AppointmentStatus.completed)
        .order_by(Appointment.starts_at.desc(), Appointment.id)
        .limit(1)
    )
    reads = await appointment_reads(
        session, [row for row in (upcoming, completed) if row is not None], with_payment=True
    )
    by_id = {read.id: read for read in reads}
    return VisitSummary(
        next_visit=by_id.get(upcoming.id) if upcoming else None,
        last_completed=by_id.get(completed.id) if completed else None,
    )


async def list_provider_schedule(
    *,
    session: AsyncSession,
    actor: Principal,
    when: When,
    day: date | None = None,
    time_zone: str | None = None,
    provider_id: str | None = None,
) -> list[AppointmentRead]:
    """The visits of the signed-in provider's own profile (admins may name any `provider_id`), at most
    LIST_LIMIT; `day` narrows them to one calendar day of `time_zone` (default: the provider's)."""
    account = await require_account(session=session, actor=actor)
    if provider_id is None:
        provider = await session.scalar(select(Provider).where(Provider.user_id == account.id))
        if provider is None:
            raise NotFound(NO_PROFILE)
    else:
        provider = await session.get(Provider, provider_id)
        if provider is None:
            raise NotFound(NO_PROVIDER)
        if provider.user_id != account.id and not is_admin(account):
            raise PermissionDenied(NOT_YOUR_SCHEDULE)
    condition, order = _when(when)
    query = select(Appointment).where(Appointment.provider_id == provider.id, condition)
    if day is not None:
        start, end = day_bounds(day, time_zone or provider.time_zone)
        query = query.where(Appointment.starts_at >= start, Appointment.starts_at < end)
    rows = await session.scalars(query.order_by(order, Appointment.id).limit(LIST_LIMIT))
    return await appointment_reads(session, rows.all(), for_provider=True, with_payment=True)


async def _open_starts(
    session: AsyncSession, row: Appointment, provider: Provider, day: date, time_zone: str, now: datetime
) -> list[datetime]:
    """Open start times (UTC) for this visit on a calendar day of `time_zone`: the provider's hours, time
    off and other visits, the booking notice and horizon — the visit's own time does not count as busy."""
    minutes = int((as_utc(row.ends_at) - as_utc(row.starts_at)).total_seconds() // 60)
    start, end = day_bounds(day, time_zone)
    buffer = timedelta(minutes=flags.travel_buffer_minutes())
    hours = await load_hours(session, [provider.id])
    busy, blocked = await load_blocks(session, [provider.id], start - buffer, end + buffer, now)
    itself = Interval(as_utc(row.starts_at), as_utc(row.ends_at))
    return list(
        generate_slots(
            hours=hours.get(provider.id, ()),
            time_zone=provider.time_zone,
            now=now,
            rules=slot_rules(minutes),
            busy=[interval for interval in busy.get(provider.id, ()) if interval != itself],
            blocked=blocked.get(provider.id, ()),
            not_before=start,
            before=end,
        )
    )


async def _reschedulable(
    session: AsyncSession, actor: Principal, appointment_id: str, now: datetime
) -> tuple[Appointment, Provider]:
    party, row, provider = await _acting(session, actor, appointment_id)
    if party is not Party.patient:
        raise PermissionDenied(PATIENT_ONLY)
    _expect(row, *CHANGEABLE)
    await _check_notice(session, row, now)
    return row, provider


async def list_reschedule_slots(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    day: date,
    time_zone: str,
    now: datetime | None = None,
) -> list[datetime]:
    """The times the patient may move this visit to on a calendar day of `time_zone` (their zone)."""
    now = _moment(now)
    row, provider = await _reschedulable(session, actor, appointment_id, now)
    current = as_utc(row.starts_at)
    return [
        start for start in await _open_starts(session, row, provider, day, time_zone, now) if start != current
    ]


# ---- e-mails and events ---------------------------------------------------------------------------
async def _email_of(session: AsyncSession, user_id: str | None) -> str | None:
    account = await get_account(session=session, user_id=user_id) if user_id else None
    return account.email if account is not None and account.email else None


_NOTICE = {
    "confirmed": NotificationKind.visit_confirmed,
    "rescheduled": NotificationKind.visit_changed,
    "cancelled": NotificationKind.visit_cancelled,
}


async def _tell(
    session: AsyncSession,
    read: AppointmentRead,
    provider: Provider,
    kind: str,
    *audiences: Audience,
    now: datetime | None = None,
) -> None:
    """Notify the audiences of the visit (in-app, live) and send the visit e-mail to those whose
    preferences want it now (the notification owns no e-mail of its own for visits: this one is it)."""
    recipients = {a: read.patient_id if a == "patient" else read.provider_user_id for a in audiences}
    notes = [
        VisitNote(user_id, a, read.id, read.starts_at, provider.time_zone)
        for a, user_id in recipients.items()
    ]
    delivery = await notify_visits(session=session, kind=_NOTICE[kind], notes=notes, now=now)
    for audience, user_id in recipients.items():
        to = await _email_of(session, user_id) if user_id in delivery.email_now else None
        if to is not None:
            await send_visit_update(
                session=session,
                to=to,
                kind=kind,
                audience=audience,
                appointment=read,
                time_zone=provider.time_zone,
            )


async def _announce(session: AsyncSession, read: AppointmentRead) -> None:
    for user_id in {user_id for user_id in (read.patient_id, read.provider_user_id) if user_id is not None}:
        await events.publish_on_commit(
            session, appointments_topic(user_id), {"appointment_id": read.id, "status": read.status.value}
        )


async def _changed(session: AsyncSession, row: Appointment) -> AppointmentRead:
    await session.flush()
    read = await appointment_read(session, row, with_payment=True)
    await _announce(session, read)
    await emit_visit_events(session=session, visits=[read])
    return read


# ---- commands -----------------------------------------------------------------------------------
async def cancel_appointment(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    reason: str = "",
    refund_exception: str = "",
    now: datetime | None = None,
) -> AppointmentRead:
    """Cancel a pending or confirmed visit: the patient outside the notice window, the provider (with a
    reason) before it starts, an owner or admin at any time. E-mails the patient, and the provider when
    someone else cancelled. Money paid ahead is refunded as wallet credit: in full 24 hours or more ahead;
    inside that window only with `refund_exception` (its reason) given by staff holding process_payments."""
    now = _moment(now)
    party, row, _provider = await _acting(session, actor, appointment_id)
    _expect(row, *CHANGEABLE)
    reason = (reason or "").strip()[:MAX_REASON]
    if party is Party.patient:
        await _check_notice(session, row, now)
    elif party is Party.provider:
        if now >= as_utc(row.starts_at):
            raise ValidationFailed(ALREADY_STARTED)
        if not reason:
            raise ValidationFailed(REASON_REQUIRED)
    row.status = AppointmentStatus.cancelled
    row.cancelled_at, row.cancelled_by, row.cancel_reason = now, party.value, reason
    await settle_cancelled_visit(
        session=session, actor=actor, row=row, at=now, refund_exception=refund_exception
    )
    read = await _changed(session, row)
    await publish_event(session, AppointmentCancelled(appointment_id=row.id, by=party.value, at=now))
    return read


async def reschedule_appointment(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    starts_at: datetime,
    now: datetime | None = None,
) -> AppointmentRead:
    """Move the patient's pending or confirmed visit, outside the notice window, to another open time of the
    same provider. A confirmed visit goes back to pending: the provider confirms the new time."""
    now = _moment(now)
    row, provider = await _reschedulable(session, actor, appointment_id, now)
    await move_visit(session, row, provider, starts_at, now)
    read = await _changed(session, row)
    await publish_event(
        session, AppointmentRescheduled(appointment_id=row.id, by=Party.patient.value, at=now)
    )
    return read


async def move_visit(
    session: AsyncSession,
    row: Appointment,
    provider: Provider,
    starts_at: datetime,
    now: datetime,
    *,
    not_open: str = NOT_OPEN,
    lock: bool = False,
) -> None:
    """Move `row` to `starts_at`, one of its provider's open times (else `not_open`), keeping its length and
    travel time; it waits for the provider to confirm again (pending) and its reminder is due again. With
    `lock`, the write queues behind the provider's other writers (PostgreSQL) once the time is found open."""
    if starts_at.tzinfo is None:
        raise ValidationFailed(BAD_TIME)
    new_start = starts_at.astimezone(UTC)
    if new_start == as_utc(row.starts_at):
        raise ValidationFailed(SAME_TIME)
    day = new_start.astimezone(zone(provider.time_zone)).date()
    if new_start not in await _open_starts(session, row, provider, day, provider.time_zone, now):
        raise ValidationFailed(not_open)
    length = as_utc(row.ends_at) - as_utc(row.starts_at)
    travel = as_utc(row.busy_until) - as_utc(row.ends_at)
    # Expired holds no longer count, but the no-overlap rule still sees their rows.
    await session.execute(
        delete(Appointment).where(
            Appointment.provider_id == provider.id,
            Appointment.status == AppointmentStatus.held,
            Appointment.hold_expires_at <= now,
        )
    )
    if lock:
        await lock_providers(session, [provider.id])
    try:
        # Another booking may take the time between the check above and this write: the database's
        # no-overlap rule then refuses it, and only this savepoint is rolled back.
        async with session.begin_nested():
            row.starts_at = new_start
            row.ends_at = new_start + length
            row.busy_until = new_start + length + travel
            row.status, row.confirmed_at = AppointmentStatus.pending, None
            row.reminder_sent_at = None  # the reminder is due again, before the new time
            await session.flush()
    except IntegrityError as exc:
        if not overlap_refused(exc):
            raise
        raise ValidationFailed(TAKEN) from None


async def confirm_appointment(
    *, session: AsyncSession, actor: Principal, appointment_id: str, now: datetime | None = None
) -> AppointmentRead:
    """The provider (or staff with manage_appointments) confirms a pending visit; the patient is e-mailed."""
    now = _moment(now)
    row, _provider = await _as_provider(session, actor, appointment_id)
    _expect(row, AppointmentStatus.pending)
    row.status, row.confirmed_at = AppointmentStatus.confirmed, now
    read = await _changed(session, row)
    await publish_event(session, AppointmentConfirmed(appointment_id=row.id, at=now))
    return read


async def start_appointment(
    *, session: AsyncSession, actor: Principal, appointment_id: str, now: datetime | None = None
) -> AppointmentRead:
    """The provider starts a confirmed visit, from 1 hour before its start time."""
    now = _moment(now)
    row, _provider = await _as_provider(session, actor, appointment_id)
    _expect(row, AppointmentStatus.confirmed)
    if now < as_utc(row.starts_at) - START_EARLY:
        raise ValidationFailed(TOO_EARLY)
    row.status, row.started_at = AppointmentStatus.in_progress, now
    return await _changed(session, row)


async def complete_appointment(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    now: datetime | None = None,
    collected: Decimal | str | None = None,
    method: str = "",
) -> AppointmentRead:
    """The provider completes a visit in progress, not before its start time, and the patient's review of it
    counts. Paid ahead: its payment settles (and the order's fee and the order once all its visits are done).
    Pay at visit: `collected` (dollars) and `method` record what the provider collected in person, in the
    same unit of work (the ledger refuses a bad amount, and then nothing is completed); without them the
    visit is completed with its payment due."""
    now = _moment(now)
    row, _provider = await _as_provider(session, actor, appointment_id)
    _expect(row, AppointmentStatus.in_progress)
    if now < as_utc(row.starts_at):
        raise ValidationFailed(COMPLETE_TOO_EARLY)
    row.status, row.completed_at = AppointmentStatus.completed, now
    await publish_event(session, AppointmentCompleted(appointment_id=row.id, at=now))  # the ledger settles
    if collected is not None and str(collected).strip():
        await record_visit_payment(
            session=session, actor=actor, appointment_id=row.id, amount=collected, method=method, now=now
        )
    await mark_visit_completed(session=session, appointment_id=row.id)
    return await _changed(session, row)


# ---- reminders ----------------------------------------------------------------------------------
async def send_due_reminders(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Remind the patient of each pending or confirmed visit starting within the next 24 hours that has not
    had a reminder: a notification, and the reminder e-mail when their preferences want it now; returns how
    many visits were reminded. Safe to run from several workers at once: each visit is claimed
    with a conditional UPDATE, and only the run whose UPDATE changed the row sends its e-mail."""
    now = _moment(now)
    due = (
        await session.scalars(
            select(Appointment.id)
            .where(
                Appointment.status.in_(CHANGEABLE),
                Appointment.reminder_sent_at.is_(None),
                Appointment.starts_at > now,
                Appointment.starts_at <= now + REMINDER_AHEAD,
            )
            .order_by(Appointment.starts_at, Appointment.id)
            .limit(REMINDER_BATCH)
        )
    ).all()
    claimed: list[str] = []
    for appointment_id in due:
        result = await changed_rows(
            session,
            update(Appointment)
            .where(
                Appointment.id == appointment_id,
                Appointment.reminder_sent_at.is_(None),
                Appointment.status.in_(CHANGEABLE),
            )
            .values(reminder_sent_at=now)
            .execution_options(synchronize_session=False),
        )
        if result == 1:
            claimed.append(appointment_id)
    if not claimed:
        return 0
    rows = (await session.scalars(select(Appointment).where(Appointment.id.in_(claimed)))).all()
    zones = dict(
        (
            await session.execute(
                select(Provider.id, Provider.time_zone).where(Provider.id.in_({r.provider_id for r in rows}))
            )
        ).all()
    )
    emails = dict(
        (
            await session.execute(
                select(User.id, User.email).where(User.id.in_({r.patient_id for r in rows}))
            )
        ).all()
    )
    reads = await appointment_reads(session, rows)
    await emit_visit_events(session=session, visits=reads, event_type="appointment.reminder_due", now=now)
    notes = [VisitNote(r.patient_id, "patient", r.id, r.starts_at, zones[r.provider_id]) for r in reads]
    delivery = await notify_visits(
        session=session, kind=NotificationKind.visit_reminder, notes=notes, now=now
    )
    for read in reads:
        if read.patient_id in delivery.email_now and (to := emails.get(read.patient_id)):
            await send_visit_update(
                session=session,
                to=to,
                kind="reminder",
                audience="patient",
                appointment=read,
                time_zone=zones[read.provider_id],
            )
    return len(claimed)
