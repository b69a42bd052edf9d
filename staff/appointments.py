"""Appointments (/staff/appointments, view_appointments; issue 15): every visit of a day or a week as an agenda
grouped by day and time, in the member's own time zone (the page says which), filtered by provider, service
line, metro (the visit's city and state) and status. The day, the view, the filters and the page live in the
URL (?date=YYYY-MM-DD&view=day|week&provider=&line=&metro=&status=&page=) so a view can be shared and
reloaded. A provider chosen in the filter shows their schedule too (view_booking_schedules). Details open in
a dialog (staff/visit_dialog.py), with the actions manage_appointments allows.

app.services.appointments checks every permission; this screen only leaves out what a member cannot use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import groupby
from zoneinfo import ZoneInfo

from reactpy import component, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.appointments import (
    STAFF_TOPIC,
    get_provider_schedule,
    get_staff_visit_filters,
    list_staff_visits,
    shown_days,
)
from app.services.validation import day_in_url
from components.context import use_session
from components.format import format_date, format_time
from components.forms import use_form
from components.hooks import use_query, use_topic
from components.kit import (
    Button,
    Field,
    ListQuery,
    QueryView,
    Region,
    Select,
    StatusTabs,
    UserText,
    button_link,
    choice_param,
    facts,
    filter_form,
    page_param,
    staff_empty,
    staff_list,
    staff_row,
    staff_screen,
    text_param,
)
from components.kit.list_screen import MorePages
from components.staff_frame import StaffFrame, StaffSection, use_staff_permissions
from models.booking import AppointmentStatus
from models.staff import Permission
from models.staff_visits import (
    PAGE_SIZE,
    ProviderScheduleRead,
    StaffVisitPage,
    StaffVisitQuery,
    StaffVisitRow,
)
from staff.visit_dialog import VisitDialog, status_badge

PATH = "/staff/appointments"
VIEWS = (("day", "Day"), ("week", "Week"))
STATUSES = [s for s in AppointmentStatus if s is not AppointmentStatus.held]
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Filters:
    """The view as the URL carries it (unknown or malformed values dropped)."""

    day: date
    view: str = "day"
    provider: str = ""
    line: str = ""
    metro: str = ""
    status: str = ""
    page: int = 1

    @classmethod
    def from_params(cls, params: dict[str, list[str]], today: date) -> Filters:
        def first(name: str, limit: int) -> str:
            return text_param(params, name, limit=limit, squash=True)

        day = day_in_url(first("date", 10))[0] or today  # out of range too: its week would overflow
        return cls(
            day=day,
            view=choice_param(params, "view", dict(VIEWS), default="day"),
            provider=first("provider", 36),
            line=first("line", 64),
            metro=first("metro", 110),
            status=choice_param(params, "status", {s.value for s in STATUSES}),
            page=page_param(params),
        )

    def url(self) -> ListQuery:
        """This view's address: the day and the view always, the filters when set, page 1."""
        return ListQuery(
            PATH,
            {
                "date": self.day.isoformat(),
                "view": self.view,
                "provider": self.provider,
                "line": self.line,
                "metro": self.metro,
                "status": self.status,
            },
        )

    def query(self, time_zone: str) -> StaffVisitQuery:
        return StaffVisitQuery(
            day=self.day,
            view=self.view,
            time_zone=time_zone,
            provider_id=self.provider or None,
            service_line=self.line or None,
            metro=self.metro or None,
            status=AppointmentStatus(self.status) if self.status else None,
            page=self.page,
        )

    def href(self, *, day: date | None = None, view: str | None = None, page: int = 1) -> str:
        """This view's URL on another `day` or `view`, at `page` (1 unless given)."""
        return self.url().href(date=(day or self.day).isoformat(), view=view or self.view, page=page)


def today_in(time_zone: str) -> date:
    return datetime.now(UTC).astimezone(ZoneInfo(time_zone)).date()


def period_title(starts: date, ends: date) -> str:
    if starts == ends:
        return f"{WEEKDAYS[starts.weekday()]}, {format_date(starts)}"
    return f"Week of {format_date(starts)} – {format_date(ends)}"


@component
def AppointmentsPage() -> Component:
    return StaffFrame(StaffSection(_Appointments, slug="appointments"), active="appointments")


