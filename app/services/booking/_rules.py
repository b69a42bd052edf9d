"""Checkout's shared rules: limits, the messages a patient reads, the schemas of a checkout line, and the
checks every step repeats (a bookable service, the place and ZIP of a visit, the providers free at a start
time; who may take a visit's time at all is appointments' `_scheduling`)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import cache

from sqlalchemy import ColumnElement, Select, bindparam, exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.appointments import Candidate, serves_zip
from app.services.appointments.internal import provider_calendars
from app.services.errors import NotFound, ValidationFailed
from app.services.providers import LISTED, ORDER_BY_RATING, slot_rules
from app.services.shared.addresses import ZIP_RE, zip_state
from app.services.shared.clock import today_utc
from models.catalog import Service, ServiceCategory, ServiceLocation
from models.provider import Provider, ProviderService
from models.service_request import OfferStatus, ServiceRequest, ServiceRequestOffer

HOLD_MINUTES = 10
NOTES_MAX = 2000
MAX_LINES = 20  # visits in one order
MAX_LISTED = 20  # providers listed by checkout_options
ORDER_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O or 1/I to misread on the phone

TAKEN = "That time was just booked by someone else. Please choose another time."
NOT_OPEN = "That time isn't open for booking. Please choose one of the times offered."
SAME_TIME = "You already have a visit at that time."
TOO_MANY_HOLDS = (
    "You're already holding a time for each visit in your cart. "
    "Book them, or change one of them, before choosing another time."
)
WITH_YOURSELF = "You can't book a visit with yourself."
NO_SERVICE = "This service can't be booked right now."
BAD_PLACE = "{service} isn't offered for this place of visit ({place})."
BAD_ZIP = "Enter a 5-digit ZIP code."
NO_PROVIDER = "This provider doesn't offer {service} for {where}."
NOBODY = "No provider offers {service} for {where}."
HOLD_GONE = "This time is no longer held for you."
NOTHING_TO_BOOK = "Choose a time for at least one visit."
TOO_MANY = f"You can book at most {MAX_LINES} visits at once."
TWICE = "Each held time can be booked only once."
UNKNOWN_HOLD = "A time you chose is no longer held. Please choose the times again."
NOT_HELD = "The time for {service} is no longer held for you. Please choose a time again."
EXPIRED = "The time held for {service} has expired. Please choose a time again."
WITHDRAWN = "{provider} no longer offers {service}. Please choose another provider."
PROVIDER_PLACE = "{provider} doesn't offer {service} for this place of visit ({place})."
NEED_ZIP = "Enter a 5-digit ZIP code for {service}."
NOT_COVERED = "{provider} doesn't travel to ZIP code {zip}. Please choose another provider for {service}."
NEED_STREET = "Enter the street address for {service} (up to 200 characters)."
NEED_CITY = "Enter the city for {service} (up to 100 characters)."
NEED_STATE = "Enter the 2-letter state for {service}, such as NY."
LONG_NOTES = f"Intake notes for {{service}} can be at most {NOTES_MAX} characters."
NO_ORDER = "We could not find this order in your account."


# ---- shared checks ------------------------------------------------------------------------------
async def bookable_service(session: AsyncSession, slug: str) -> tuple[Service, str]:
    """The active service with this slug and its category slug."""
    found = (
        await session.execute(
            select(Service, ServiceCategory.slug)
            .join(ServiceCategory, ServiceCategory.id == Service.category_id)
            .where(Service.slug == slug, Service.is_active.is_(True))
        )
    ).first()
    if found is None:
        raise NotFound(NO_SERVICE)
    return found[0], found[1]


def place_zip(service: Service, location: ServiceLocation, zip_code: str) -> str:
    """The ZIP code that decides who can come ('' for a virtual visit), once the place is allowed."""
    if not service.location_mask & location.bit:
        raise ValidationFailed(BAD_PLACE.format(service=service.name, place=location.label))
    if location == ServiceLocation.virtual:
        return ""
    zip_code = zip_code.strip()
    if not ZIP_RE.match(zip_code):
        raise ValidationFailed(BAD_ZIP)
    return zip_code


def agreed_to_travel(
    provider_id: object, patient_id: object, zip_code: object, starts_at: object
) -> ColumnElement[bool]:
    """SQL: the patient accepted the provider's offer on their service request in this ZIP code, for a visit
    starting at `starts_at`: the provider agreed to travel there, though their listed area may not hold it
    (app/services/service_requests); columns, values or bound parameters."""
    return exists().where(
        ServiceRequestOffer.provider_id == provider_id,
        ServiceRequestOffer.status == OfferStatus.accepted,
        ServiceRequestOffer.starts_at == starts_at,
        ServiceRequest.id == ServiceRequestOffer.request_id,
        ServiceRequest.patient_id == patient_id,
        ServiceRequest.zip_code == zip_code,
    )


@cache
def _service_and_providers_statement(
    by_zip: bool, by_provider: bool
) -> Select[Service, str, Provider | None, Decimal | None]:
    """`service_and_providers`' statement for each combination of filters, built once (slug, bit, zip,
    state, day, provider_id, patient_id and starts_at are parameters): the service, its category's slug
    and each provider offering it with their price (none: nobody offers it)."""
    offers = (
        select(ProviderService.provider_id, ProviderService.service_id, ProviderService.price)
        .join(Provider, Provider.id == ProviderService.provider_id)
        .where(*LISTED, ProviderService.location_mask.op("&")(bindparam("bit")) != 0)
    )
    if by_zip:
        offers = offers.where(
            serves_zip(
                ProviderService.provider_id,
                bindparam("zip"),
                bindparam("state"),
                bindparam("day"),
                agreed_to_travel(
                    ProviderService.provider_id,
                    bindparam("patient_id"),
                    bindparam("zip"),
                    bindparam("starts_at"),
                ),
            )
        )
    if by_provider:
        offers = offers.where(ProviderService.provider_id == bindparam("provider_id"))
    offer = offers.subquery()
    return (
        select(Service, ServiceCategory.slug, Provider, offer.c.price)
        .join(ServiceCategory, ServiceCategory.id == Service.category_id)
        .outerjoin(offer, offer.c.service_id == Service.id)
        .outerjoin(Provider, Provider.id == offer.c.provider_id)
        .where(Service.slug == bindparam("slug"), Service.is_active.is_(True))
        .order_by(*ORDER_BY_RATING)
    )


async def service_and_providers(
    session: AsyncSession,
    slug: str,
    location: ServiceLocation,
    zip_code: str,
    provider_id: str | None,
    day: date | None = None,
    *,
    patient_id: str | None = None,
    starts_at: datetime | None = None,
) -> tuple[Service, str, list[Candidate]]:
    """`bookable_service` and its `eligible_providers` in one query: the service, its category slug and
    the listed providers offering it at `location` who travel to `zip_code` (their area, or they agreed to
    come to `patient_id` at `starts_at`) and are licensed in its state on `day` (the caller checks the place
    and ZIP code with `place_zip` afterwards; a malformed ZIP code simply matches nobody)."""
    zip_code = "" if location == ServiceLocation.virtual else zip_code.strip()
    statement = _service_and_providers_statement(bool(zip_code), provider_id is not None)
    values = {
        "slug": slug,
        "bit": location.bit,
        "zip": zip_code,
        "state": zip_state(zip_code) or "",
        "day": day or today_utc(),
        "provider_id": provider_id,
        "patient_id": patient_id,
        "starts_at": starts_at,
    }
    rows = (await session.execute(statement, values)).all()
    if not rows:
        raise NotFound(NO_SERVICE)
    service, category_slug = rows[0][0], rows[0][1]
    candidates = [
        Candidate(provider, price)
        for _s, _c, provider, price in rows
        if provider is not None and price is not None
    ]
    return service, category_slug, candidates


async def open_providers_at(
    session: AsyncSession, candidates: list[Candidate], minutes: int, start: datetime, now: datetime
) -> tuple[list[Candidate], set[str]]:
    """The candidates who can start the visit at `start` (notice, horizon, hours, time off, busy time and
    its travel buffer), in the same order, and the ids of those with an expired hold around `start`. None
    free: TAKEN when busy time alone is in the way, else NOT_OPEN."""
    providers = [c.provider for c in candidates]
    calendars = await provider_calendars(
        session, providers, slot_rules(minutes), start, start + timedelta(minutes=1), now
    )
    free = [c for c in candidates if calendars.starts(c.provider) == [start]]
    if not free:
        taken = any(calendars.starts(p, with_busy=False) == [start] for p in providers)
        raise ValidationFailed(TAKEN if taken else NOT_OPEN)
    return free, calendars.expired
