"""Analytics over HTTP (issue 15 part 2): `GET /api/analytics/export.csv?from=YYYY-MM-DD&to=YYYY-MM-DD
&by=day|week[&report=periods|providers|zip-codes]`.

The staff analytics screen links here (a websocket cannot hand over a file). The signed-in browser's
session cookie names the actor; the analytics services check view_analytics themselves. 401 not_signed_in,
403 without the permission, 422 for a bad range, granularity or report (the message says which). A GET
changes nothing, so it needs no CSRF token; the answer is never cached.
"""

from __future__ import annotations

import csv
import io

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from api.csv_files import csv_attachment, safe_cell
from api.deps import SessionDep, SignedInDep
from app.services.analytics import (
    get_analytics,
    list_provider_utilisation,
    list_unmet_demand,
    parse_range,
    require_analyst,
)
from app.services.errors import ServiceError, ValidationFailed
from models.analytics import AnalyticsRead, ProviderUseRead, UnmetZipRead

router = APIRouter(prefix="/api/analytics", tags=["analytics"])
NOT_SIGNED_IN = "Please sign in to download analytics."
REPORTS = ("periods", "providers", "zip-codes")
BAD_REPORT = "Choose the periods, providers or zip-codes report."
PERIOD_HEADER = (
    "period_start",
    "visits_booked",
    "visits_due",
    "completed",
    "cancelled",
    "completion_rate",
    "cancellation_rate",
    "patients",
    "new_patients",
    "returning_patients",
    "booked_hours",
    "offered_hours",
    "utilisation",
    "searches_with_no_provider",
    "tickets_opened",
    "first_responses",
    "first_responses_on_time",
    "resolved",
    "resolved_on_time",
)
PROVIDER_HEADER = ("provider_id", "provider", "visits", "booked_hours", "offered_hours", "utilisation")
ZIP_HEADER = ("zip_code", "searches_with_no_provider", "days_searched")


def _rate(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _hours(minutes: int) -> str:
    return f"{minutes / 60:.2f}"


def periods_csv(report: AnalyticsRead) -> str:
    """One line per period (ISO date of its first day), then the range's totals (patients counted once
    over the range); rates as fractions with four decimals, empty where nothing was due."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(PERIOD_HEADER)
    for label, r in [*((row.period.isoformat(), row) for row in report.rows), ("total", report.totals)]:
        writer.writerow(
            (
                label,
                r.booked,
                r.due,
                r.completed,
                r.cancelled,
                _rate(r.completion_rate),
                _rate(r.cancellation_rate),
                r.patients,
                r.new_patients,
                r.returning_patients,
                _hours(r.booked_minutes),
                _hours(r.offered_minutes),
                _rate(r.utilisation),
                r.unmet_searches,
                r.tickets,
                r.first_responses,
                r.first_responses_on_time,
                r.resolved,
                r.resolved_on_time,
            )
        )
    return out.getvalue()


def providers_csv(rows: list[ProviderUseRead]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(PROVIDER_HEADER)
    for r in rows:
        writer.writerow(
            (
                r.provider_id,
                safe_cell(r.name),
                r.visits,
                _hours(r.booked_minutes),
                _hours(r.offered_minutes),
                _rate(r.utilisation),
            )
        )
    return out.getvalue()


def zips_csv(rows: list[UnmetZipRead]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(ZIP_HEADER)
    for r in rows:
        writer.writerow((r.zip_code, r.searches, r.days))
    return out.getvalue()


@router.get(
    "/export.csv",
    response_model=None,
    responses={200: {"description": "Analytics as CSV", "content": {"text/csv": {}}}},
)
async def export_analytics(
    actor: SignedInDep,
    session: SessionDep,
    start: str | None = Query(None, alias="from", max_length=20),
    end: str | None = Query(None, alias="to", max_length=20),
    by: str = Query("day", max_length=10),
    report: str = Query("periods", max_length=20),
) -> Response:
    """Download the analytics of a range: every figure per period, or utilisation per provider, or the
    searches with no provider per ZIP code."""
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    try:
        await require_analyst(session=session, actor=actor)  # refused before any input is judged
        if report not in REPORTS:
            raise ValidationFailed(BAD_REPORT)
        dates = parse_range(start, end, by)
        stem = f"medivisit-analytics-{report}-{dates.start.isoformat()}-to-{dates.end.isoformat()}"
        if report == "providers":
            text = providers_csv(
                await list_provider_utilisation(session=session, actor=actor, dates=dates, limit=100)
            )
        elif report == "zip-codes":
            text = zips_csv(await list_unmet_demand(session=session, actor=actor, dates=dates, limit=100))
        else:
            text = periods_csv(await get_analytics(session=session, actor=actor, dates=dates))
            stem += f"-per-{dates.granularity}"
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return csv_attachment(text, f"{stem}.csv")