@component
def _Appointments() -> VdomDict:
    session = use_session()
    params = use_search_params()
    time_zone = session.time_zone
    filters = Filters.from_params(params, today_in(time_zone))
    permissions = use_staff_permissions()
    return staff_screen(
        "Appointments",
        _FilterForm(filters, key=filters.href()),
        _Agenda(filters, time_zone, key=f"{filters.href(page=filters.page)}|{time_zone}"),
        _Schedule(filters, time_zone, key=f"schedule-{filters.provider}-{filters.day}-{filters.view}")
        if filters.provider and Permission.view_booking_schedules in permissions
        else "",
        lead="Every visit by day or week. Open one for its details"
        + (
            ", to confirm, reassign, reschedule or cancel it."
            if Permission.manage_appointments in permissions
            else "."
        ),
        body_class="staff-visits",
    )


@component
def _FilterForm(filters: Filters) -> VdomDict:
    choices = use_query(get_staff_visit_filters)
    form = use_form(
        date=filters.day.isoformat(),
        view=filters.view,
        provider=filters.provider,
        line=filters.line,
        metro=filters.metro,
        status=filters.status,
    )
    data = choices.data
    providers = [(o.value, o.label) for o in data.providers] if data else []
    lines = [(o.value, o.label) for o in data.service_lines] if data else []
    metros = [(o.value, o.label) for o in data.metros] if data else []
    # A value the URL names keeps its option while the choices load (and if it is no longer offered).
    for chosen, options in ((filters.provider, providers), (filters.line, lines), (filters.metro, metros)):
        if chosen and chosen not in {value for value, _label in options}:
            options.insert(0, (chosen, chosen if options is metros else "Selected"))
    return filter_form(
        Field(
            "Date", "date", form=form, id="visits-date", type="date", max_length=10, class_name="team-field"
        ),
        Select("View", "view", form=form, id="visits-view", options=list(VIEWS), class_name="team-field"),
        Select(
            "Provider",
            "provider",
            form=form,
            id="visits-provider",
            placeholder="Any provider",
            options=providers,
            class_name="team-field",
            key=f"provider-{len(providers)}",
        ),
        Select(
            "Service line",
            "line",
            form=form,
            id="visits-line",
            placeholder="Any service line",
            options=lines,
            class_name="team-field",
            key=f"line-{len(lines)}",
        ),
        Select(
            "Metro",
            "metro",
            form=form,
            id="visits-metro",
            placeholder="Any metro",
            options=metros,
            class_name="team-field",
            key=f"metro-{len(metros)}",
        ),
        Select(
            "Status",
            "status",
            form=form,
            id="visits-status",
            placeholder="Any status",
            options=[(s.value, s.label) for s in STATUSES],
            class_name="team-field",
        ),
        action=PATH,
        label="Choose the visits shown",
        class_name="form audit-filters visit-filters",
        submit="Show visits",
        clear_href=Filters(day=filters.day, view=filters.view).href(),
        clear_label="Clear filters",
    )


@component
def _Agenda(filters: Filters, time_zone: str) -> VdomDict:
    query = use_query(list_staff_visits, query=filters.query(time_zone))
    use_topic(STAFF_TOPIC, refetch=[query])
    open_id, set_open_id = use_state("")
    first, last = shown_days(filters.day, filters.view)
    step = timedelta(days=7 if filters.view == "week" else 1)
    unit = "week" if filters.view == "week" else "day"
    today = today_in(time_zone)
    return html.section(
        {"class_name": "staff-card visit-agenda", "aria-labelledby": "visits-title"},
        html.div(
            {"class_name": "staff-card-head visit-agenda-head"},
            html.div(
                html.h2({"id": "visits-title"}, period_title(first, last)),
                html.p(
                    {"class_name": "visit-zone"}, f"Times in your time zone, {time_zone.replace('_', ' ')}."
                ),
            ),
            html.nav(
                {"class_name": "visit-steps", "aria-label": f"Other {unit}s"},
                button_link(
                    f"Previous {unit}", filters.href(day=filters.day - step), variant="outline", size="sm"
                ),
                button_link("Today", filters.href(day=today), variant="outline", size="sm")
                if not first <= today <= last
                else "",
                button_link(
                    f"Next {unit}", filters.href(day=filters.day + step), variant="outline", size="sm"
                ),
            ),
        ),
        StatusTabs(
            VIEWS,
            filters.view,
            QueryView(
                query,
                lambda page: agenda(page, filters, set_open_id),
                is_empty=lambda _page: False,
                loading_label="Loading visits…",
            ),
            label="View",
            href=filters.url().tab_href("view"),
            id="visits-view-tabs",
        ),
        VisitDialog(open_id, on_close=lambda: set_open_id(""), on_changed=query.refetch, key=open_id)
        if open_id
        else "",
    )


