"""The analytics overview: every period of the range with all its figures, the whole range's totals and the
help desk's medians — a few GROUP BY queries, merged per period (at most 366 periods)."""

from __future__ import annotations

from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.analytics._demand import unmet_by_period
from app.services.analytics._helpdesk import median_minutes, ticket_counts
from app.services.analytics._rules import check_range, require_analyst
from app.services.analytics._sql import periods
from app.services.analytics._utilisation import utilisation_by_period
from app.services.analytics._visits import patient_counts, visit_counts
from models.analytics import AnalyticsRange, AnalyticsRead, PeriodRead

SUMMED = (
    "booked",
    "due",
    "completed",
    "cancelled",
    "booked_minutes",
    "offered_minutes",
    "unmet_searches",
    "tickets",
    "first_responses",
    "first_responses_on_time",
    "resolved",
    "resolved_on_time",
)


async def get_analytics(*, session: AsyncSession, actor: Principal, dates: AnalyticsRange) -> AnalyticsRead:
    """Staff (view_analytics): bookings, completion and cancellation, patients (new and returning),
    utilisation, unmet search demand and help-desk figures per day or week of `dates`, oldest first."""
    await require_analyst(session=session, actor=actor)
    chosen = check_range(dates)
    figures: dict[date, dict[str, int]] = {start: {} for start in periods(chosen)}
    patients, whole_range = await patient_counts(session, chosen)
    for part in (
        await visit_counts(session, chosen),
        patients,
        await utilisation_by_period(session, chosen),
        await ticket_counts(session, chosen),
    ):
        for start, values in part.items():
            figures.setdefault(start, {}).update(values)
    for start, searches in (await unmet_by_period(session, chosen)).items():
        figures.setdefault(start, {})["unmet_searches"] = searches
    rows = [PeriodRead(period=start, **values) for start, values in sorted(figures.items())]
    totals = PeriodRead(
        period=chosen.start,
        **{name: sum(getattr(r, name) for r in rows) for name in SUMMED},
        **whole_range,
    )
    return AnalyticsRead(
        range=chosen,
        rows=rows,
        totals=totals,
        median_first_response_minutes=await median_minutes(
            session, chosen, until_column="first_responded_at"
        ),
        median_resolution_minutes=await median_minutes(session, chosen, until_column="closed_at"),
    )
