"""Holds: `hold_slot` reserves one start time for the signed-in patient (an appointment in status `held`
that expires after HOLD_MINUTES; the database's no-overlap rule decides between two patients taking the same
time at once), and `release_hold` gives it back.

A hold costs six statements: the session re-check, the service with its eligible providers, the patient's
holds and clashes, the providers' calendars, the provider's row lock and the insert (in a savepoint only
while another candidate could still take the time); one more when an expired hold is in the way."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import BindParameter, Select, bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.db import changed_rows
from app.principal import Principal
from app.services.appointments import read_of
from app.services.appointments.internal import appointment_reads, lock_providers
from app.services.booking._rules import (
    HOLD_GONE,
    HOLD_MINUTES,
    NO_PROVIDER,
    NOBODY,
    NOT_OPEN,
    SAME_TIME,
    TAKEN,
    TOO_MANY_HOLDS,
    WITH_YOURSELF,
    open_providers_at,
    place_zip,
    service_and_providers,
)
from app.services.catalog import price_for
from app.services.errors import NotFound, ValidationFailed
from app.services.providers import live_appointment
from app.services.shared.clock import current_time
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.booking import (
    Appointment,
    AppointmentRead,
    AppointmentStatus,
    lost_a_race,
)
from models.cart import CartItem
from models.catalog import ServiceLocation


# ---- holds --------------------------------------------------------------------------------------
def _patient_time_statement() -> Select[int, int, bool]:
    """The patient's live holds, the visits in their cart, and whether a live visit or hold of theirs
    overlaps [starts_at, ends_at) (built once; the values are parameters)."""
    patient_id: BindParameter[str] = bindparam("patient_id")
    now: BindParameter[datetime] = bindparam("now")
    holding = (
        select(func.count())
        .select_from(Appointment)
        .where(
            Appointment.patient_id == patient_id,
            Appointment.status == AppointmentStatus.held,
            Appointment.hold_expires_at > now,
        )
        .scalar_subquery()
    )
    in_cart = select(func.coalesce(func.sum(CartItem.quantity), 0)).where(CartItem.user_id == patient_id)
    clash = (
        select(Appointment.id)
        .where(
            Appointment.patient_id == patient_id,
            live_appointment(now),
            Appointment.starts_at < bindparam("ends_at"),
            Appointment.ends_at > bindparam("starts_at"),
        )
        .exists()
    )
    return select(holding, in_cart.scalar_subquery(), clash)


_PATIENT_TIME = _patient_time_statement()


async def _check_patient_time(
    session: AsyncSession, *, patient_id: str, starts_at: datetime, ends_at: datetime, now: datetime
) -> None:
    """In one statement: a patient holds at most one time per visit in their cart (and never more than
    MAX_LIVE_HOLDS_PER_PATIENT: holding times is for checking out, not for keeping a provider's week), and
    has no other live visit or hold overlapping [starts_at, ends_at)."""
    values = {"patient_id": patient_id, "now": now, "starts_at": starts_at, "ends_at": ends_at}
    held, visits, clashes = (await session.execute(_PATIENT_TIME, values)).one()
    allowance = min(max(visits, 1), get_settings().max_live_holds_per_patient)
    if held >= allowance:
        raise ValidationFailed(TOO_MANY_HOLDS)
    if clashes:
        raise ValidationFailed(SAME_TIME)


async def hold_slot(
    *,
    session: AsyncSession,
    actor: Principal,
    service_slug: str,
    provider_id: str | None,
    starts_at: datetime,
    zip_code: str,
    location: ServiceLocation,
    replaces: str | None = None,
    now: datetime | None = None,
) -> AppointmentRead:
    """Hold `starts_at` for the signed-in patient for HOLD_MINUTES: with `provider_id`, or with the best
    rated eligible provider free then ("first available"). `replaces` is the patient's earlier hold for the
    same checkout line, released in the same unit of work."""
    account = await require_account(session=session, actor=actor)
    now = current_time(now)
    location = ServiceLocation(location)
    if starts_at.tzinfo is None:
        raise ValidationFailed(NOT_OPEN)
    starts_at = starts_at.astimezone(UTC)
    service, category_slug, candidates = await service_and_providers(
        session,
        service_slug,
        location,
        zip_code,
        provider_id,
        starts_at.date(),
        patient_id=account.id,
        starts_at=starts_at,
    )
    zip_code = place_zip(service, location, zip_code)
    ends_at = starts_at + timedelta(minutes=service.duration_minutes)

    if provider_id is not None and candidates and candidates[0].provider.user_id == account.id:
        raise ValidationFailed(WITH_YOURSELF)
    candidates = [c for c in candidates if c.provider.user_id != account.id]
    if not candidates:
        where = f"{location.label} visits" + (f" in ZIP code {zip_code}" if zip_code else "")
        message = NO_PROVIDER if provider_id is not None else NOBODY
        raise ValidationFailed(message.format(service=service.name, where=where))

    if replaces:
        await session.execute(
            delete(Appointment).where(
                Appointment.id == replaces,
                Appointment.patient_id == account.id,
                Appointment.status == AppointmentStatus.held,
            )
        )
    await _check_patient_time(session, patient_id=account.id, starts_at=starts_at, ends_at=ends_at, now=now)
    free, expired = await open_providers_at(session, candidates, service.duration_minutes, starts_at, now)
    # Expired holds no longer count, but the no-overlap rule still sees their rows: when the calendars saw
    # one around this time, those providers' expired holds go (app.db opens SQLite's transaction before a
    # savepoint, so this write need not come first).
    in_the_way = [c.provider.id for c in free if c.provider.id in expired]
    if in_the_way:
        await session.execute(
            delete(Appointment).where(
                Appointment.provider_id.in_(in_the_way),
                Appointment.status == AppointmentStatus.held,
                Appointment.hold_expires_at <= now,
            )
        )
    busy_until = ends_at + timedelta(minutes=flags.travel_buffer_minutes())
    for index, candidate in enumerate(free):
        # Writers of one provider's time queue here (PostgreSQL). Without it, a second insert waiting on the
        # exclusion constraint deadlocks with the first transaction's next write of its own row (place_order
        # in the same unit of work); with it, the second insert fails at once when the first commits.
        await lock_providers(session, [candidate.provider.id])
        price = price_for(category_slug=category_slug, price=candidate.base_price, at=now)
        row = Appointment(
            patient_id=account.id,
            provider_id=candidate.provider.id,
            service_id=service.id,
            status=AppointmentStatus.held,
            starts_at=starts_at,
            ends_at=ends_at,
            busy_until=busy_until,
            hold_expires_at=now + timedelta(minutes=HOLD_MINUTES),
            location=location,
            zip_code=zip_code,
            price=price.charge,
            original_price=price.original,
        )
        try:
            if index + 1 < len(free):
                async with session.begin_nested():  # another candidate follows: keep the transaction usable
                    session.add(row)
            else:  # the last one: losing the race ends the command, and the unit of work rolls back
                session.add(row)
                await session.flush()
        except IntegrityError as error:
            if not lost_a_race(error):
                raise
            continue  # someone took this provider's time a moment ago: try the next one, if any
        return read_of(
            row,
            provider=candidate.provider,
            service=service,
            patient_name=account.name,
            order_number=None,
            reviewed=False,
        )
    raise ValidationFailed(TAKEN)


async def release_hold(*, session: AsyncSession, actor: Principal, hold_id: str) -> None:
    """Give back a time the signed-in patient holds."""
    account = await require_account(session=session, actor=actor)
    result = await changed_rows(
        session,
        delete(Appointment).where(
            Appointment.id == hold_id,
            Appointment.patient_id == account.id,
            Appointment.status == AppointmentStatus.held,
        ),
    )
    if result != 1:
        raise NotFound(HOLD_GONE)


async def list_my_holds(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> list[AppointmentRead]:
    """The signed-in patient's live holds, oldest first: checkout shows them as the patient's own after a
    reload or a dropped connection (and reuses them) instead of refusing a new time for a hold it hides."""
    account = await require_account(session=session, actor=actor)
    now = current_time(now)
    rows = await session.scalars(
        select(Appointment)
        .where(
            Appointment.patient_id == account.id,
            Appointment.status == AppointmentStatus.held,
            Appointment.hold_expires_at > now,
        )
        .order_by(Appointment.created_at, Appointment.id)
        .limit(get_settings().max_live_holds_per_patient)
    )
    return await appointment_reads(session, rows.all(), now=now)
