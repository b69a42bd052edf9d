"""Event days: staff (manage_services) book an on-site day of an active contract — one service, a block of
hours in the venue's local time (its ZIP code's time zone), at least one provider licensed in the venue's
state that day (the marketplace's licence-state rule) — as Corporate Venue
visits through the booking service (`booking._venue`: each provider's no-overlap rule holds, and the
message names a provider who is busy then); and invoice it to the organization through the invoices service
(which also checks create_invoices): one line per provider at the contract's agreed price."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import zipcodes
from sqlalchemy import Select, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.booking import VenueBooking
from app.services.booking.internal import book_venue_visits
from app.services.corporate._contracts import NO_CONTRACT, contract_reads
from app.services.corporate._rules import clean, require_corporate_staff
from app.services.domain_events import CorporateEventDayBooked
from app.services.errors import NotFound, ValidationFailed
from app.services.invoices import create_invoice
from app.services.providers import display_name, licensed_in
from app.services.shared.clock import today_utc
from app.services.validation import us_zip
from models.audit import AuditAction
from models.booking import AppointmentStatus
from models.catalog import Service
from models.corporate import (
    ContractRead,
    ContractStatus,
    CorporateContract,
    CorporateContractService,
    CorporateEventDay,
    CorporateEventVisit,
    EventProviderRead,
)
from models.invoice import InvoiceCreate, InvoiceLineInput, InvoiceRead, RecipientKind
from models.organization import MemberRole, Organization, OrganizationMember
from models.provider import Provider, ProviderService

MAX_PROVIDERS = 10
MAX_HOURS = 12
MAX_ADDRESS = 200
PAY_WITHIN_DAYS = 30

NOT_ACTIVE = "Event days can be booked on an active contract only."
NOT_IN_CONTRACT = "Choose one of the contract's services."
BAD_ZIP = "Enter the venue's 5-digit US ZIP code, e.g. 10001."
ADDRESS_REQUIRED = "Enter the venue's street address."
ADDRESS_TOO_LONG = f"The address can be at most {MAX_ADDRESS} characters."
BAD_HOURS = f"The day must end after it starts, and last at most {MAX_HOURS} hours."
OUTSIDE_PERIOD = "The day must fall within the contract's period ({starts} to {ends})."
IN_THE_PAST = "Choose a day and time that are still ahead."
BAD_PROVIDERS = f"Choose between 1 and {MAX_PROVIDERS} providers, each once."
NOT_OFFERED = "Choose providers who offer {service} and hold a licence in {state} on that day."
NO_ADMIN = "The organization needs an admin with an account before visits can be booked for it."
NO_DAY = "No event day has this id."
ALREADY_INVOICED = "This event day is already invoiced ({number})."
NOTHING_TO_INVOICE = "Every visit of this day was cancelled: there is nothing to invoice."


async def _contract_service(
    session: AsyncSession, contract: CorporateContract, service_slug: str
) -> tuple[Service, int]:
    found = (
        await session.execute(
            select(Service, CorporateContractService.price_cents)
            .join(CorporateContractService, CorporateContractService.service_id == Service.id)
            .where(CorporateContractService.contract_id == contract.id, Service.slug == service_slug[:80])
        )
    ).first()
    if found is None:
        raise ValidationFailed(NOT_IN_CONTRACT)
    return found[0], found[1]


def _offering(service_id: str) -> Select[Provider]:
    return (
        select(Provider)
        .join(ProviderService, ProviderService.provider_id == Provider.id)
        .where(
            ProviderService.service_id == service_id,
            Provider.is_verified.is_(True),
            Provider.is_active.is_(True),
            Provider.suspended_at.is_(None),
        )
    )


async def list_event_providers(
    *,
    session: AsyncSession,
    actor: Principal,
    contract_id: str,
    service_slug: str,
    zip_code: str = "",
    day: date | None = None,
) -> list[EventProviderRead]:
    """Staff: the providers who may be booked for the contract's service (verified, active, offering it,
    and — once the venue's ZIP code is known — licensed in its state on `day`, default today), by name, at
    most 100."""
    await require_corporate_staff(session=session, actor=actor)
    contract = await session.get(CorporateContract, (contract_id or "")[:36])
    if contract is None:
        raise NotFound(NO_CONTRACT)
    service, _price = await _contract_service(session, contract, service_slug)
    query = _offering(service.id)
    if len(zip_code.strip()) == 5:
        try:
            _zip, _city, state, _zone = _venue(zip_code)
        except ValidationFailed:
            return []
        query = query.where(licensed_in(Provider.id, state, day or today_utc()))
    rows = await session.scalars(
        query.order_by(Provider.last_name, Provider.first_name, Provider.id).limit(100)
    )
    return [
        EventProviderRead(
            id=row.id, name=display_name(row.first_name, row.last_name), provider_type=str(row.provider_type)
        )
        for row in rows
    ]


def _venue(zip_text: str) -> tuple[str, str, str, ZoneInfo]:
    """(ZIP, city, state, time zone) of a real US ZIP code."""
    try:
        zip_code = us_zip(zip_text)
    except ValidationFailed:
        raise ValidationFailed(BAD_ZIP) from None
    found = zipcodes.matching(zip_code)
    if not found or not found[0].get("timezone"):
        raise ValidationFailed(BAD_ZIP)
    place = found[0]
    return zip_code, place["city"], place["state"], ZoneInfo(place["timezone"])


async def book_event_day(
    *,
    session: AsyncSession,
    actor: Principal,
    contract_id: str,
    service_slug: str,
    day: date,
    starts: time,
    ends: time,
    address_line: str,
    zip_code: str,
    provider_ids: list[str],
    now: datetime | None = None,
) -> ContractRead:
    """Staff book an on-site day: one Corporate Venue visit per provider from `starts` to `ends` (the venue's
    local time), for the organization's first admin; ValidationFailed, nothing kept, when a provider is busy
    then or anything else is wrong (audited)."""
    staff = await require_corporate_staff(session=session, actor=actor)
    now = now or datetime.now(UTC)
    contract = await session.get(CorporateContract, (contract_id or "")[:36], with_for_update=True)
    if contract is None:
        raise NotFound(NO_CONTRACT)
    if contract.status is not ContractStatus.active:
        raise ValidationFailed(NOT_ACTIVE)
    service, price_cents = await _contract_service(session, contract, service_slug)
    address = clean(address_line)
    if not address:
        raise ValidationFailed(ADDRESS_REQUIRED)
    if len(address) > MAX_ADDRESS:
        raise ValidationFailed(ADDRESS_TOO_LONG)
    zip_code, city, state, zone = _venue(zip_code)
    if not contract.starts_on <= day <= contract.ends_on:
        raise ValidationFailed(OUTSIDE_PERIOD.format(starts=contract.starts_on, ends=contract.ends_on))
    starts_at = datetime.combine(day, starts, zone).astimezone(UTC)
    ends_at = datetime.combine(day, ends, zone).astimezone(UTC)
    if not timedelta(0) < ends_at - starts_at <= timedelta(hours=MAX_HOURS):
        raise ValidationFailed(BAD_HOURS)
    if starts_at <= now:
        raise ValidationFailed(IN_THE_PAST)
    ids = list(dict.fromkeys(p[:36] for p in provider_ids))
    if not 1 <= len(ids) <= MAX_PROVIDERS or len(ids) != len(provider_ids):
        raise ValidationFailed(BAD_PROVIDERS)
    providers = (
        await session.scalars(
            _offering(service.id).where(Provider.id.in_(ids), licensed_in(Provider.id, state, day))
        )
    ).all()
    if len(providers) != len(ids):
        raise ValidationFailed(NOT_OFFERED.format(service=service.name, state=state))
    client_id = await session.scalar(
        select(OrganizationMember.user_id)
        .where(
            OrganizationMember.organization_id == contract.organization_id,
            OrganizationMember.role == MemberRole.admin,
        )
        .order_by(OrganizationMember.joined_at, OrganizationMember.id)
        .limit(1)
    )
    if client_id is None:
        raise ValidationFailed(NO_ADMIN)
    organization = await session.get(Organization, contract.organization_id)
    event_day = CorporateEventDay(
        contract_id=contract.id,
        service_id=service.id,
        starts_at=starts_at,
        ends_at=ends_at,
        address_line=address,
        zip_code=zip_code,
        price_cents=price_cents,
    )
    session.add(event_day)
    await session.flush()
    booked = await book_venue_visits(
        session,
        booking=VenueBooking(
            client_id=client_id,
            service_id=service.id,
            starts_at=starts_at,
            ends_at=ends_at,
            address_line=address,
            city=city,
            state=state,
            zip_code=zip_code,
            price=Decimal(price_cents) / 100,
            notes=f"On-site event day for {organization.name if organization else 'a corporate client'}.",
        ),
        providers=sorted(providers, key=lambda p: ids.index(p.id)),
        now=now,
    )
    session.add_all(
        CorporateEventVisit(event_day_id=event_day.id, appointment_id=row.id, provider_id=row.provider_id)
        for row in booked
    )
    await session.flush()
    await events.publish_event(
        session,
        CorporateEventDayBooked(
            event_day_id=event_day.id,
            provider_user_ids=tuple(provider.user_id for provider in providers),
            service_name=service.name,
            address_line=address,
            zip_code=zip_code,
            local_day=starts_at.astimezone(zone).date(),
        ),
    )
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.event_day_book,
        target=f"contract {contract.id}",
        details={"providers": ids, "starts_at": starts_at.isoformat(), "service": service.slug},
    )
    return (await contract_reads(session, [contract]))[0]


async def invoice_event_day(
    *, session: AsyncSession, actor: Principal, event_day_id: str, due_on: date | None = None
) -> InvoiceRead:
    """Staff invoice an event day to the organization (a draft invoice, sent from Invoices like any other):
    one line per visit not cancelled, at the contract's agreed price. Needs create_invoices too."""
    staff = await require_corporate_staff(session=session, actor=actor)
    event_day = await session.get(CorporateEventDay, (event_day_id or "")[:36], with_for_update=True)
    if event_day is None:
        raise NotFound(NO_DAY)
    contract = await session.get(CorporateContract, event_day.contract_id)
    assert contract is not None
    (read,) = await contract_reads(session, [contract])
    day = next(d for d in read.event_days if d.id == event_day.id)
    if day.invoice_number:
        raise ValidationFailed(ALREADY_INVOICED.format(number=day.invoice_number))
    visits = [v for v in day.visits if v.status != AppointmentStatus.cancelled.value]
    if not visits:
        raise ValidationFailed(NOTHING_TO_INVOICE)
    local = day.starts_at.astimezone(_venue(day.zip_code)[3])
    when = f"{local:%b} {local.day}, {local.year}"
    invoice = await create_invoice(
        session=session,
        actor=actor,
        data=InvoiceCreate(
            recipient_kind=RecipientKind.organization,
            recipient_name=read.organization_name,
            recipient_email=read.billing_email,
            recipient_address=read.sites,
            due_on=due_on or today_utc() + timedelta(days=PAY_WITHIN_DAYS),
            notes=f"{read.title}: on-site event day, {when}, {day.address_line} {day.zip_code}.",
            lines=[
                InvoiceLineInput(
                    description=f"{day.service_name} on site, {when}: {visit.provider_name}"[:200],
                    quantity=1,
                    unit_price_cents=day.price_cents,
                )
                for visit in visits
            ],
        ),
    )
    event_day.invoice_id = invoice.id
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.event_day_invoice,
        target=f"contract {contract.id}",
        details={"invoice": invoice.number, "event_day": event_day.id},
    )
    return invoice
