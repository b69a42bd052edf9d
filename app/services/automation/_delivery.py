"""The delivery job (medivisit/periodic.py, every AUTOMATION_POLL_SECONDS): sends the outbox's due events,
records each attempt, and schedules the next on Standard Webhooks' example schedule: at once, then 5 s,
5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after each failure (ten attempts over about three
days), after which the event is marked failed (Redeliver sends it again). A 410 Gone answer disconnects
the integration (SPEC §4: connected again only by a passing test) and fails what was still queued.

It runs its own short units of work (claim, then record each result) and makes each request between them:
a request may take up to 15 s, and no transaction stays open meanwhile. A claimed row is leased to one
worker (`claimed_until`), so several workers never send the same attempt twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.db import changed_rows
from app.jobs import run_command
from app.services.automation._access import integration_row
from app.services.automation._transport import Outcome, Target, send
from models.audit import AuditAction
from models.automation import (
    AttemptTrigger,
    AutomationAttempt,
    AutomationDelivery,
    AutomationIntegration,
    DeliveryStatus,
)
from models.identity import as_utc

RETRY_DELAYS = (
    timedelta(seconds=5),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=5),
    timedelta(hours=10),
    timedelta(hours=14),
    timedelta(hours=20),
    timedelta(hours=24),
)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
LEASE = timedelta(seconds=120)
BATCH = 25
GONE = "n8n answered 410 Gone: the webhook was removed. Test the connection again to resume sending."
AUTOMATION_TOPIC = "automation"  # open Automation screens reload their log when a delivery changes


@dataclass(frozen=True)
class _Claimed:
    id: str
    message_id: str
    body: str
    attempts: int
    manual: bool


def rotating(row: AutomationIntegration, now: datetime) -> bool:
    until = as_utc(row.previous_secret_until)
    return until is not None and until > now


async def _claim(session: AsyncSession, now: datetime, limit: int) -> list[_Claimed]:
    due = (
        await session.execute(
            select(AutomationDelivery)
            .where(
                AutomationDelivery.status == DeliveryStatus.pending,
                AutomationDelivery.next_attempt_at <= now,
                or_(AutomationDelivery.claimed_until.is_(None), AutomationDelivery.claimed_until <= now),
            )
            .order_by(AutomationDelivery.next_attempt_at, AutomationDelivery.created_at)
            .limit(limit)
        )
    ).scalars()
    claimed: list[_Claimed] = []
    for row in list(due):
        taken = await changed_rows(
            session,
            update(AutomationDelivery)
            .where(
                AutomationDelivery.id == row.id,
                AutomationDelivery.status == DeliveryStatus.pending,
                or_(AutomationDelivery.claimed_until.is_(None), AutomationDelivery.claimed_until <= now),
            )
            .values(claimed_until=now + LEASE)
            .execution_options(synchronize_session=False),
        )
        if taken == 1:
            claimed.append(_Claimed(row.id, row.message_id, row.body, row.attempts, row.manual))
    return claimed


async def fail_pending(session: AsyncSession, now: datetime) -> None:
    """Everything still queued is failed (the integration was disconnected or gone)."""
    await session.execute(
        update(AutomationDelivery)
        .where(AutomationDelivery.status == DeliveryStatus.pending)
        .values(status=DeliveryStatus.failed, finished_at=now, claimed_until=None, next_attempt_at=None)
        .execution_options(synchronize_session=False)
    )


def attempt_row(
    *, delivery_id: str, number: int, trigger: AttemptTrigger, url: str, outcome: Outcome, at: datetime
) -> AutomationAttempt:
    return AutomationAttempt(
        delivery_id=delivery_id,
        number=number,
        trigger=trigger,
        url=url,
        status_code=outcome.status_code,
        ok=outcome.ok,
        simulated=outcome.simulated,
        error=outcome.error[:200],
        response_excerpt=outcome.excerpt,
        duration_ms=outcome.duration_ms,
        attempted_at=at,
    )


async def _record_outcome(
    *, session: AsyncSession, claimed: _Claimed, url: str, outcome: Outcome, now: datetime
) -> None:
    """One attempt's outcome: the attempt row, the delivery's state and, on 410 Gone, the integration off."""
    row = await session.get(AutomationDelivery, claimed.id)
    if row is None:
        return
    number = claimed.attempts + 1
    trigger = AttemptTrigger.redeliver if claimed.manual else AttemptTrigger.scheduled
    session.add(
        attempt_row(delivery_id=row.id, number=number, trigger=trigger, url=url, outcome=outcome, at=now)
    )
    row.attempts, row.claimed_until, row.manual = number, None, False
    row.last_status_code = outcome.status_code
    if outcome.ok:
        row.status = DeliveryStatus.simulated if outcome.simulated else DeliveryStatus.delivered
        row.next_attempt_at, row.finished_at = None, now
    elif outcome.gone or claimed.manual or number >= MAX_ATTEMPTS:
        row.status, row.next_attempt_at, row.finished_at = DeliveryStatus.failed, None, now
    else:
        row.next_attempt_at = now + RETRY_DELAYS[number - 1]
    await events.publish_on_commit(session, AUTOMATION_TOPIC, {"delivery_id": row.id})
    if outcome.gone:
        integration = await integration_row(session)
        if integration is not None and integration.connected:
            integration.connected, integration.disabled_reason = False, GONE[:200]
            integration.updated_at = now
            await audit.record(
                session=session,
                actor_id=None,
                actor_email="",
                action=AuditAction.automation_disabled,
                target="automation",
                ip=None,
                user_agent=None,
                details={"reason": "410 Gone", "message_id": claimed.message_id},
            )
            await events.publish_on_commit(session, AUTOMATION_TOPIC, {"connected": False})
        await session.flush()
        await fail_pending(session, now)


async def _claim_due(
    *, session: AsyncSession, now: datetime, limit: int
) -> tuple[Target, list[_Claimed]] | None:
    """Where to send and what is due now (claimed), or None while automation is not connected."""
    integration = await integration_row(session)
    if integration is None or not integration.connected:
        return None
    return Target.of(integration, rotating=rotating(integration, now)), await _claim(session, now, limit)


async def deliver_due_webhooks(*, now: datetime | None = None, limit: int = BATCH) -> int:
    """Send the events that are due; the number of attempts made (or simulated)."""
    now = now or datetime.now(UTC)
    due = await run_command(_claim_due, now=now, limit=limit)
    if due is None:
        return 0
    target, claimed = due
    made = 0
    for item in claimed:  # each request outside any transaction (up to 15 s), each outcome in one of its own
        outcome = await send(target, message_id=item.message_id, body=item.body)
        await run_command(_record_outcome, claimed=item, url=target.url, outcome=outcome, now=now)
        made += 1
        if outcome.gone:
            break
    return made
