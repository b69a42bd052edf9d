"""Building the pydantic reads of requests and offers from rows, with no query per row: the callers load
requests with their services in one statement and all their offers (with the providers) in one more."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.services.providers import display_name
from app.services.service_requests._rules import windows_of, zip_place
from models.catalog import Service
from models.identity import as_utc
from models.provider import Provider
from models.service_request import OfferRead, ServiceRequest, ServiceRequestOffer, ServiceRequestRead

# One topic for every change of a request or offer: payloads carry the request's id only. The job board
# refetches on each; the patient's and the provider's screens only for requests they hold.
SERVICE_REQUESTS_TOPIC = "service-requests"


async def announce(session: AsyncSession, request_id: str) -> None:
    await events.publish_on_commit(session, SERVICE_REQUESTS_TOPIC, {"request_id": request_id})


def offer_read(
    offer: ServiceRequestOffer,
    provider: Provider,
    service: Service,
    request: ServiceRequest | None = None,
    *,
    with_notes: bool = False,
) -> OfferRead:
    starts = as_utc(offer.starts_at)
    extra = {}
    if request is not None:
        extra = {
            "service_name": service.name,
            "zip_code": request.zip_code,
            "request_status": request.status,
            "location": request.location,
            "notes": request.notes if with_notes else None,
            "order_number": request.order_number if with_notes else "",
        }
    return OfferRead(
        id=offer.id,
        request_id=offer.request_id,
        provider_id=provider.id,
        provider_name=display_name(provider.first_name, provider.last_name),
        provider_rating=provider.rating_average,
        provider_reviews=provider.review_count,
        price=offer.price,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=service.duration_minutes),
        message=offer.message,
        status=offer.status,
        created_at=as_utc(offer.created_at),
        **extra,
    )


def request_read(
    row: ServiceRequest,
    service: Service,
    *,
    with_notes: bool,
    offers: Sequence[OfferRead] = (),
    my_offer: OfferRead | None = None,
) -> ServiceRequestRead:
    place = zip_place(row.zip_code)
    return ServiceRequestRead(
        id=row.id,
        service_slug=service.slug,
        service_name=service.name,
        duration_minutes=service.duration_minutes,
        catalog_price=service.price,
        location=row.location,
        zip_code=row.zip_code,
        area=place.area if place else row.state,
        time_zone=row.time_zone,
        windows=windows_of(row),
        notes=row.notes if with_notes else None,
        status=row.status,
        created_at=as_utc(row.created_at),
        expires_at=as_utc(row.expires_at),
        order_number=row.order_number,
        offers=list(offers),
        my_offer=my_offer,
    )


async def offers_of(
    session: AsyncSession, requests: Sequence[tuple[ServiceRequest, Service]]
) -> dict[str, list[OfferRead]]:
    """Every offer on these requests with its provider (one query), by request id, oldest first."""
    services = {request.id: service for request, service in requests}
    if not services:
        return {}
    rows = await session.execute(
        select(ServiceRequestOffer, Provider)
        .join(Provider, Provider.id == ServiceRequestOffer.provider_id)
        .where(ServiceRequestOffer.request_id.in_(list(services)))
        .order_by(ServiceRequestOffer.created_at, ServiceRequestOffer.id)
    )
    found: dict[str, list[OfferRead]] = {request_id: [] for request_id in services}
    for offer, provider in rows.all():
        found[offer.request_id].append(offer_read(offer, provider, services[offer.request_id]))
    return found
