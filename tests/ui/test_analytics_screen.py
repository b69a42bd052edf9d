"""The analytics screen's pieces without a browser (staff/analytics.py): the range read from the URL and
its refusal, the links that keep it, how figures are written, and the kit chart's options it uses (whole
ticks for counts, every n-th period named, the text alternative naming them all)."""

from __future__ import annotations

import base64
import re
from datetime import date

from components.kit import Chart
from components.kit.chart import _whole_ticks
from models.analytics import AnalyticsRange, AnalyticsRead, PeriodRead
from staff.analytics import (
    chosen_range,
    duration,
    first_response_text,
    href,
    percent,
    resolution_text,
    view_of,
)
from tests.ui.harness import attrs, find, find_all


def _svg(chart) -> str:  # noqa: ANN001
    src = attrs(find_all(chart, "img")[0])["src"]
    return base64.b64decode(src.split(",", 1)[1]).decode()


def test_the_range_comes_from_the_url_and_a_bad_one_says_why() -> None:
    dates, problem = chosen_range({"from": ["2026-03-01"], "to": ["2026-03-31"], "by": ["week"]})
    assert dates == AnalyticsRange(start=date(2026, 3, 1), end=date(2026, 3, 31), granularity="week")
    assert problem == ""
    assert chosen_range({"from": ["2026-03-31"], "to": ["2026-03-01"]}) == (
        None,
        "The end date must be on or after the start date.",
    )
    assert chosen_range({"by": ["month"]})[1] == "Choose per day or per week."
    default, _ = chosen_range({})
    assert default is not None and default.days == 30
    assert view_of({"view": ["demand"]}) == "demand" and view_of({"view": ["<x>"]}) == "visits"
    assert href(dates, "patients") == "/staff/analytics?from=2026-03-01&to=2026-03-31&by=week&view=patients"
    assert href(dates, path="/api/analytics/export.csv", report="providers") == (
        "/api/analytics/export.csv?from=2026-03-01&to=2026-03-31&by=week&report=providers"
    )


def test_figures_are_written_plainly() -> None:
    assert (percent(None), percent(0.8547)) == ("—", "85.5%")
    assert [duration(m) for m in (None, 45, 210, 4320)] == ["—", "45 min", "3.5 h", "3.0 days"]
    dates = AnalyticsRange(start=date(2026, 3, 1), end=date(2026, 3, 1))
    quiet = AnalyticsRead(range=dates, rows=[], totals=PeriodRead(period=dates.start, tickets=2))
    assert (first_response_text(quiet), resolution_text(quiet)) == (
        "No ticket answered yet",
        "None resolved yet",
    )
    busy = AnalyticsRead(
        range=dates,
        rows=[],
        totals=PeriodRead(period=dates.start, tickets=9, resolved=4, resolved_on_time=3),
        median_first_response_minutes=30,
        median_resolution_minutes=1500,
    )
    assert first_response_text(busy) == "Median first response 30 min"
    assert resolution_text(busy) == "3 of 4 resolved on time; median resolution 25.0 h"


def test_counts_get_whole_ticks_and_long_runs_name_every_nth_period() -> None:
    assert _whole_ticks("bar", (("Searches", (0, 1, 0)),)) == [0, 1]
    assert _whole_ticks("stacked_bar", (("A", (2, 3)), ("B", (4, 9)))) == [0, 3, 6, 9, 12]
    labels = [f"Day {n}" for n in range(30)]
    chart = Chart("Visits per day", [("Visits", [1] * 30)], labels=labels, label_every=3, whole_numbers=True)
    svg = _svg(chart)
    named = re.findall(r"<text[^>]*>(Day \d+)</text>", svg)
    assert named == [f"Day {n}" for n in range(0, 30, 3)]  # only every third named under the axis
    assert not re.search(r"<text[^>]*>0\.\d</text>", svg)  # no fractional ticks
    assert "Day 4 1" in attrs(find(chart, role="img"))["aria-label"]  # the text alternative has them all
