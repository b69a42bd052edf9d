"""A booked request whose visit was released before it was paid (its card payment failed, or its payment page
expired: app/services/payments) is not left "booked" with no visit: the accepted offer is open again, so the
patient can accept it once more and pay, and the provider hears that the visit is off for now. If the
request's time has passed by then, it closes as expired instead."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import PaymentFailed
from app.services.notifications import Message
from app.services.notifications.internal import notify_each
from app.services.service_requests._reads import announce
from app.services.service_requests._rules import JOBS, MY_REQUESTS
from models.identity import as_utc
from models.notification import NotificationKind
from models.provider import Provider
from models.service_request import OfferStatus, RequestStatus, ServiceRequest, ServiceRequestOffer

# (title, body) of each notification.
REOPENED = (
    "Your service request is open again",
    "The payment didn't go through, so the visit wasn't booked. The offer you accepted is open again: accept "
    "it to try once more.",
)
CLOSED = (
    "Your service request has closed",
    "The payment didn't go through, and the request's time has passed.",
)
OFFER_OPEN_AGAIN = (
    "A visit you were booked for is off for now",
    "The patient's payment didn't go through. Your offer is open again; you'll hear if it is accepted.",
)
VISIT_OFF = ("A visit you were booked for is off", "The patient's payment didn't go through.")


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
    to_patients, to_providers = [], []
    for request, offer, provider in rows:
        request.appointment_id, request.order_number = None, ""
        if as_utc(request.expires_at) > now and as_utc(offer.starts_at) > now:
            request.status, request.closed_at = RequestStatus.offered, None
            offer.status, offer.decided_at = OfferStatus.pending, None
            to_patients.append(Message(request.patient_id, *REOPENED, MY_REQUESTS))
            to_providers.append(Message(provider.user_id, *OFFER_OPEN_AGAIN, JOBS))
        else:
            request.status, request.closed_at = RequestStatus.expired, now
            offer.status, offer.decided_at = OfferStatus.expired, now
            to_patients.append(Message(request.patient_id, *CLOSED, MY_REQUESTS))
            to_providers.append(Message(provider.user_id, *VISIT_OFF, JOBS))
        await announce(session, request.id)
    await session.flush()
    await notify_each(
        session=session, kind=NotificationKind.service_request_offer, messages=to_patients, now=now
    )
    await notify_each(
        session=session, kind=NotificationKind.service_request_decision, messages=to_providers, now=now
    )
    return len(rows)


async def reopen_requests_of_failed_payment(session: AsyncSession, failed: PaymentFailed) -> None:
    """`PaymentFailed`'s subscriber, in the payment's transaction."""
    await reopen_released_requests(session, appointment_ids=failed.visit_ids, now=failed.at)
