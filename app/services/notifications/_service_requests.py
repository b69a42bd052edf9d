"""Service requests (app/services/service_requests): the patient hears of offers and of requests that closed,
the providers who offered hear what became of their offers. Subscribers of that domain's events, in its
transaction."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import (
    ServiceRequestCancelled,
    ServiceRequestOfferAccepted,
    ServiceRequestOffered,
    ServiceRequestsExpired,
    ServiceRequestsReleased,
)
from app.services.notifications._delivery import Message, notify, notify_each
from models.notification import NotificationKind

MY_REQUESTS = "/service-requests"
JOBS = "/dashboard/jobs"

# (title, body) of the notices of a request whose visit was released unpaid.
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


async def tell_offer_received(session: AsyncSession, offered: ServiceRequestOffered) -> None:
    await notify(
        session=session,
        recipients=[offered.patient_id],
        kind=NotificationKind.service_request_offer,
        link=MY_REQUESTS,
        title="New offer on your service request",
        body="A provider offered a visit. Compare the offers and choose one.",
        now=offered.at,
    )


async def tell_request_cancelled(session: AsyncSession, cancelled: ServiceRequestCancelled) -> None:
    await notify(
        session=session,
        recipients=cancelled.declined_user_ids,
        kind=NotificationKind.service_request_decision,
        link=JOBS,
        title="A request you offered on was cancelled",
        body="The patient no longer needs this visit.",
        now=cancelled.at,
    )


async def tell_offer_accepted(session: AsyncSession, accepted: ServiceRequestOfferAccepted) -> None:
    await notify_each(
        session=session,
        kind=NotificationKind.service_request_decision,
        messages=[
            Message(
                accepted.provider_user_id, "Your offer was accepted", "The visit is booked: see Jobs.", JOBS
            ),
            *(
                Message(user_id, "Your offer wasn't chosen", "The patient accepted another offer.", JOBS)
                for user_id in accepted.declined_user_ids
            ),
        ],
        now=accepted.at,
    )


async def tell_requests_expired(session: AsyncSession, expired: ServiceRequestsExpired) -> None:
    await notify(
        session=session,
        recipients=expired.patient_ids,
        kind=NotificationKind.service_request_closed,
        link=MY_REQUESTS,
        title="Your service request has closed",
        body="Its time has passed without a booking. You can post a new one.",
        now=expired.at,
    )


async def tell_requests_released(session: AsyncSession, released: ServiceRequestsReleased) -> None:
    to_patients = [
        Message(request.patient_id, *(REOPENED if request.reopened else CLOSED), MY_REQUESTS)
        for request in released.requests
    ]
    to_providers = [
        Message(request.provider_user_id, *(OFFER_OPEN_AGAIN if request.reopened else VISIT_OFF), JOBS)
        for request in released.requests
    ]
    await notify_each(
        session=session, kind=NotificationKind.service_request_offer, messages=to_patients, now=released.at
    )
    await notify_each(
        session=session,
        kind=NotificationKind.service_request_decision,
        messages=to_providers,
        now=released.at,
    )
