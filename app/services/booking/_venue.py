"""Visits arranged by staff at a Corporate Venue (issue 17): one visit per provider for one block of time
on an on-site event day. The corporate desk calls this instead of writing appointments itself, so the same
rules hold as at checkout: writers of a provider's time queue on the provider's row (`lock_providers`),
expired holds in the way are cleared, and the database's no-overlap rule (with the travel buffer) refuses
a provider who is busy then — checked per provider, so the message names who is not free."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.services.appointments.internal import lock_providers
from app.services.errors import ValidationFailed
from models.booking import Appointment, AppointmentStatus, lost_a_race
from models.catalog import ServiceLocation
from models.provider import Provider

PROVIDER_BUSY = "{name} already has a visit at that time."
PROVIDER_UNAVAILABLE = "{name} isn't taking visits now."


@dataclass(frozen=True)
class VenueBooking:
    client_id: str  # the account the visits are for (the organization's contact)
    service_id: str
    starts_at: datetime
    ends_at: datetime
    address_line: str
    city: str
    state: str
    zip_code: str
    price: Decimal  # per provider
    notes: str = ""


async def book_venue_visits(
    session: AsyncSession, *, booking: VenueBooking, providers: list[Provider], now: datetime
) -> list[Appointment]:
    """One `pending` visit per provider (each confirms it in their own schedule), in the caller's unit of
    work; ValidationFailed naming the first provider who is inactive or busy then (nothing is kept)."""
    for provider in providers:
        if not provider.is_active or not provider.is_verified or provider.suspended_at is not None:
            name = f"{provider.first_name} {provider.last_name}".strip()
            raise ValidationFailed(PROVIDER_UNAVAILABLE.format(name=name))
    ids = [provider.id for provider in providers]
    await lock_providers(session, ids)
    await session.execute(
        delete(Appointment).where(
            Appointment.provider_id.in_(ids),
            Appointment.status == AppointmentStatus.held,
            Appointment.hold_expires_at <= now,
        )
    )
    busy_until = booking.ends_at + timedelta(minutes=flags.travel_buffer_minutes())
    rows = []
    for provider in providers:
        row = Appointment(
            patient_id=booking.client_id,
            provider_id=provider.id,
            service_id=booking.service_id,
            status=AppointmentStatus.pending,
            starts_at=booking.starts_at,
            ends_at=booking.ends_at,
            busy_until=busy_until,
            location=ServiceLocation.corporate_venue,
            address_line=booking.address_line,
            city=booking.city,
            state=booking.state,
            zip_code=booking.zip_code,
            notes=booking.notes,
            price=booking.price,
            original_price=booking.price,
        )
        try:
            async with session.begin_nested():
                session.add(row)
        except IntegrityError as error:
            if not lost_a_race(error):
                raise
            name = f"{provider.first_name} {provider.last_name}".strip()
            raise ValidationFailed(PROVIDER_BUSY.format(name=name)) from None
        rows.append(row)
    return rows
