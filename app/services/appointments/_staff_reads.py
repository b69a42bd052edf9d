"""Staff appointments, the reads (/staff/appointments, issue 15): every visit of a day or a week in the
member's time zone, filtered by provider, service line (the service's category), metro (the visit's city and
state) and status; one visit's details; a provider's schedule; the choices of the filters.

Who may read what (checked on every call by `require_permission`):
- view_appointments: the list, the filters and a visit's details without the patient's records;
- view_patient_logs as well: the patient's name in the list, and their records in a visit's details (name,
  e-mail, phone, street address, ZIP code and intake notes). Each details read that carries them writes a
  `patient_records_view` audit entry with the member's address and browser; without the permission the
  records are never read from the database, so they never reach a screen;
- view_booking_schedules: a provider's weekly hours and time off.
Held times (a checkout in progress) are not visits: nobody sees them here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger.internal import visit_payments
from app.services.providers import Hours, display_name, hours_read, time_off_read
from app.services.providers.internal import load_hours
from app.services.shared.accounts import account_of
from app.services.shared.clock import day_bounds
from app.services.shared.staff_access import missing_permission, require_permission, require_staff
from models.account import AccountRead
from models.audit import AuditAction
from models.booking import Appointment, AppointmentStatus, Order
from models.catalog import Service, ServiceCategory
from models.identity import User, as_utc
from models.provider import Provider, TimeOff
from models.staff import Permission
from models.staff_visits import (
    MAX_METRO,
    PAGE_SIZE,
    FilterOption,
    PatientRecords,
    ProviderScheduleRead,
    StaffVisitDetails,
    StaffVisitFilters,
    StaffVisitPage,
    StaffVisitQuery,
    StaffVisitRow,
)

NO_VISIT = "No visit has this id."
NO_PROVIDER = "No provider has this id."
UNKNOWN_ZONE = "Unknown time zone."
BAD_METRO = "Choose a metro as City, ST (for example New York, NY)."
FILTER_LIMIT = 500  # providers or metros a filter offers
TIME_OFF_SHOWN = 50


async def staff_with(
    session: AsyncSession, actor: Principal, permission: Permission
) -> tuple[AccountRead, frozenset[Permission]]:
    """The signed-in member holding `permission`, and all their permissions; else PermissionDenied."""
    member, permissions = await require_staff(session=session, actor=actor)
    if permission not in permissions:
        raise PermissionDenied(missing_permission(permission))
    return member, permissions


def check_zone(time_zone: str) -> str:
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationFailed(UNKNOWN_ZONE) from None
    return time_zone


def shown_days(day: date, view: str) -> tuple[date, date]:
    """The first and last calendar day a view shows: the day, or the Monday-to-Sunday week holding it."""
    if view == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=6)
    return day, day


def split_metro(metro: str) -> tuple[str, str]:
    """'New York, NY' → ('New York', 'NY'); ValidationFailed for anything else."""
    city, _, state = metro[:MAX_METRO].rpartition(",")
    city, state = " ".join(city.split()), state.strip().upper()
    if not city or len(state) != 2 or not state.isalpha():
        raise ValidationFailed(BAD_METRO)
    return city, state


@dataclass(frozen=True)
class _Found:
    """One visit as these reads load it."""

    row: Appointment
    provider: Provider
    service_name: str
    line: str  # the service line: the service's category
    number: str | None  # the order's number (none for a visit without an order)
    patient: User | None = None  # read only for a reader who sees patients


_Statement = TypeVar("_Statement", bound=Select[*tuple[object, ...]])


def _shaped(statement: _Statement, conditions: Sequence[ColumnElement[bool]], page: int) -> _Statement:
    """`statement` over the visits matching `conditions`, joined to their provider, service, service line
    and order; soonest first, one page."""
    return (
        statement.join(Provider, Provider.id == Appointment.provider_id)
        .join(Service, Service.id == Appointment.service_id)
        .join(ServiceCategory, ServiceCategory.id == Service.category_id)
        .outerjoin(Order, Order.id == Appointment.order_id)
        .where(*conditions)
        .order_by(Appointment.starts_at, Appointment.id)
        .offset((page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    )


async def _visits(
    session: AsyncSession, conditions: Sequence[ColumnElement[bool]], with_patient: bool, page: int = 1
) -> list[_Found]:
    """A page of visits with their provider, service, service line, order number (and patient) in one
    query."""
    if with_patient:
        statement = select(Appointment, Provider, Service.name, ServiceCategory.name, Order.number, User)
        found = await session.execute(
            _shaped(statement, conditions, page).outerjoin(User, User.id == Appointment.patient_id)
        )
        return [_Found(*visit) for visit in found.tuples()]
    found_only = await session.execute(
        _shaped(
            select(Appointment, Provider, Service.name, ServiceCategory.name, Order.number), conditions, page
        )
    )
    return [_Found(*visit) for visit in found_only.tuples()]


def _row(found: _Found, with_patient: bool) -> StaffVisitRow:
    row, provider, patient = found.row, found.provider, found.patient
    return StaffVisitRow(
        id=row.id,
        order_number=found.number,
        status=row.status,
        starts_at=as_utc(row.starts_at),
        ends_at=as_utc(row.ends_at),
        provider_id=provider.id,
        provider_name=display_name(provider.first_name, provider.last_name),
        provider_time_zone=provider.time_zone,
        service_id=row.service_id,
        service_name=found.service_name,
        service_line=found.line,
        location=row.location,
        city=row.city,
        state=row.state,
        price=row.price,
        cancelled_by=row.cancelled_by,
        cancel_reason=row.cancel_reason,
        patient_name=(account_of(patient).name if patient is not None else "Patient")
        if with_patient
        else None,
    )


async def list_staff_visits(
    *, session: AsyncSession, actor: Principal, query: StaffVisitQuery
) -> StaffVisitPage:
    """The visits of the day or week, soonest first, PAGE_SIZE a page (view_appointments); with
    view_patient_logs each row carries the patient's name."""
    _, permissions = await staff_with(session, actor, Permission.view_appointments)
    names = Permission.view_patient_logs in permissions
    time_zone = check_zone(query.time_zone)
    first, last = shown_days(query.day, query.view)
    start, end = day_bounds(first, time_zone)[0], day_bounds(last, time_zone)[1]
    conditions = [
        Appointment.status != AppointmentStatus.held,
        Appointment.starts_at >= start,
        Appointment.starts_at < end,
    ]
    if query.provider_id:
        conditions.append(Appointment.provider_id == query.provider_id)
    if query.status is not None:
        conditions.append(Appointment.status == query.status)
    if query.metro:
        city, state = split_metro(query.metro)
        conditions += [Appointment.state == state, Appointment.city == city]
    if query.service_line:
        lines = select(Service.id).join(ServiceCategory, ServiceCategory.id == Service.category_id)
        conditions.append(Appointment.service_id.in_(lines.where(ServiceCategory.slug == query.service_line)))
    total = int(await session.scalar(select(func.count()).select_from(Appointment).where(*conditions)) or 0)
    found = await _visits(session, conditions, names, query.page)
    return StaffVisitPage(
        items=[_row(visit, names) for visit in found],
        total=total,
        page=query.page,
        has_next=query.page * PAGE_SIZE < total,
        starts=first,
        ends=last,
        time_zone=time_zone,
        patient_names=names,
    )


