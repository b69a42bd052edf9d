"""The analytics report: the range's figures as stat cards, and a tab per subject (visits, patients,
provider utilisation, unmet demand, help desk), each a kit chart, a table and its CSV link."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.analytics import get_analytics
from components.hooks import use_query
from components.kit import Chart, Column, QueryView, StatCard, TabPanel, Tabs, button_link, stat_group
from components.kit.chart import Kind as ChartKind
from models.analytics import AnalyticsRange, AnalyticsRead
from staff.analytics._tables import DemandTable, PeriodTable, ProviderTable
from staff.analytics._urls import EXPORT_PATH, VIEWS, href
from staff.analytics._words import first_response_text, hours, percent, resolution_text

CHART_LABELS = 10  # at most this many period names under a chart (the text alternative names them all)


@component
def Report(dates: AnalyticsRange, view: str) -> VdomDict:
    query = use_query(get_analytics, dates=dates)
    return QueryView(
        query,
        lambda report: _report_body(report, view),
        is_empty=lambda _r: False,
        loading_label="Counting…",
    )


def _report_body(report: AnalyticsRead, view: str) -> VdomDict:
    t = report.totals
    dates = report.range
    bodies: dict[str, Callable[[], Any]] = {
        "visits": lambda: _visits(report),
        "patients": lambda: _patients(report),
        "providers": lambda: _providers(report),
        "demand": lambda: _demand(report),
        "helpdesk": lambda: _helpdesk(report),
    }
    return html._(
        stat_group(
            StatCard("Visits booked", f"{t.booked:,}", hint=f"{t.due:,} due in the range", key="booked"),
            StatCard(
                "Completion rate",
                percent(t.completion_rate),
                hint=f"{t.completed:,} of {t.due:,} due visits" if t.due else "No visit was due",
                key="completion",
            ),
            StatCard(
                "Cancellation rate",
                percent(t.cancellation_rate),
                hint=f"{t.cancelled:,} of {t.due:,} due visits" if t.due else "No visit was due",
                key="cancellation",
            ),
            StatCard(
                "Patients seen",
                f"{t.patients:,}",
                hint=f"{t.new_patients:,} new, {t.returning_patients:,} returning",
                key="patients",
            ),
            StatCard(
                "Provider utilisation",
                percent(t.utilisation),
                hint=f"{hours(t.booked_minutes)} booked of {hours(t.offered_minutes)} offered",
                key="utilisation",
            ),
            StatCard(
                "Searches with no provider",
                f"{t.unmet_searches:,}",
                hint="Searches by ZIP code that found nobody",
                key="unmet",
            ),
            StatCard(
                "Tickets opened",
                f"{t.tickets:,}",
                hint=first_response_text(report),
                key="tickets",
            ),
            StatCard(
                "Resolved on time",
                percent(t.resolved_on_time_rate),
                hint=resolution_text(report),
                key="resolved",
            ),
            label="The range at a glance",
            class_name="analytics-stats",
        ),
        html.section(
            {"class_name": "staff-card analytics-detail", "aria-label": "Details"},
            Tabs(VIEWS, view, label="Figures", href=lambda key: href(dates, key), id="analytics-view"),
            TabPanel(view, bodies[view](), id="analytics-view"),
        ),
    )


def _chart(
    report: AnalyticsRead,
    title: str,
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    kind: ChartKind = "bar",
    y_title: str | None = None,
    whole_numbers: bool = True,
) -> VdomDict:
    labels = [f"{r.period:%b} {r.period.day}" for r in report.rows]
    return Chart(
        title,
        series,
        labels=labels,
        kind=kind,
        y_title=y_title,
        label_every=max(1, -(-len(labels) // CHART_LABELS)),
        whole_numbers=whole_numbers,
        class_name="analytics-chart",
    )


def _head(title: str, lead: str, csv_href: str, csv_label: str) -> VdomDict:
    return html.div(
        {"class_name": "analytics-head"},
        html.div(
            html.h2({"class_name": "analytics-title"}, title), html.p({"class_name": "staff-card-lead"}, lead)
        ),
        button_link(
            "Download CSV", csv_href, variant="outline", size="sm", download="", **{"aria-label": csv_label}
        ),
    )


def _visits(report: AnalyticsRead) -> VdomDict:
    rows = report.rows
    return html.div(
        {"class_name": "analytics-body"},
        _head(
            "Visits",
            "Booked in each period, and what became of the visits due in it.",
            href(report.range, path=EXPORT_PATH),
            "Download CSV, figures per period",
        ),
        _chart(
            report,
            "Visits due per period: completed, cancelled and still open",
            [
                ("Completed", [r.completed for r in rows]),
                ("Cancelled", [r.cancelled for r in rows]),
                ("Still open", [r.due - r.completed - r.cancelled for r in rows]),
            ],
            kind="stacked_bar",
            y_title="Visits",
        ),
        PeriodTable(
            report,
            [
                Column("booked", "Booked", numeric=True),
                Column("due", "Due", numeric=True),
                Column("completed", "Completed", numeric=True),
                Column(
                    "completion_rate",
                    "Completion rate",
                    render=lambda r: percent(r.completion_rate),
                    numeric=True,
                ),
                Column("cancelled", "Cancelled", numeric=True),
                Column(
                    "cancellation_rate",
                    "Cancellation rate",
                    render=lambda r: percent(r.cancellation_rate),
                    numeric=True,
                ),
            ],
            caption="Visits per period, newest first",
        ),
    )


def _patients(report: AnalyticsRead) -> VdomDict:
    rows = report.rows
    return html.div(
        {"class_name": "analytics-body"},
        _head(
            "Patients",
            "Patients with a completed visit; new means their first completed visit ever.",
            href(report.range, path=EXPORT_PATH),
            "Download CSV, figures per period",
        ),
        _chart(
            report,
            "Patients seen per period: new and returning",
            [("New", [r.new_patients for r in rows]), ("Returning", [r.returning_patients for r in rows])],
            kind="stacked_bar",
            y_title="Patients",
        ),
        PeriodTable(
            report,
            [
                Column("patients", "Patients seen", numeric=True),
                Column("new_patients", "New", numeric=True),
                Column(
                    "returning_patients",
                    "Returning",
                    render=lambda r: f"{r.returning_patients:,}",
                    numeric=True,
                ),
            ],
            caption="Patients per period, newest first",
        ),
    )


def _providers(report: AnalyticsRead) -> VdomDict:
    rows = report.rows
    return html.div(
        {"class_name": "analytics-body"},
        _head(
            "Provider utilisation",
            "Booked visit time against the weekly hours listed providers offer.",
            href(report.range, path=EXPORT_PATH, report="providers"),
            "Download CSV, utilisation per provider",
        ),
        _chart(
            report,
            "Provider utilisation per period",
            [
                (
                    "Utilisation",
                    [None if r.utilisation is None else round(r.utilisation * 100, 1) for r in rows],
                )
            ],
            kind="line",
            y_title="% of offered time booked",
            whole_numbers=False,
        ),
        ProviderTable(report.range),
    )


def _demand(report: AnalyticsRead) -> VdomDict:
    rows = report.rows
    return html.div(
        {"class_name": "analytics-body"},
        _head(
            "Unmet demand",
            "Searches by ZIP code that found no provider for what was asked.",
            href(report.range, path=EXPORT_PATH, report="zip-codes"),
            "Download CSV, searches with no provider per ZIP code",
        ),
        _chart(
            report,
            "Searches with no provider per period",
            [("Searches", [r.unmet_searches for r in rows])],
            y_title="Searches",
        ),
        DemandTable(report.range),
    )


def _helpdesk(report: AnalyticsRead) -> VdomDict:
    rows = report.rows
    return html.div(
        {"class_name": "analytics-body"},
        _head(
            "Help desk",
            f"Tickets opened per period and whether they met their due times. {first_response_text(report)}; "
            f"{resolution_text(report).lower()}.",
            href(report.range, path=EXPORT_PATH),
            "Download CSV, figures per period",
        ),
        _chart(
            report,
            "Tickets per period: opened, answered on time and resolved on time",
            [
                ("Opened", [r.tickets for r in rows]),
                ("Answered on time", [r.first_responses_on_time for r in rows]),
                ("Resolved on time", [r.resolved_on_time for r in rows]),
            ],
            y_title="Tickets",
        ),
        PeriodTable(
            report,
            [
                Column("tickets", "Opened", numeric=True),
                Column("first_responses", "Answered", numeric=True),
                Column(
                    "first_response_on_time_rate",
                    "Answered on time",
                    render=lambda r: percent(r.first_response_on_time_rate),
                    numeric=True,
                ),
                Column("resolved", "Resolved", numeric=True),
                Column(
                    "resolved_on_time_rate",
                    "Resolved on time",
                    render=lambda r: percent(r.resolved_on_time_rate),
                    numeric=True,
                ),
            ],
            caption="Help-desk tickets per period, newest first",
        ),
    )
