"""Expiry: the periodic job that closes live requests whose time has come (`expires_at`: the request
lifetime, or the end of their last preferred time), with their pending offers. Safe in several workers at
once: each row moves only from a live status."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.db import changed_rows
from app.services.domain_events import ServiceRequestsExpired
from app.services.service_requests._reads import announce
from app.services.shared.clock import current_time
from models.service_request import (
    LIVE_REQUEST,
    OfferStatus,
    RequestStatus,
    ServiceRequest,
    ServiceRequestOffer,
)

BATCH = 500  # requests closed per run; the next run takes the rest


async def expire_due_requests(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Close up to BATCH live requests past `expires_at`, expire their pending offers and tell their patients;
    how many closed."""
    now = current_time(now)
    rows = (
        await session.execute(
            select(ServiceRequest.id, ServiceRequest.patient_id)
            .where(ServiceRequest.status.in_(LIVE_REQUEST), ServiceRequest.expires_at <= now)
            .order_by(ServiceRequest.expires_at)
            .limit(BATCH)
        )
    ).all()
    if not rows:
        return 0
    due = [request_id for request_id, _ in rows]
    closed = await changed_rows(
        session,
        update(ServiceRequest)
        .where(ServiceRequest.id.in_(due), ServiceRequest.status.in_(LIVE_REQUEST))
        .values(status=RequestStatus.expired, closed_at=now)
        .execution_options(synchronize_session=False),
    )
    await session.execute(
        update(ServiceRequestOffer)
        .where(ServiceRequestOffer.request_id.in_(due), ServiceRequestOffer.status == OfferStatus.pending)
        .values(status=OfferStatus.expired, decided_at=now)
        .execution_options(synchronize_session=False)
    )
    for request_id in due:
        await announce(session, request_id)
    await events.publish_event(
        session,
        ServiceRequestsExpired(
            request_ids=tuple(due), patient_ids=tuple(patient_id for _, patient_id in rows), at=now
        ),
    )
    return closed