async def _details_of(session: AsyncSession, appointment_id: str, with_patient: bool) -> _Found:
    conditions = [Appointment.id == appointment_id[:36], Appointment.status != AppointmentStatus.held]
    found = await _visits(session, conditions, with_patient)
    if not found:
        raise NotFound(NO_VISIT)
    return found[0]


def _records(row: Appointment, patient: User | None) -> PatientRecords:
    account = account_of(patient) if patient is not None else None
    return PatientRecords(
        patient_id=row.patient_id,
        name=account.name if account else "Patient",
        email=account.email if account else "",
        phone=account.phone_number if account else "",
        address_line=row.address_line,
        zip_code=row.zip_code,
        notes=row.notes,
    )


async def record_patient_read(
    session: AsyncSession, member: AccountRead, actor: Principal, row: StaffVisitRow, patient_id: str
) -> None:
    await audit.record_by(
        session=session,
        account=member,
        actor=actor,
        action=AuditAction.patient_records_view,
        target=patient_id,
        details={"appointment_id": row.id, "patient": row.patient_name, "via": "staff appointments"},
    )


async def get_staff_visit(
    *, session: AsyncSession, actor: Principal, appointment_id: str
) -> StaffVisitDetails:
    """One visit's details (view_appointments). With view_patient_logs they include the patient's records,
    and the read is audited; without it the patient's records are not read at all."""
    member, permissions = await staff_with(session, actor, Permission.view_appointments)
    with_patient = Permission.view_patient_logs in permissions
    found = await _details_of(session, appointment_id, with_patient)
    visit, row = _row(found, with_patient), found.row
    patient = None
    if with_patient:
        patient = _records(row, found.patient)
        await record_patient_read(session, member, actor, visit, row.patient_id)
    return StaffVisitDetails(
        visit=visit,
        patient=patient,
        cancelled_at=as_utc(row.cancelled_at),
        confirmed_at=as_utc(row.confirmed_at),
        payment=(await visit_payments(session, [row])).get(row.id),
    )


