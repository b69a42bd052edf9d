"""The delivery log for owners and admins: deliveries newest first, a page at a time (filtered by
status), one delivery's payload and attempts, and Redeliver (queued again for the delivery job, never sent
inside the request; tried once, with the current secret, and audited)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.automation._access import integration_row, require_administrator
from app.services.automation._delivery import AUTOMATION_TOPIC
from app.services.errors import NotFound, ValidationFailed
from models.audit import AuditAction
from models.automation import (
    AttemptRead,
    AutomationAttempt,
    AutomationDelivery,
    DeliveryDetailRead,
    DeliveryPageRead,
    DeliveryRead,
    DeliveryStatus,
)
from models.identity import as_utc

PAGE_SIZE = 20
MAX_PAGE = 10_000
NO_DELIVERY = "No delivery has this id."
NOT_CONNECTED = "Connect n8n first: test the connection, then redeliver."
ALREADY_QUEUED = "This delivery is already waiting to be sent."
BAD_STATUS = "Unknown delivery status."


def delivery_read(row: AutomationDelivery) -> DeliveryRead:
    return DeliveryRead(
        id=row.id,
        message_id=row.message_id,
        event_type=row.event_type,
        status=row.status,
        attempts=row.attempts,
        next_attempt_at=as_utc(row.next_attempt_at),
        last_status_code=row.last_status_code,
        created_at=as_utc(row.created_at),
        finished_at=as_utc(row.finished_at),
    )


async def list_deliveries(
    *, session: AsyncSession, actor: Principal, page: int = 1, status: str = ""
) -> DeliveryPageRead:
    await require_administrator(session=session, actor=actor)
    page = min(max(int(page), 1), MAX_PAGE)
    condition = []
    if status:
        if status not in DeliveryStatus.__members__:
            raise ValidationFailed(BAD_STATUS)
        condition.append(AutomationDelivery.status == DeliveryStatus(status))
    total = await session.scalar(select(func.count()).select_from(AutomationDelivery).where(*condition)) or 0
    rows = (
        await session.execute(
            select(AutomationDelivery)
            .where(*condition)
            .order_by(AutomationDelivery.created_at.desc(), AutomationDelivery.id.desc())
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE)
        )
    ).scalars()
    pages = max(1, -(-total // PAGE_SIZE))
    return DeliveryPageRead(items=[delivery_read(r) for r in rows], page=page, pages=pages, total=total)


async def get_delivery(*, session: AsyncSession, actor: Principal, delivery_id: str) -> DeliveryDetailRead:
    await require_administrator(session=session, actor=actor)
    row = await session.get(AutomationDelivery, (delivery_id or "")[:36])
    if row is None:
        raise NotFound(NO_DELIVERY)
    attempts = (
        await session.execute(
            select(AutomationAttempt)
            .where(AutomationAttempt.delivery_id == row.id)
            .order_by(AutomationAttempt.number.desc(), AutomationAttempt.attempted_at.desc())
        )
    ).scalars()
    return DeliveryDetailRead(
        delivery=delivery_read(row),
        payload=json.loads(row.body),
        attempts=[
            AttemptRead.model_validate(a).model_copy(update={"attempted_at": as_utc(a.attempted_at)})
            for a in attempts
        ],
    )


async def redeliver(
    *, session: AsyncSession, actor: Principal, delivery_id: str, now: datetime | None = None
) -> DeliveryRead:
    """Queue the delivery again, same webhook-id and body (receivers deduplicate on the id)."""
    account = await require_administrator(session=session, actor=actor)
    integration = await integration_row(session)
    if integration is None or not integration.connected:
        raise ValidationFailed(NOT_CONNECTED)
    row = await session.get(AutomationDelivery, (delivery_id or "")[:36])
    if row is None:
        raise NotFound(NO_DELIVERY)
    if row.status == DeliveryStatus.pending:
        raise ValidationFailed(ALREADY_QUEUED)
    now = now or datetime.now(UTC)
    row.status, row.next_attempt_at, row.claimed_until = DeliveryStatus.pending, now, None
    row.manual, row.finished_at = True, None
    await events.publish_on_commit(session, AUTOMATION_TOPIC, {"delivery_id": row.id})
    details = {"event_type": row.event_type}
    if account is not None:
        await audit.record_by(
            session=session,
            account=account,
            actor=actor,
            action=AuditAction.automation_redeliver,
            target=row.message_id,
            details=details,
        )
    return delivery_read(row)
