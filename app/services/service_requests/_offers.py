"""The provider's side: the job board (live requests they are eligible for, newest first, without the
patient's notes), the start times they could offer for one, sending one offer per request, withdrawing a
pending one, and their offers and won jobs."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import and_, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.db import changed_rows
from app.principal import Principal
from app.services.appointments import provider_sees_details
from app.services.appointments.internal import provider_calendars
from app.services.domain_events import ServiceRequestOffered
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers import own_provider, slot_rules
from app.services.service_requests._reads import announce, offer_read, request_read
from app.services.service_requests._rules import (
    ALREADY_OFFERED,
    BAD_START,
    LONG_MESSAGE,
    MAX_START_TIMES,
    NO_OFFER,
    NOT_ELIGIBLE,
    NOT_LISTED,
    NOT_PENDING,
    centre_of,
    check_price,
    eligible_for,
    miles_from,
    reach_of,
    windows_of,
)
from app.services.shared.clock import current_time
from models.booking import Appointment
from models.catalog import Service
from models.identity import as_utc
from models.provider import Provider, ProviderZip, is_listed
from models.service_request import (
    MAX_LISTED,
    MAX_MESSAGE,
    OfferRead,
    OfferStatus,
    RequestStatus,
    ServiceRequest,
    ServiceRequestOffer,
    ServiceRequestRead,
)


async def _listed_provider(session: AsyncSession, actor: Principal) -> Provider:
    """The signed-in account's provider profile, if it is listed (verified, active, in good standing)."""
    _account, provider = await own_provider(session=session, actor=actor)
    if not is_listed(provider):
        raise PermissionDenied(NOT_LISTED)
    return provider


async def _area(session: AsyncSession, provider: Provider) -> list[str]:
    """The ZIP codes of the provider's service area."""
    return list(
        (
            await session.scalars(select(ProviderZip.zip_code).where(ProviderZip.provider_id == provider.id))
        ).all()
    )