def agenda(page: StaffVisitPage, filters: Filters, open_visit: Callable[[str], None]) -> VdomDict:
    zone = ZoneInfo(page.time_zone)
    count = f"{page.total:,} visit{'' if page.total == 1 else 's'}"
    if not page.items:
        return html.div(
            html.p({"class_name": "visit-count"}, count),
            staff_empty("No visits match this view and these filters."),
        )
    days = groupby(page.items, key=lambda r: r.starts_at.astimezone(zone).date())
    return html.div(
        html.p(
            {"class_name": "visit-count", "role": "status"},
            count + ("" if page.patient_names else " · patient details hidden"),
        ),
        *(
            html.section(
                {
                    "class_name": "visit-day",
                    "key": day.isoformat(),
                    "aria-labelledby": f"day-{day.isoformat()}",
                },
                html.h3(
                    {
                        "id": f"day-{day.isoformat()}",
                        "class_name": "visit-day-title" + (" sr-only" if page.starts == page.ends else ""),
                    },
                    f"{WEEKDAYS[day.weekday()]}, {format_date(day)}",
                ),
                staff_list(*(visit_row(r, page.time_zone, open_visit) for r in rows)),
            )
            for day, rows in days
        ),
        MorePages(
            page.page,
            page.has_next,
            href=filters.url().page_href,
            label="Visit pages",
            status=html.span(
                {"class_name": "visit-page"}, f"Page {page.page} of {max(1, -(-page.total // PAGE_SIZE))}"
            )
            if page.has_next or page.page > 1
            else "",
        ),
    )


def visit_row(r: StaffVisitRow, time_zone: str, open_visit: Callable[[str], None]) -> VdomDict:
    start, end = format_time(r.starts_at, time_zone), format_time(r.ends_at, time_zone)
    who: list[VdomDict | str] = [UserText(r.provider_name)]
    if r.patient_name is not None:
        who = [UserText(r.patient_name), " with ", *who]
    return staff_row(
        (html.span(start), html.span({"class_name": "visit-end"}, f"to {end}")),
        r.service_name,
        tuple(who),
        f"{r.service_line} · {r.metro or r.location.label}",
        after=(
            status_badge(r.status),
            Button(
                "Details",
                size="sm",
                variant="outline",
                on_click=lambda: open_visit(r.id),
                aria_label=f"Details of the {start} {r.service_name} visit with {r.provider_name}",
            ),
        ),
        key=r.id,
        class_name="visit-row",
        time_class="visit-time",
    )


@component
def _Schedule(filters: Filters, time_zone: str) -> VdomDict:
    first, last = shown_days(filters.day, filters.view)
    query = use_query(
        get_provider_schedule,
        provider_id=filters.provider,
        starts=first,
        ends=last,
        time_zone=time_zone,
    )
    return Region(
        f"{query.data.name}'s schedule" if query.data else "Provider's schedule",
        QueryView(
            query,
            lambda s: schedule_body(s, time_zone),
            is_empty=lambda _s: False,
            loading_label="Loading the schedule…",
        ),
        title_id="schedule-title",
        class_name="staff-card",
    )


def schedule_body(s: ProviderScheduleRead, time_zone: str) -> VdomDict:
    hours: dict[int, list[str]] = {}
    for h in s.weekly_hours:
        hours.setdefault(h.weekday, []).append(f"{h.start:%-I:%M %p} – {h.end:%-I:%M %p}")
    return html.div(
        {"class_name": "visit-schedule"},
        html.div(
            html.h3({"class_name": "visit-day-title"}, f"Weekly hours ({s.time_zone.replace('_', ' ')})"),
            facts(
                *(
                    (name, ", ".join(hours.get(weekday, [])) or "Not working")
                    for weekday, name in enumerate(WEEKDAYS)
                ),
                class_name="settings-facts visit-facts",
            ),
        ),
        html.div(
            html.h3({"class_name": "visit-day-title"}, "Time off in these days"),
            staff_list(
                *(
                    html.li(
                        {"class_name": "staff-row", "key": t.id},
                        f"{format_date(t.starts_at.astimezone(ZoneInfo(time_zone)))} {format_time(t.starts_at, time_zone)} – "
                        f"{format_date(t.ends_at.astimezone(ZoneInfo(time_zone)))} {format_time(t.ends_at, time_zone)}",
                    )
                    for t in s.time_off
                ),
            )
            if s.time_off
            else staff_empty("No time off."),
        ),
    )
