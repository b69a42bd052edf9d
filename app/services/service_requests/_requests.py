"""The patient's side: post a request, follow it and its offers, cancel it, accept one offer (booked
through the ordinary holds and checkout of app/services/booking: the provider's no-overlap rule, the same
fee and payment rules), and the staff's read of a request (view_patient_logs, recorded as a view of the
patient's records)."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.db import changed_rows
from app.principal import Principal
from app.services.booking import hold_slot, place_order
from app.services.domain_events import ServiceRequestCancelled, ServiceRequestOfferAccepted
from app.services.errors import NotFound, ValidationFailed
from app.services.safety import find_red_flag
from app.services.service_requests._reads import announce, offer_read, offers_of, request_read
from app.services.service_requests._rules import (
    BAD_PLACE,
    BAD_SERVICE,
    LONG_NOTES,
    MAX_LIVE_PER_PATIENT,
    NO_OFFER,
    NO_REQUEST,
    NOT_OPEN,
    OFFER_GONE,
    TOO_MANY_LIVE,
    checked_zip,
    expiry_of,
    parse_windows,
)
from app.services.shared.addresses import ADDRESSED, address_problems
from app.services.shared.clock import current_time
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from models.account import AccountRead
from models.audit import AuditAction
from models.booking import Appointment, CheckoutLine
from models.catalog import Service, ServiceLocation
from models.identity import as_utc
from models.provider import Provider
from models.service_request import (
    LIVE_REQUEST,
    MAX_LISTED,
    MAX_NOTES,
    OfferStatus,
    RequestStatus,
    ServiceRequest,
    ServiceRequestCreate,
    ServiceRequestOffer,
    ServiceRequestRead,
)
from models.staff import Permission

logger = logging.getLogger(__name__)


async def post_service_request(
    *, session: AsyncSession, actor: Principal, request: ServiceRequestCreate, now: datetime | None = None
) -> ServiceRequestRead:
    """Post the signed-in person's request: an active catalog service at a place it is offered for, a
    real US ZIP code, 1–3 future time windows (local to the ZIP code) and notes of at most MAX_NOTES
    characters. At most MAX_LIVE_PER_PATIENT live requests each. Eligible providers see it at once. Notes
    with a red flag (an emergency, a crisis) answer with the 911 / 988 message as `safety_message`."""
    account = await require_account(session=session, actor=actor)
    now = current_time(now)
    service = await session.scalar(
        select(Service).where(Service.slug == request.service_slug[:80], Service.is_active.is_(True))
    )
    if service is None:
        raise ValidationFailed(BAD_SERVICE)
    try:
        location = ServiceLocation(request.location)
    except ValueError:
        raise ValidationFailed(BAD_PLACE.format(service=service.name, place=request.location[:40])) from None
    if not service.location_mask & location.bit:
        raise ValidationFailed(BAD_PLACE.format(service=service.name, place=location.label))
    zip_code, place = checked_zip(request.zip_code)
    windows = parse_windows(
        list(request.windows)[:10],
        time_zone=place.time_zone,
        minutes=service.duration_minutes,
        service=service.name,
        now=now,
    )
    notes = request.notes.strip()
    if len(notes) > MAX_NOTES:
        raise ValidationFailed(LONG_NOTES)
    live = (
        await session.execute(
            select(func.count())
            .select_from(ServiceRequest)
            .where(
                ServiceRequest.patient_id == account.id,
                ServiceRequest.status.in_(LIVE_REQUEST),
                ServiceRequest.expires_at > now,
            )
        )
    ).scalar_one()
    if live >= MAX_LIVE_PER_PATIENT:
        raise ValidationFailed(TOO_MANY_LIVE)
    row = ServiceRequest(
        patient_id=account.id,
        service_id=service.id,
        location=location,
        zip_code=zip_code,
        state=place.state,
        time_zone=place.time_zone,
        windows=[w.model_dump(mode="json") for w in windows],
        notes=notes,
        status=RequestStatus.open,
        created_at=now,
        expires_at=expiry_of(windows, now),
    )
    session.add(row)
    await session.flush()
    await announce(session, row.id)
    read = request_read(row, service, with_notes=True)
    # Posted all the same (the patient asked for a visit), with the 911 / 988 message for the screen.
    flag = find_red_flag(notes)
    if flag is None:
        return read
    logger.warning("Service request red flag: level=%s category=%s", flag.level, flag.category)
    return read.model_copy(update={"safety_message": flag.message})


async def list_my_service_requests(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> list[ServiceRequestRead]:
    """The signed-in person's requests, newest first (at most MAX_LISTED), each with its offers."""
    account = await require_account(session=session, actor=actor)
    rows = (
        await session.execute(
            select(ServiceRequest, Service)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(ServiceRequest.patient_id == account.id)
            .order_by(ServiceRequest.created_at.desc(), ServiceRequest.id)
            .limit(MAX_LISTED)
        )
    ).all()
    offers = await offers_of(session, rows)
    return [request_read(r, s, with_notes=True, offers=offers[r.id]) for r, s in rows]


