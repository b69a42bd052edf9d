"""System health (/admin/health): measured when the page loads (and on 'Check again'), never estimated —
the database round trip and its migration, mail delivered and failed in the last 24 hours and what waits
undelivered, the unknown paths of the last 24 hours, and each periodic job's last run and outcome as the job
runner recorded it (`job_runs`)."""

from __future__ import annotations

from collections.abc import Callable

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.admin import get_system_health
from components.admin_frame import admin_frame, moment_text
from components.context import use_session
from components.hooks import use_query
from components.kit import Badge, Button, Column, DataTable, QueryView, StaffCard, StatCard
from models.admin import HealthRead, JobRunRead

KINDS = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}


def every_text(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes >= 60 and minutes % 60 == 0:
        hours = minutes // 60
        return "Every hour" if hours == 1 else f"Every {hours} hours"
    return "Every minute" if minutes <= 1 else f"Every {minutes} minutes"


@component
def AdminHealthPage() -> VdomDict:
    session = use_session()
    health = use_query(get_system_health)
    return admin_frame(
        QueryView(
            health,
            lambda data: _report(data, session.time_zone, health.refetch, health.loading),
            is_empty=lambda d: d is None,
            loading_label="Checking the system…",
        ),
        active="health",
        title="System health",
        lead="Checked by this server when you open the page.",
    )


def _report(data: HealthRead, tz: str, again: Callable[[], None], busy: bool) -> VdomDict:
    database = (
        StatCard(
            "Database",
            f"{data.database_latency_ms:.1f} ms",
            hint=f"Reachable · {KINDS.get(data.database_kind, data.database_kind)} · migration "
            f"{data.database_revision or 'unknown'}",
            icon="zap",
        )
        if data.database_ok
        else StatCard("Database", "Unreachable", hint="The round trip failed.", icon="alert")
    )
    mail_hint = (
        f"{data.mail_failed_24h} failed in 24 h"
        + (f" · last: {data.last_mail_failure}" if data.last_mail_failure else "")
        if data.smtp_configured
        else "No SMTP server configured: messages are stored only"
    )
    return html.div(
        {"class_name": "admin-health"},
        html.div(
            {"class_name": "admin-health-head"},
            html.p(
                {"class_name": "admin-checked", "role": "status"},
                f"Checked {moment_text(data.checked_at, tz)}",
            ),
            Button("Check again", variant="outline", size="sm", pending=busy, on_click=again),
        ),
        html.div(
            {"class_name": "staff-stats admin-stats"},
            database,
            StatCard("Mail sent (24 h)", f"{data.mail_sent_24h:,}", hint=mail_hint, icon="mail", trend=None),
            StatCard(
                "Mail not delivered",
                f"{data.mail_queued:,}",
                hint="Stored while no SMTP server was configured",
                icon="clock",
            ),
            StatCard(
                "Unknown paths (24 h)",
                f"{data.unknown_paths_24h:,}",
                hint="Paths asked for in 24 h",
                icon="flag",
            ),
        ),
        StaffCard(
            "Background jobs",
            html.p(
                {"class_name": "staff-card-lead"},
                "Each periodic job's last run, recorded by the server that ran it. A job appears after its "
                "first run; jobs switched off in the server's settings never run and are not listed.",
            ),
            DataTable(
                _job_columns(tz),
                data.jobs,
                caption="Background jobs",
                page_size=50,
                row_key=lambda j: j.job,
                empty="No job has run yet.",
                class_name="staff-table admin-jobs-table",
            ),
            title_id="jobs-title",
        ),
    )


def _outcome(job: JobRunRead) -> VdomDict:
    badges = [Badge("OK", tone="success") if job.last_ok else Badge("Failed", tone="danger")]
    if job.overdue:
        badges.append(Badge("Overdue", tone="warning"))
    return html.div(
        {"class_name": "admin-status-cell"},
        html.span({"class_name": "admin-badges"}, *badges),
        html.span({"class_name": "admin-error"}, job.last_error)
        if not job.last_ok and job.last_error
        else "",
    )


def _job_columns(tz: str) -> tuple[Column, ...]:
    return (
        Column("job", "Job", render=lambda j: j.job),
        Column("every", "Schedule", render=lambda j: every_text(j.every_seconds)),
        Column("last", "Last run", render=lambda j: moment_text(j.last_run_at, tz)),
        Column("outcome", "Outcome", render=_outcome),
        Column("failure", "Last failure", render=lambda j: moment_text(j.last_failure_at, tz, none="None")),
    )
