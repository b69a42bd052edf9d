"""The record of the periodic jobs' runs (medivisit/periodic.py): after each run, whichever worker ran it
writes the job's last run, its outcome and its interval to `job_runs` (one row per job, an upsert, safe when
several workers run the same job), which /admin/health reads. Called with SYSTEM by the job runner only."""

from __future__ import annotations

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied
from models.admin import JobRun
from models.base import utcnow

MAX_JOB = 120
MAX_ERROR = 500


async def record_job_run(
    *,
    session: AsyncSession,
    actor: Principal,
    job: str,
    every_seconds: float,
    ok: bool,
    count: int = 0,
    error: str = "",
) -> None:
    """Store one run of `job` (its description) and how it ended; only the system records runs."""
    if not actor.is_system:
        raise PermissionDenied("Only the server's job runner records job runs.")
    now = utcnow()
    changes: dict[str, object] = {"every_seconds": float(every_seconds), "last_run_at": now, "last_ok": ok}
    if ok:
        changes |= {"last_count": int(count), "last_success_at": now}
    else:  # the error stays beside last_failure_at until the next failure
        changes |= {"last_error": error[:MAX_ERROR] or "Failed", "last_failure_at": now}
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else pg_insert
    statement = insert(JobRun).values({"job": job[:MAX_JOB], "last_count": 0, "last_error": "", **changes})
    await session.execute(statement.on_conflict_do_update(index_elements=[JobRun.job], set_=changes))
