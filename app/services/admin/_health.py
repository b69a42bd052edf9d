"""The system's health as /admin/health shows it, measured when asked, by this server process:

- the database: a `SELECT 1` round trip (its latency), the kind, and the applied migration;
- mail: whether an SMTP server is configured, the messages stored but not delivered, and the messages
  sent and failed in the last 24 hours (with the newest failure's reason, redacted);
- the periodic jobs: each one's last run and outcome as the job runner recorded them (`job_runs`), and
  whether one is overdue (no run for over twice its interval plus a minute);
- unknown paths requested in the last 24 hours (the 404 counter).
"""

from __future__ import annotations

import time
from datetime import timedelta

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.admin._access import require_admin
from app.services.admin._outbox import redact
from app.settings import get_settings
from models.admin import HealthRead, JobRun, JobRunRead
from models.base import utcnow
from models.identity import as_utc
from models.mail import OutboxMessage, OutboxStatus
from models.not_found import NotFoundPath

DAY = timedelta(hours=24)
OVERDUE_MARGIN = timedelta(minutes=1)


async def _database(session: AsyncSession) -> tuple[bool, float | None, str]:
    started = time.perf_counter()
    try:
        await session.execute(text("SELECT 1"))
    except Exception:  # noqa: BLE001 - reported as unreachable
        return False, None, ""
    latency = round((time.perf_counter() - started) * 1000, 1)
    revision = await session.scalar(text("SELECT version_num FROM alembic_version")) or ""
    return True, latency, str(revision)


async def get_system_health(*, session: AsyncSession, actor: Principal) -> HealthRead:
    """Every check, now."""
    await require_admin(session=session, actor=actor)
    now = utcnow()
    since = now - DAY
    database_ok, latency, revision = await _database(session)
    counts = dict(
        (
            await session.execute(
                select(OutboxMessage.status, func.count())
                .where(OutboxMessage.created_at >= since)
                .group_by(OutboxMessage.status)
            )
        ).all()
    )
    queued = await session.scalar(
        select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == OutboxStatus.queued)
    )
    last_failure = await session.scalar(
        select(OutboxMessage.error)
        .where(OutboxMessage.status == OutboxStatus.failed, OutboxMessage.created_at >= since)
        .order_by(OutboxMessage.created_at.desc())
        .limit(1)
    )
    unknown = await session.scalar(
        select(func.count()).select_from(NotFoundPath).where(NotFoundPath.last_seen >= since)
    )
    jobs = []
    for row in await session.scalars(select(JobRun).order_by(JobRun.job)):
        last_run = as_utc(row.last_run_at)
        jobs.append(
            JobRunRead(
                job=row.job,
                every_seconds=row.every_seconds,
                last_run_at=last_run,
                last_ok=row.last_ok,
                last_count=row.last_count,
                last_success_at=as_utc(row.last_success_at),
                last_failure_at=as_utc(row.last_failure_at),
                last_error=redact(row.last_error or "")[:300],
                overdue=now - last_run > timedelta(seconds=2 * row.every_seconds) + OVERDUE_MARGIN,
            )
        )
    return HealthRead(
        checked_at=now,
        database_ok=database_ok,
        database_kind=session.get_bind().dialect.name,
        database_latency_ms=latency,
        database_revision=revision,
        smtp_configured=bool(get_settings().smtp_url),
        mail_queued=queued or 0,
        mail_failed_24h=counts.get(OutboxStatus.failed, 0),
        mail_sent_24h=counts.get(OutboxStatus.sent, 0),
        last_mail_failure=redact(last_failure or "")[:300],
        jobs=jobs,
        unknown_paths_24h=unknown or 0,
    )
