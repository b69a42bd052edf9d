"""The Staff Dashboard's figures and today's visits, read from the database (SPEC §2 Staff Dashboard, §3
dashboard stats), in the member's own time zone.

The figures, and who sees them:
- Today's Appointments (view_appointments): live visits (not held, not cancelled) starting today, and how
  many of them are completed.
- Active Patients (view_appointments): distinct patients with a live visit starting in the 90 days before
  now or booked within the booking horizon after it; '+N new today' counts patient accounts created today.
- Completed Tasks (everyone): the member's own tasks done, and those remaining.
- Activity Rate (view_analytics): the share of this week's due visits that were completed — visits
  starting between Monday 00:00 and now, not held or cancelled — as a whole percent; the change is this
  week's rate minus the rate of the whole of last week, in percentage points. No rate without due visits.

Opening a visit's details (the 'Join' button) is a read of the patient's records: it writes a
`patient_records_view` audit entry. `confirm_visit` lets a member with manage_appointments confirm a
pending visit (appointments.confirm_appointment is for the visit's provider, owners and admins).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.appointments import confirm_appointment
from app.services.appointments.internal import appointment_read, appointment_reads
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.accounts import owner_emails
from app.services.shared.clock import day_bounds
from app.services.shared.staff_access import permissions_of, require_permission, require_staff
from app.services.staff._tasks import count_tasks
from app.settings import get_settings
from models.audit import AuditAction
from models.booking import Appointment, AppointmentRead, AppointmentStatus
from models.identity import User
from models.staff import Permission, StaffDashboardRead

ACTIVE_WINDOW = timedelta(days=90)
LIST_LIMIT = 100
NO_VISIT = "This visit no longer exists."
UNKNOWN_ZONE = "Unknown time zone."
_NOT_LIVE = (AppointmentStatus.held, AppointmentStatus.cancelled)


def _moment(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


def _local_day(now: datetime, time_zone: str) -> date:
    try:
        return now.astimezone(ZoneInfo(time_zone)).date()
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationFailed(UNKNOWN_ZONE) from None


def _live() -> ColumnElement[bool]:
    return Appointment.status.not_in(_NOT_LIVE)


def _percent(part: int, whole: int) -> int | None:
    return round(100 * part / whole) if whole else None


async def _completion(session: AsyncSession, start: datetime, end: datetime) -> tuple[int, int]:
    """(completed, due) among live visits starting in [start, end)."""
    due, completed = (
        await session.execute(
            select(
                func.count(),
                func.coalesce(
                    func.sum(case((Appointment.status == AppointmentStatus.completed, 1), else_=0)), 0
                ),
            ).where(_live(), Appointment.starts_at >= start, Appointment.starts_at < end)
        )
    ).one()
    return int(completed), int(due)


async def _new_patients(session: AsyncSession, start: datetime, end: datetime) -> int:
    role = User.raw_app_meta_data["role"].as_string()
    query = select(func.count()).where(
        User.created_at >= start, User.created_at < end, or_(role.is_(None), role == "patient")
    )
    owners = owner_emails()
    if owners:
        query = query.where(or_(role == "patient", func.lower(User.email).not_in(owners)))
    return int(await session.scalar(query) or 0)


async def get_staff_dashboard(
    *, session: AsyncSession, actor: Principal, time_zone: str, now: datetime | None = None
) -> StaffDashboardRead:
    """The four stat cards' figures for the signed-in member."""
    _, permissions = await require_staff(session=session, actor=actor)
    now = _moment(now)
    today = _local_day(now, time_zone)
    day_start, day_end = day_bounds(today, time_zone)
    tasks = await count_tasks(session=session, actor=actor)
    figures: dict[str, int | None] = {}
    if Permission.view_appointments in permissions:
        completed, due = await _completion(session, day_start, day_end)
        active = await session.scalar(
            select(func.count(func.distinct(Appointment.patient_id))).where(
                _live(),
                Appointment.starts_at >= now - ACTIVE_WINDOW,
                Appointment.starts_at < now + timedelta(days=get_settings().slot_horizon_days + 1),
            )
        )
        figures |= {
            "appointments": due,
            "completed_appointments": completed,
            "active_patients": int(active or 0),
            "new_patients_today": await _new_patients(session, day_start, day_end),
        }
    if Permission.view_analytics in permissions:
        week_start, _ = day_bounds(today - timedelta(days=today.weekday()), time_zone)
        last_week_start, _ = day_bounds(today - timedelta(days=today.weekday() + 7), time_zone)
        this_rate = _percent(*await _completion(session, week_start, now))
        last_rate = _percent(*await _completion(session, last_week_start, week_start))
        figures |= {
            "activity_rate": this_rate,
            "activity_change": None if this_rate is None or last_rate is None else this_rate - last_rate,
        }
    return StaffDashboardRead(
        today=today,
        appointments=figures.get("appointments"),
        completed_appointments=figures.get("completed_appointments"),
        active_patients=figures.get("active_patients"),
        new_patients_today=figures.get("new_patients_today"),
        tasks_completed=tasks.completed,
        upcoming_tasks=tasks.remaining,
        activity_rate=figures.get("activity_rate"),
        activity_change=figures.get("activity_change"),
    )


async def list_todays_appointments(
    *, session: AsyncSession, actor: Principal, time_zone: str, now: datetime | None = None
) -> list[AppointmentRead]:
    """Live visits starting today in the member's zone, earliest first (at most 100); needs
    view_appointments."""
    await require_permission(session=session, actor=actor, permission=Permission.view_appointments)
    day_start, day_end = day_bounds(_local_day(_moment(now), time_zone), time_zone)
    rows = await session.scalars(
        select(Appointment)
        .where(_live(), and_(Appointment.starts_at >= day_start, Appointment.starts_at < day_end))
        .order_by(Appointment.starts_at, Appointment.id)
        .limit(LIST_LIMIT)
    )
    return await appointment_reads(session, rows.all())


async def open_visit(*, session: AsyncSession, actor: Principal, appointment_id: str) -> AppointmentRead:
    """A visit's details for the member (view_appointments). The patient's address and intake notes only
    with view_patient_logs, and then recorded as a view of the patient's records (as /staff/appointments
    does); without it they are never read out."""
    member = await require_permission(session=session, actor=actor, permission=Permission.view_appointments)
    row = await session.get(Appointment, appointment_id)
    if row is None or row.status == AppointmentStatus.held:
        raise NotFound(NO_VISIT)
    read = await appointment_read(session, row)
    if Permission.view_patient_logs not in await permissions_of(session=session, account=member):
        return read.model_copy(update={"address_line": "", "notes": ""})
    await audit.record_by(
        session=session,
        account=member,
        actor=actor,
        action=AuditAction.patient_records_view,
        target=read.patient_id,
        details={"appointment_id": read.id, "patient": read.patient_name, "via": "staff dashboard"},
    )
    return read


async def confirm_visit(
    *, session: AsyncSession, actor: Principal, appointment_id: str, now: datetime | None = None
) -> AppointmentRead:
    """Confirm a pending visit on the provider's behalf (manage_appointments): the same intention as the
    provider's, with its e-mail and live updates."""
    await require_permission(session=session, actor=actor, permission=Permission.manage_appointments)
    return await confirm_appointment(session=session, actor=actor, appointment_id=appointment_id, now=now)
