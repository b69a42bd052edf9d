"""Dashboard (/dashboard and /dashboard/*): the signed-in overview, login required.

The overview is per role: the getting-started checklist until it is done (components/onboarding.py), the
patient's next visit and "book again", a provider's schedule for today, the newest notifications (live),
the open support requests and quick actions. Its cards load on their own (`use_query`), each from one
small query. 'Welcome back' greets only someone who signed in before this session
(`UiSession.returning`); a first visit is greeted with 'Welcome'.

Any dashboard path without its own screen (pages/routes.py) shows 'Dashboard Feature Coming Soon' naming
the feature, with no date promised; the sidebar's sections are in components/frame/dashboard_links.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from reactpy import component, html, use_location
from reactpy.types import VdomDict

from app.services.appointments import get_my_visit_summary, list_provider_schedule
from app.services.notifications import list_notifications, notifications_topic
from app.services.support import count_my_open_tickets
from components.appointment_ui import is_provider
from components.context import CurrentUser, use_session
from components.format import format_slot, format_time
from components.frame.dashboard_links import APPOINTMENTS_PATH, DASHBOARD_PATH, section_title
from components.guards import feature_name, feature_segment
from components.hooks import use_query, use_topic
from components.icons import icon
from components.kit import (
    Badge,
    QueryView,
    UserText,
    button_link,
    button_row,
    coming_soon,
    empty_state,
    portal_body,
    portal_header,
    portal_page,
)
from components.onboarding import OnboardingChecklist
from components.tickets import time_tag, when
from models.booking import AppointmentRead, VisitSummary
from models.notification import NotificationRead

SUPPORT_PATH = "/dashboard/support"
NOTIFICATIONS_PATH = "/dashboard/notifications"
RECENT_SHOWN = 4  # notifications on the overview
SCHEDULE_SHOWN = 6  # visits listed on the overview; the rest are a click away


@component
def DashboardPage() -> VdomDict:
    session = use_session()
    slug = feature_segment(use_location().pathname, DASHBOARD_PATH)
    if not slug:
        return overview(session.signed_in_user, returning=session.returning)
    return coming_soon_screen(section_title(slug) or feature_name(slug))


def greeting(user: CurrentUser, *, returning: bool) -> VdomDict:
    """'Welcome back, Pat' for someone who has been here before, else 'Welcome, Pat' (the name isolated)."""
    first_name = user.first_name or (user.name or "").split(" ")[0] or user.email
    return html._("Welcome back, " if returning else "Welcome, ", UserText(first_name))


def overview(user: CurrentUser, *, returning: bool = False) -> VdomDict:
    provider = is_provider(user)
    return portal_page(
        portal_header(
            greeting(user, returning=returning),
            eyebrow="Dashboard",
            lead="Your day at a glance: visits, requests and where to go next."
            if provider
            else "Your visits, your requests and what you can do next.",
        ),
        portal_body(
            OnboardingChecklist(),
            html.div(
                {"class_name": "overview-grid"},
                TodaySchedule() if provider else NextVisit(),
                RecentNotifications(),
                SupportCard(),
                _quick_actions(provider),
            ),
        ),
    )


def _card(title: str, icon_name: str, *body: object, link: tuple[str, str] | None = None) -> VdomDict:
    heading = f"overview-{icon_name}"
    return html.section(
        {"class_name": "card overview-card", "aria-labelledby": heading},
        html.div(
            {"class_name": "overview-card-head"},
            html.span({"class_name": "overview-icon"}, icon(icon_name, size=18)),
            html.h2({"id": heading}, title),
            html.a({"class_name": "overview-link", "href": link[1]}, link[0]) if link else "",
        ),
        *body,
    )


@component
def NextVisit() -> VdomDict:
    session = use_session()
    query = use_query(get_my_visit_summary)
    return _card(
        "Your next visit",
        "calendar",
        QueryView(
            query,
            lambda summary: _next_visit(summary, session.time_zone),
            is_empty=lambda summary: summary is None,
        ),
        link=("See all", APPOINTMENTS_PATH),
    )


def _next_visit(summary: VisitSummary, time_zone: str) -> VdomDict:
    visit = summary.next_visit
    again = summary.last_completed
    book_again = (
        button_link(
            html.span("Book ", UserText(again.provider_name), " again"),
            f"/providers/{again.provider_id}",
            variant="outline",
            size="sm",
        )
        if again
        else ""
    )
    if visit is None:
        return empty_state(
            "No visits booked",
            "Providers come to your home or office, often within days.",
            action=button_row(button_link("Find a provider", "/find-provider", size="sm"), book_again),
        )
    return html.div(
        {"class_name": "overview-visit"},
        html.p({"class_name": "overview-visit-when"}, format_slot(visit.starts_at, time_zone)),
        html.p(
            {"class_name": "overview-visit-what"},
            UserText(visit.service_name),
            " with ",
            UserText(visit.provider_name),
        ),
        html.div({"class_name": "overview-status"}, _status(visit)),
        button_row(book_again) if again else "",
    )


def _status(visit: AppointmentRead) -> VdomDict:
    return Badge(visit.status.label, class_name=f"appt-status appt-status-{visit.status.value}")


@component
def TodaySchedule() -> VdomDict:
    session = use_session()
    today = datetime.now(UTC).astimezone(ZoneInfo(session.time_zone)).date()
    query = use_query(
        list_provider_schedule,
        when="upcoming",
        day=today,
        time_zone=session.time_zone,
    )
    return _card(
        "Today's schedule",
        "calendar",
        QueryView(
            query,
            lambda visits: _schedule(visits, session.time_zone),
            empty=empty_state("No visits today", "New bookings appear here as patients make them."),
        ),
        link=("Open schedule", APPOINTMENTS_PATH),
    )


def _schedule(visits: list[AppointmentRead], time_zone: str) -> VdomDict:
    shown = visits[:SCHEDULE_SHOWN]
    more = len(visits) - len(shown)
    return html._(
        html.ul(
            {"class_name": "overview-schedule"},
            *(
                html.li(
                    {"key": visit.id},
                    html.span({"class_name": "overview-time"}, format_time(visit.starts_at, time_zone)),
                    html.span(
                        {"class_name": "overview-visit-what"},
                        UserText(visit.service_name),
                        html.span({"class_name": "overview-muted"}, " · ", UserText(visit.patient_name)),
                    ),
                    _status(visit),
                )
                for visit in shown
            ),
        ),
        html.p({"class_name": "overview-muted"}, f"and {more} more today") if more > 0 else "",
    )


@component
def RecentNotifications() -> VdomDict:
    """The newest notifications, live: a new one appears here as the bell counts it."""
    session = use_session()
    query = use_query(list_notifications, tab="all", page_size=RECENT_SHOWN)
    use_topic(notifications_topic(session.signed_in_user.id), refetch=[query])
    return _card(
        "Recent notifications",
        "bell",
        QueryView(
            query,
            lambda page: _recent(page.items, session.time_zone),
            is_empty=lambda page: page is None or not page.items,
            empty=empty_state("You're all caught up", "Updates about your visits and requests appear here."),
        ),
        link=("See all", NOTIFICATIONS_PATH),
    )


def _recent(items: tuple[NotificationRead, ...], time_zone: str) -> VdomDict:
    return html.ul(
        {"class_name": "overview-notes"},
        *(
            html.li(
                {"key": item.id, "class_name": "" if item.read else "is-unread"},
                html.a({"href": item.link}, item.title),
                html.span(
                    {"class_name": "overview-muted"},
                    "Unread · " if not item.read else "",
                    time_tag(item.created_at, when(item.created_at, time_zone)),
                ),
            )
            for item in items
        ),
    )


@component
def SupportCard() -> VdomDict:
    query = use_query(count_my_open_tickets)
    return _card(
        "Support",
        "message",
        QueryView(query, _support, is_empty=lambda count: count is None),
        link=("Your requests", SUPPORT_PATH),
    )


def _support(count: int) -> VdomDict:
    if count == 0:
        text = "No open requests. If something isn't right, we're here to help."
    else:
        text = (
            f"You have {count} open request{'s' if count != 1 else ''}. Replies from our team appear there."
        )
    return html._(
        html.p({"class_name": "overview-muted"}, text),
        button_link("Contact support", SUPPORT_PATH, variant="outline", size="sm"),
    )


def _quick_actions(provider: bool) -> VdomDict:
    first = ("Set services and hours", "/dashboard/services", "stethoscope")
    if not provider:
        first = ("Browse services", "/services", "heart")
    actions = (
        first,
        ("Your profile", "/dashboard/profile", "user"),
        ("Account settings", "/dashboard/settings", "settings"),
    )
    return _card(
        "Quick actions",
        "zap",
        html.ul(
            {"class_name": "overview-actions"},
            *(
                html.li(
                    {"key": href},
                    html.a(
                        {"class_name": "overview-action", "href": href}, icon(name, size=18), html.span(label)
                    ),
                )
                for label, href, name in actions
            ),
        ),
    )


def coming_soon_screen(feature: str) -> VdomDict:
    return coming_soon(
        feature=feature,
        heading="Dashboard Feature Coming Soon",
        status="isn't available yet",
        links=(("Back to Dashboard", DASHBOARD_PATH), ("My Appointments", APPOINTMENTS_PATH)),
    )
