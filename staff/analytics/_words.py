"""How the analytics screen writes its figures: rates, hours, median times, periods and the range."""

from __future__ import annotations

from components.format import format_date
from models.analytics import AnalyticsRange, AnalyticsRead, PeriodRead


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def hours(minutes: int) -> str:
    return f"{minutes / 60:,.1f} h"


def duration(minutes: float | None) -> str:
    """A median time: '45 min', '3.5 h', '2.1 days'; '—' without tickets."""
    if minutes is None:
        return "—"
    if minutes < 90:
        return f"{minutes:.0f} min"
    if minutes < 48 * 60:
        return f"{minutes / 60:.1f} h"
    return f"{minutes / 1440:.1f} days"


def first_response_text(report: AnalyticsRead) -> str:
    if report.median_first_response_minutes is None:
        return "No ticket answered yet"
    return f"Median first response {duration(report.median_first_response_minutes)}"


def resolution_text(report: AnalyticsRead) -> str:
    t = report.totals
    if not t.resolved:
        return "None resolved yet"
    return (
        f"{t.resolved_on_time:,} of {t.resolved:,} resolved on time; median resolution "
        f"{duration(report.median_resolution_minutes)}"
    )


def period_label(row: PeriodRead, granularity: str) -> str:
    return ("Week of " if granularity == "week" else "") + f"{row.period:%b} {row.period.day}"


def range_text(dates: AnalyticsRange) -> str:
    return f"{format_date(dates.start)} – {format_date(dates.end)} ({dates.days} days, UTC)"