async def get_staff_visit_filters(*, session: AsyncSession, actor: Principal) -> StaffVisitFilters:
    """The providers, service lines and metros the filters offer (view_appointments): three queries."""
    await require_permission(session=session, actor=actor, permission=Permission.view_appointments)
    providers = await session.execute(
        select(Provider.id, Provider.first_name, Provider.last_name)
        .order_by(Provider.last_name, Provider.first_name, Provider.id)
        .limit(FILTER_LIMIT)
    )
    lines = await session.execute(
        select(ServiceCategory.slug, ServiceCategory.name).order_by(
            ServiceCategory.position, ServiceCategory.name
        )
    )
    metros = await session.execute(
        select(Appointment.state, Appointment.city)
        .where(Appointment.city != "", Appointment.state != "")
        .distinct()
        .order_by(Appointment.state, Appointment.city)
        .limit(FILTER_LIMIT)
    )
    cities = sorted(f"{city}, {state}" for state, city in metros.all())
    return StaffVisitFilters(
        providers=[FilterOption(value=i, label=display_name(f, last)) for i, f, last in providers.all()],
        service_lines=[FilterOption(value=slug, label=name) for slug, name in lines.all()],
        metros=[FilterOption(value=m, label=m) for m in cities],
    )


async def get_provider_schedule(
    *, session: AsyncSession, actor: Principal, provider_id: str, starts: date, ends: date, time_zone: str
) -> ProviderScheduleRead:
    """A provider's weekly hours (in their own zone) and their time off overlapping the calendar days
    `starts`..`ends` of `time_zone` (view_booking_schedules)."""
    await require_permission(session=session, actor=actor, permission=Permission.view_booking_schedules)
    time_zone = check_zone(time_zone)
    provider = await session.get(Provider, provider_id[:36])
    if provider is None:
        raise NotFound(NO_PROVIDER)
    if ends < starts or (ends - starts).days > 31:
        raise ValidationFailed("Choose at most a month of days.")
    start, end = day_bounds(starts, time_zone)[0], day_bounds(ends, time_zone)[1]
    hours: tuple[Hours, ...] = (await load_hours(session, [provider.id])).get(provider.id, ())
    time_off = await session.scalars(
        select(TimeOff)
        .where(TimeOff.provider_id == provider.id, TimeOff.ends_at > start, TimeOff.starts_at < end)
        .order_by(TimeOff.starts_at, TimeOff.id)
        .limit(TIME_OFF_SHOWN)
    )
    return ProviderScheduleRead(
        provider_id=provider.id,
        name=display_name(provider.first_name, provider.last_name),
        time_zone=provider.time_zone,
        weekly_hours=[hours_read(h) for h in hours],
        time_off=[time_off_read(t) for t in time_off],
    )
