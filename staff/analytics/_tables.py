"""The analytics tables: a period per row (newest first, paged at 100), and the two ranked lists read by
their own queries (providers by booked time, ZIP codes searched with no provider)."""

from __future__ import annotations

from reactpy import component, use_state
from reactpy.types import VdomDict

from app.services.analytics import list_provider_utilisation, list_unmet_demand
from components.hooks import use_query
from components.kit import Column, DataTable, QueryView
from models.analytics import AnalyticsRange, AnalyticsRead, PeriodRead, ProviderUseRead, UnmetZipRead
from staff.analytics._words import hours, percent, period_label

TABLE_ROWS = 100


def _period_column(report: AnalyticsRead) -> Column:
    return Column(
        "period", "Period", render=lambda r: period_label(r, report.range.granularity) + f", {r.period.year}"
    )


def _newest_first(report: AnalyticsRead) -> list[PeriodRead]:
    return list(reversed(report.rows))


@component
def PeriodTable(report: AnalyticsRead, columns: list[Column], caption: str) -> VdomDict:
    page, set_page = use_state(1)
    return DataTable(
        [_period_column(report), *columns],
        _newest_first(report),
        caption=caption,
        row_key=lambda r: r.period.isoformat(),
        page=page,
        page_size=TABLE_ROWS,
        on_page=set_page,
        empty="No periods in this range.",
        class_name="staff-table analytics-table",
    )


@component
def ProviderTable(dates: AnalyticsRange) -> VdomDict:
    query = use_query(list_provider_utilisation, dates=dates)

    def table(rows: list[ProviderUseRead]) -> VdomDict:
        return DataTable(
            [
                Column("name", "Provider"),
                Column("visits", "Visits", numeric=True),
                Column("booked_minutes", "Booked", render=lambda r: hours(r.booked_minutes), numeric=True),
                Column("offered_minutes", "Offered", render=lambda r: hours(r.offered_minutes), numeric=True),
                Column("utilisation", "Utilisation", render=lambda r: percent(r.utilisation), numeric=True),
            ],
            rows,
            caption="Listed providers with the most booked time in the range (at most 50)",
            row_key=lambda r: r.provider_id,
            page_size=TABLE_ROWS,
            empty="No listed provider offers hours or had visits in this range.",
        )

    return QueryView(
        query,
        table,
        empty="No listed provider offers hours or had visits in this range.",
        loading_label="Loading providers…",
    )


@component
def DemandTable(dates: AnalyticsRange) -> VdomDict:
    query = use_query(list_unmet_demand, dates=dates)

    def table(rows: list[UnmetZipRead]) -> VdomDict:
        return DataTable(
            [
                Column("zip_code", "ZIP code"),
                Column("searches", "Searches with no provider", numeric=True),
                Column("days", "Days searched", numeric=True),
            ],
            rows,
            caption="ZIP codes searched most often without finding a provider",
            row_key=lambda r: r.zip_code,
            page_size=TABLE_ROWS,
        )

    return QueryView(
        query,
        table,
        empty="No search found nobody in this range: every ZIP code searched had a provider.",
        loading_label="Loading ZIP codes…",
    )