async def _readable_by(
    session: AsyncSession, account: AccountRead, row: ServiceRequest, actor: Principal
) -> bool:
    """Whether `account` may read the request with its notes: its patient, the provider who won it, or a
    staff member with view_patient_logs (the read is then recorded as a view of the patient's records)."""
    if row.patient_id == account.id:
        return True
    if row.status == RequestStatus.booked:
        won = await session.scalar(
            select(ServiceRequestOffer.id)
            .join(Provider, Provider.id == ServiceRequestOffer.provider_id)
            .where(
                ServiceRequestOffer.request_id == row.id,
                ServiceRequestOffer.status == OfferStatus.accepted,
                Provider.user_id == account.id,
            )
        )
        if won is not None:
            return True
    if Permission.view_patient_logs in await permissions_of(session=session, account=account):
        await audit.record_by(
            session=session,
            account=account,
            actor=actor,
            action=AuditAction.patient_records_view,
            target=row.patient_id,
            details={"service_request_id": row.id, "via": "service request"},
        )
        return True
    return False


async def get_service_request(
    *, session: AsyncSession, actor: Principal, request_id: str
) -> ServiceRequestRead:
    """One request with its notes and offers, for its patient, the provider who won it, or staff with
    view_patient_logs. Anyone else reads 'not found' (nothing tells them it exists)."""
    account = await require_account(session=session, actor=actor)
    found = (
        await session.execute(
            select(ServiceRequest, Service)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(ServiceRequest.id == request_id[:36])
        )
    ).first()
    if found is None or not await _readable_by(session, account, found[0], actor):
        raise NotFound(NO_REQUEST)
    offers = await offers_of(session, [found.tuple()])
    return request_read(found[0], found[1], with_notes=True, offers=offers[found[0].id])


async def _own_live_request(
    session: AsyncSession, account: AccountRead, request_id: str
) -> tuple[ServiceRequest, Service]:
    found = (
        await session.execute(
            select(ServiceRequest, Service)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(ServiceRequest.id == request_id[:36], ServiceRequest.patient_id == account.id)
        )
    ).first()
    if found is None:
        raise NotFound(NO_REQUEST)
    return found[0], found[1]


async def _close(session: AsyncSession, row: ServiceRequest, status: RequestStatus, now: datetime) -> None:
    """Move a live request to `status`, once: a second tab (or the expiry job) that got there first wins
    and this one is refused (the conditional update decides, on every database)."""
    closed = await changed_rows(
        session,
        update(ServiceRequest)
        .where(
            ServiceRequest.id == row.id,
            ServiceRequest.status.in_(LIVE_REQUEST),
            ServiceRequest.expires_at > now,
        )
        .values(status=status, closed_at=now)
        .execution_options(synchronize_session=False),
    )
    if closed != 1:
        raise ValidationFailed(NOT_OPEN)
    row.status, row.closed_at = status, now


async def _decline_others(
    session: AsyncSession, request_id: str, keep: str | None, status: OfferStatus, now: datetime
) -> list[str]:
    """Close the request's other pending offers; the user ids of their providers (to notify)."""
    rows = (
        await session.execute(
            select(ServiceRequestOffer.id, Provider.user_id)
            .join(Provider, Provider.id == ServiceRequestOffer.provider_id)
            .where(
                ServiceRequestOffer.request_id == request_id,
                ServiceRequestOffer.status == OfferStatus.pending,
                ServiceRequestOffer.id != (keep or ""),
            )
        )
    ).all()
    if rows:
        await session.execute(
            update(ServiceRequestOffer)
            .where(ServiceRequestOffer.id.in_([offer_id for offer_id, _ in rows]))
            .values(status=status, decided_at=now)
            .execution_options(synchronize_session=False)
        )
    return [user_id for _, user_id in rows if user_id]


