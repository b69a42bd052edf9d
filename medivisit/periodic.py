"""The server's periodic jobs: visit reminders, notification digests, overdue-ticket notices, account
deletions past their grace period, earnings past their dispute window, providers' good standing (expiry
reminders and lapses), nudges to idle enrollment drafts, the automation webhooks' due deliveries, service
requests past their time, ad view marks of past windows and, with the card gateway, card payments whose
Stripe webhook never came.

Each job is a service command run by the job runner (app/jobs.py: a unit of work of its own, the SYSTEM
actor, the runner's clock), now and every `every` seconds after, in every worker: the services claim each
row once, so several workers may run the same job. A failed run is logged and the next one tries again.
Each run's outcome is recorded (`job_runs`, by the admin domain's `record_job_run`, run the same way) for
/admin/health.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.jobs import Clock, run_command, system_clock
from app.services.accounts import delete_due_accounts
from app.services.admin import record_job_run
from app.services.ads.internal import close_finished_ad_flights, forget_old_ad_views
from app.services.appointments.internal import send_due_reminders
from app.services.automation.internal import deliver_due_webhooks
from app.services.enrollment.internal import keep_good_standing, nudge_idle_drafts
from app.services.ledger.internal import release_due_earnings
from app.services.notifications.internal import send_daily_digests
from app.services.payments.internal import reconcile_card_payments
from app.services.service_requests.internal import expire_due_requests
from app.services.support.internal import notify_overdue_tickets
from app.settings import Settings

logger = logging.getLogger("app.jobs")
MINUTE = 60
HOUR = 60 * MINUTE  # for rules counted in days


@dataclass(frozen=True)
class Job:
    done: str  # what a run did, with its count: "Sent %d visit reminder(s)"
    work: Callable[..., Awaitable[int]]  # a command for app.jobs.run_command
    enabled: Callable[[Settings], bool]
    every: float = MINUTE


async def _deliver_due_webhooks(*, session: Any, now: datetime) -> int:
    # Opens its own short units of work (a request may take 15 s; no transaction waits on it).
    del session
    return await deliver_due_webhooks(now=now)


async def _forget_old_ad_views(*, session: Any, now: datetime) -> int:
    return await forget_old_ad_views(session=session, now=now.timestamp())  # it counts in epoch seconds


JOBS = (
    Job("Sent %d visit reminder(s)", send_due_reminders, lambda settings: settings.reminders_enabled),
    Job("Sent %d daily digest(s)", send_daily_digests, lambda settings: settings.reminders_enabled),
    Job(
        "Announced %d overdue ticket(s)", notify_overdue_tickets, lambda settings: settings.reminders_enabled
    ),
    Job(
        "Deleted %d account(s)",
        delete_due_accounts,
        lambda settings: settings.account_purge_enabled,
        every=10 * MINUTE,
    ),
    Job(
        "Released %d visit earning(s)",
        release_due_earnings,
        lambda settings: settings.earnings_release_enabled,
    ),
    Job(
        "Good standing: %d change(s)",
        keep_good_standing,
        lambda settings: settings.reminders_enabled,
        every=HOUR,
    ),
    Job(
        "Made %d webhook delivery attempt(s)",
        _deliver_due_webhooks,
        lambda settings: settings.automation_delivery_enabled,
        every=5,
    ),
    Job(
        "Nudged %d idle enrollment draft(s)",
        nudge_idle_drafts,
        lambda settings: settings.reminders_enabled,
        every=HOUR,
    ),
    Job(
        "Reconciled %d card payment(s) with Stripe",
        reconcile_card_payments,
        lambda settings: settings.payment_gateway == "stripe",
        every=5 * MINUTE,
    ),
    Job("Expired %d service request(s)", expire_due_requests, lambda _settings: True),
    Job("Forgot %d ad view mark(s)", _forget_old_ad_views, lambda _settings: True, every=10 * MINUTE),
    Job(
        "Booked or closed the money of %d ad flight(s)",
        close_finished_ad_flights,
        lambda settings: settings.payment_gateway == "stripe",
        every=HOUR,
    ),
)


async def run_periodically(job: Job) -> None:
    while True:
        await run_once(job)
        await asyncio.sleep(job.every)


async def run_once(job: Job, *, clock: Clock = system_clock) -> None:
    """One run of `job` at `clock`'s time, then its outcome recorded; neither failure stops the next run."""
    count, error = 0, ""
    try:
        count = await run_command(job.work, clock=clock)
        if count:
            logger.info(job.done, count)
    except Exception as exc:
        logger.exception("Periodic job failed (%s)", job.done.replace("%d", "N"))
        error = f"{type(exc).__name__}: {exc}"
    try:
        await run_command(
            record_job_run,
            clock=clock,
            job=job.done.replace("%d", "N"),
            every_seconds=job.every,
            ok=not error,
            count=count or 0,
            error=error,
        )
    except Exception:
        logger.exception("Could not record the run of a periodic job (%s)", job.done.replace("%d", "N"))


def start_jobs(settings: Settings) -> list[asyncio.Task]:
    """Start the jobs `settings` turns on; `stop_jobs` ends them."""
    return [asyncio.create_task(run_periodically(job)) for job in JOBS if job.enabled(settings)]


async def stop_jobs(tasks: list[asyncio.Task]) -> None:
    for task in tasks:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
