"""A booked request whose visit was released before it was paid (its card payment failed, or its payment page
expired: app/services/payments) is not left "booked" with no visit: the accepted offer is open again, so the
patient can accept it once more and pay, and the provider hears that the visit is off for now. If the
request's time has passed by then, it closes as expired instead."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.services.domain_events import PaymentFailed, ReleasedRequest, ServiceRequestsReleased
from app.services.service_requests._reads import announce
from models.identity import as_utc
from models.provider import Provider
from models.service_request import OfferStatus, RequestStatus, ServiceRequest, ServiceRequestOffer


async def reopen_released_requests(
    session: AsyncSession, *, appointment_ids: Sequence[str], now: datetime
) -> int:
    """Reopen the booked requests of these released visits (see the module's notes); how many."""
    if not appointment_ids:
        return 0
    rows = (
        await session.execute(
            select(ServiceRequest, ServiceRequestOffer, Provider)
            .join(
                ServiceRequestOffer,
                and_(
                    ServiceRequestOffer.request_id == ServiceRequest.id,
                    ServiceRequestOffer.status == OfferStatus.accepted,
                ),
            )
            .join(Provider, Provider.id == ServiceRequestOffer.provider_id)
            .where(
                ServiceRequest.appointment_id.in_(list(appointment_ids)),
                ServiceRequest.status == RequestStatus.booked,
            )
        )
    ).all()
    released = []
    for request, offer, provider in rows:
        request.appointment_id, request.order_number = None, ""
        reopened = as_utc(request.expires_at) > now and as_utc(offer.starts_at) > now
        if reopened:
            request.status, request.closed_at = RequestStatus.offered, None
            offer.status, offer.decided_at = OfferStatus.pending, None
        else:
            request.status, request.closed_at = RequestStatus.expired, now
            offer.status, offer.decided_at = OfferStatus.expired, now
        released.append(ReleasedRequest(request.id, request.patient_id, provider.user_id, reopened))
        await announce(session, request.id)
    await session.flush()
    if released:
        await events.publish_event(session, ServiceRequestsReleased(requests=tuple(released), at=now))
    return len(rows)


async def reopen_requests_of_failed_payment(session: AsyncSession, failed: PaymentFailed) -> None:
    """`PaymentFailed`'s subscriber, in the payment's transaction."""
    await reopen_released_requests(session, appointment_ids=failed.visit_ids, now=failed.at)