async def cancel_service_request(
    *, session: AsyncSession, actor: Principal, request_id: str, now: datetime | None = None
) -> ServiceRequestRead:
    """The patient withdraws a live request: pending offers are declined and their providers told."""
    account = await require_account(session=session, actor=actor)
    now = current_time(now)
    row, service = await _own_live_request(session, account, request_id)
    await _close(session, row, RequestStatus.cancelled, now)
    declined = await _decline_others(session, row.id, None, OfferStatus.declined, now)
    await events.publish_event(
        session, ServiceRequestCancelled(request_id=row.id, declined_user_ids=tuple(declined), at=now)
    )
    await announce(session, row.id)
    return request_read(row, service, with_notes=True)


async def accept_offer(
    *,
    session: AsyncSession,
    actor: Principal,
    offer_id: str,
    address_line: str = "",
    city: str = "",
    state: str = "",
    visitor_id: str = "",
    now: datetime | None = None,
) -> ServiceRequestRead:
    """The patient accepts one pending offer on their live request: the provider's offered time is held and
    booked through checkout (`hold_slot`, `place_order`: the no-overlap rule, the platform fee and the
    configured payment), at the offered price (checkout's rule that a visit is charged the lower of its held
    price and the provider's current one still applies). The request is booked, the other offers declined,
    and everyone told. Accepting twice, or two offers at once, books one visit: the request's conditional
    update lets one through."""
    account = await require_account(session=session, actor=actor)
    now = current_time(now)
    found = (
        await session.execute(
            select(ServiceRequestOffer, ServiceRequest, Service, Provider)
            .join(ServiceRequest, ServiceRequest.id == ServiceRequestOffer.request_id)
            .join(Service, Service.id == ServiceRequest.service_id)
            .join(Provider, Provider.id == ServiceRequestOffer.provider_id)
            .where(ServiceRequestOffer.id == offer_id[:36], ServiceRequest.patient_id == account.id)
        )
    ).first()
    if found is None:
        raise NotFound(NO_OFFER)
    offer, row, service, provider = found
    if row.location in ADDRESSED:
        problems = address_problems(
            row.location, zip_code=row.zip_code, address_line=address_line, city=city, state=state
        )
        if problems:
            raise ValidationFailed(next(iter(problems.values())))
    await _close(session, row, RequestStatus.booked, now)
    taken = await changed_rows(
        session,
        update(ServiceRequestOffer)
        .where(ServiceRequestOffer.id == offer.id, ServiceRequestOffer.status == OfferStatus.pending)
        .values(status=OfferStatus.accepted, decided_at=now)
        .execution_options(synchronize_session=False),
    )
    if taken != 1:
        raise ValidationFailed(OFFER_GONE)
    held = await hold_slot(
        session=session,
        actor=actor,
        service_slug=service.slug,
        provider_id=provider.id,
        starts_at=as_utc(offer.starts_at),
        zip_code=row.zip_code,
        location=row.location,
        now=now,
    )
    await session.execute(
        update(Appointment)
        .where(Appointment.id == held.id)
        .values(price=offer.price, original_price=offer.price)
        .execution_options(synchronize_session=False)
    )
    line = CheckoutLine(
        hold_id=held.id,
        location=row.location,
        address_line=address_line,
        city=city,
        state=state,
        zip_code=row.zip_code,
        notes=row.notes,
    )
    order = await place_order(session=session, actor=actor, lines=[line], visitor_id=visitor_id, now=now)
    row.appointment_id, row.order_number = held.id, order.number
    await session.flush()
    declined = await _decline_others(session, row.id, offer.id, OfferStatus.declined, now)
    await events.publish_event(
        session,
        ServiceRequestOfferAccepted(
            request_id=row.id,
            offer_id=offer.id,
            provider_user_id=provider.user_id,
            declined_user_ids=tuple(declined),
            at=now,
        ),
    )
    await announce(session, row.id)
    offer.status, offer.decided_at = OfferStatus.accepted, now
    read = request_read(row, service, with_notes=True, offers=[offer_read(offer, provider, service)])
    return read.model_copy(update={"payment_url": order.payment_url})