async def list_job_board(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> list[ServiceRequestRead]:
    """Live requests the signed-in provider is eligible for (`eligible_for`: their services, the reach of
    their service area and their licence states), newest first, at most MAX_LISTED; each with the
    provider's own offer, if any, and its distance from the centre of their service area (the `zipcodes`
    list's coordinates). Never the patient's notes."""
    now = current_time(now)
    provider = await _listed_provider(session, actor)
    area = await _area(session, provider)
    rows = (
        await session.execute(
            select(ServiceRequest, Service, ServiceRequestOffer)
            .join(Service, Service.id == ServiceRequest.service_id)
            .outerjoin(
                ServiceRequestOffer,
                and_(
                    ServiceRequestOffer.request_id == ServiceRequest.id,
                    ServiceRequestOffer.provider_id == provider.id,
                ),
            )
            .where(eligible_for(provider.id, provider.user_id, reach_of(area), now.date(), now))
            .order_by(ServiceRequest.created_at.desc(), ServiceRequest.id)
            .limit(MAX_LISTED)
        )
    ).all()
    centre = centre_of(area)
    return [
        request_read(
            request,
            service,
            with_notes=False,
            my_offer=offer_read(offer, provider, service) if offer is not None else None,
        ).model_copy(update={"distance_miles": miles_from(centre, request.zip_code)})
        for request, service, offer in rows
    ]


async def _eligible_request(
    session: AsyncSession, provider: Provider, request_id: str, now: datetime
) -> tuple[ServiceRequest, Service]:
    reach = reach_of(await _area(session, provider))
    found = (
        await session.execute(
            select(ServiceRequest, Service)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(
                ServiceRequest.id == request_id[:36],
                eligible_for(provider.id, provider.user_id, reach, now.date(), now),
            )
        )
    ).first()
    if found is None:
        raise NotFound(NOT_ELIGIBLE)
    return found[0], found[1]


async def _open_starts(
    session: AsyncSession, provider: Provider, request: ServiceRequest, service: Service, now: datetime
) -> list[datetime]:
    """The provider's open start times (weekly hours, time off, booked time and travel buffer, notice)
    that fit the service inside one of the request's windows: one calendar read for all windows."""
    windows = windows_of(request)
    minutes = timedelta(minutes=service.duration_minutes)
    first = min(w.starts_at for w in windows)
    last = max(w.ends_at for w in windows) - minutes + timedelta(minutes=1)
    if last <= first:
        return []
    calendars = await provider_calendars(
        session, [provider], slot_rules(service.duration_minutes), first, last, now
    )
    starts = [
        s
        for s in calendars.starts(provider)
        if any(w.starts_at <= s and s + minutes <= w.ends_at for w in windows)
    ]
    return starts[:MAX_START_TIMES]


async def list_offer_times(
    *, session: AsyncSession, actor: Principal, request_id: str, now: datetime | None = None
) -> list[datetime]:
    """The start times (UTC) the signed-in provider could offer for an eligible request."""
    now = current_time(now)
    provider = await _listed_provider(session, actor)
    request, service = await _eligible_request(session, provider, request_id, now)
    return await _open_starts(session, provider, request, service, now)


async def send_offer(
    *,
    session: AsyncSession,
    actor: Principal,
    request_id: str,
    price: Decimal | str,
    starts_at: datetime | None,
    message: str = "",
    now: datetime | None = None,
) -> OfferRead:
    """One offer per provider and request: a price within the catalog bounds (`price_bounds`), a start time
    open in the provider's calendar inside one of the windows, and a short message. The patient is told."""
    now = current_time(now)
    provider = await _listed_provider(session, actor)
    request, service = await _eligible_request(session, provider, request_id, now)
    price = check_price(price, service.price)
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE:
        raise ValidationFailed(LONG_MESSAGE)
    mine = await session.scalar(
        select(ServiceRequestOffer.id).where(
            ServiceRequestOffer.request_id == request.id, ServiceRequestOffer.provider_id == provider.id
        )
    )
    if mine is not None:
        raise ValidationFailed(ALREADY_OFFERED)
    if (
        starts_at is None
        or starts_at.tzinfo is None
        or as_utc(starts_at) not in await _open_starts(session, provider, request, service, now)
    ):
        raise ValidationFailed(BAD_START)
    offer = ServiceRequestOffer(
        request_id=request.id,
        provider_id=provider.id,
        price=price,
        starts_at=as_utc(starts_at),
        message=message,
        status=OfferStatus.pending,
        created_at=now,
    )
    try:
        async with session.begin_nested():
            session.add(offer)
    except IntegrityError:  # the same provider's other tab sent one a moment ago
        raise ValidationFailed(ALREADY_OFFERED) from None
    await session.execute(
        update(ServiceRequest)
        .where(ServiceRequest.id == request.id, ServiceRequest.status == RequestStatus.open)
        .values(status=RequestStatus.offered)
        .execution_options(synchronize_session=False)
    )
    await events.publish_event(
        session,
        ServiceRequestOffered(
            request_id=request.id, offer_id=offer.id, patient_id=request.patient_id, at=now
        ),
    )
    await announce(session, request.id)
    return offer_read(offer, provider, service)


async def withdraw_offer(
    *, session: AsyncSession, actor: Principal, offer_id: str, now: datetime | None = None
) -> OfferRead:
    """The provider takes back a pending offer; a request left without pending offers is open again."""
    now = current_time(now)
    _account, provider = await own_provider(session=session, actor=actor)
    found = (
        await session.execute(
            select(ServiceRequestOffer, Service)
            .join(ServiceRequest, ServiceRequest.id == ServiceRequestOffer.request_id)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(ServiceRequestOffer.id == offer_id[:36], ServiceRequestOffer.provider_id == provider.id)
        )
    ).first()
    if found is None:
        raise NotFound(NO_OFFER)
    offer, service = found
    withdrawn = await changed_rows(
        session,
        update(ServiceRequestOffer)
        .where(ServiceRequestOffer.id == offer.id, ServiceRequestOffer.status == OfferStatus.pending)
        .values(status=OfferStatus.withdrawn, decided_at=now)
        .execution_options(synchronize_session=False),
    )
    if withdrawn != 1:
        raise ValidationFailed(NOT_PENDING)
    others = (
        select(func.count())
        .where(
            ServiceRequestOffer.request_id == offer.request_id,
            ServiceRequestOffer.status == OfferStatus.pending,
        )
        .scalar_subquery()
    )
    await session.execute(
        update(ServiceRequest)
        .where(
            ServiceRequest.id == offer.request_id,
            ServiceRequest.status == RequestStatus.offered,
            others == 0,
        )
        .values(status=RequestStatus.open)
        .execution_options(synchronize_session=False)
    )
    await announce(session, offer.request_id)
    offer.status, offer.decided_at = OfferStatus.withdrawn, now
    return offer_read(offer, provider, service)


async def list_my_offers(*, session: AsyncSession, actor: Principal) -> list[OfferRead]:
    """The signed-in provider's offers, newest first (at most MAX_LISTED), with what each is for; the
    patient's notes and the order number only on a won job."""
    _account, provider = await own_provider(session=session, actor=actor)
    rows = (
        await session.execute(
            select(ServiceRequestOffer, ServiceRequest, Service)
            .join(ServiceRequest, ServiceRequest.id == ServiceRequestOffer.request_id)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(ServiceRequestOffer.provider_id == provider.id)
            .order_by(ServiceRequestOffer.created_at.desc(), ServiceRequestOffer.id)
            .limit(MAX_LISTED)
        )
    ).all()
    won = {
        request.appointment_id
        for offer, request, _service in rows
        if offer.status == OfferStatus.accepted and request.status == RequestStatus.booked
    } - {None}
    visits = (
        {v.id: v for v in await session.scalars(select(Appointment).where(Appointment.id.in_(won)))}
        if won
        else {}
    )
    now = current_time(None)
    return [
        offer_read(
            offer,
            provider,
            service,
            request,
            with_notes=request.appointment_id in visits and _notes_shown(visits[request.appointment_id], now),
        )
        for offer, request, service in rows
    ]


def _notes_shown(visit: Appointment, now: datetime) -> bool:
    """A won job's notes follow its visit's rule: hidden from the provider once the visit closed longer
    than VISIT_DETAILS_VISIBLE_HOURS ago."""
    return provider_sees_details(
        status=visit.status,
        ends_at=visit.ends_at,
        completed_at=visit.completed_at,
        cancelled_at=visit.cancelled_at,
        now=now,
    )
