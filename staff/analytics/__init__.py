"""Analytics (/staff/analytics, view_analytics; issue 15 part 2).

The range is in the URL (`?from=YYYY-MM-DD&to=YYYY-MM-DD&by=day|week`, quick picks for the last 7, 30 and
90 days; a bad range shows the service's message instead of figures) and so is the tab (`?view=`): visits,
patients, provider utilisation, unmet demand and the help desk, each a chart and a table from the kit, with
the range's figures as stat cards above them, a CSV download of each table (api/analytics.py) and a
"How these are counted" note. Every figure comes from app/services/analytics, which checks view_analytics
and aggregates in SQL.

The parts: `_urls` (the URL), `_range` (the range card), `_report` (stat cards and tabs), `_tables`,
`_words` (how figures are written) and `_counting` (the note).
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from components.kit import Region, button_link, staff_screen
from components.staff_frame import StaffFrame, StaffSection
from staff.analytics._counting import HowCounted
from staff.analytics._range import RangeCard
from staff.analytics._report import Report
from staff.analytics._urls import PATH, chosen_range, href, view_of
from staff.analytics._words import duration, first_response_text, percent, resolution_text

__all__ = [
    "AnalyticsPage",
    "chosen_range",
    "duration",
    "first_response_text",
    "href",
    "percent",
    "resolution_text",
    "view_of",
]


@component
def AnalyticsPage() -> Component:
    return StaffFrame(StaffSection(_Analytics, slug="analytics"), active="analytics")


@component
def _Analytics() -> VdomDict:
    params = use_search_params()
    dates, problem = chosen_range(params)
    view = view_of(params)
    return staff_screen(
        "Analytics",
        RangeCard(params, dates, view, key="|".join(f"{k}={v}" for k, v in sorted(params.items()))),
        Region(
            "This range cannot be shown",
            html.p({"class_name": "form-error"}, problem),
            button_link("Show the last 30 days", PATH, variant="outline"),
            title_id="analytics-problem",
            class_name="staff-card analytics-problem",
            head_class="staff-card-head",
            role="alert",
        )
        if dates is None
        else Report(dates, view),
        HowCounted(),
        lead="How the marketplace is used over the days you choose: visits, patients, provider time, "
        "searches that found no provider, and the help desk. Every figure is counted from the database.",
        body_class="analytics",
    )
