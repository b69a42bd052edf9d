"""Staff portal (/staff and /staff/*): management, hr, support and owner only (SPEC §6).

The index is the Staff Dashboard (its figures, appointments and tasks arrive with the services that hold
them; nothing here is sample data). Every other path, the Help Desk included for now, shows
'Staff Portal Feature Coming Soon' naming the requested feature.
"""

from __future__ import annotations

from datetime import date

from reactpy import component, html, use_location

from components.format import format_date
from components.guards import feature_name, feature_segment, guarded, staff_rule
from components.icons import icon
from components.ui import coming_soon, portal_header

STAFF_PATH = "/staff"
HELP_DESK_PATH = "/staff/help-desk"
HELP_DESK_SLUGS = ("helpdesk", "help-desk")  # both spellings appear (SPEC §2)
ESTIMATED_AVAILABILITY = "Q3 2025"


def staff_feature_name(slug: str) -> str:
    return "Help Desk" if slug.lower() in HELP_DESK_SLUGS else feature_name(slug)


@component
def StaffPortal() -> dict:
    return guarded(staff_rule, _StaffView)


@component
def _StaffView() -> dict:
    slug = feature_segment(use_location().pathname, STAFF_PATH)
    return html.div(
        {"class_name": "portal portal-staff"},
        staff_dashboard(date.today()) if not slug else coming_soon_screen(staff_feature_name(slug)),
    )


def staff_dashboard(today: date) -> dict:
    return html._(
        portal_header(
            "Staff Dashboard",
            html.p(
                {"class_name": "portal-date"},
                icon("calendar", size=18),
                html.time({"dateTime": today.isoformat()}, f"{today:%A}, {format_date(today)}"),
            ),
            eyebrow="Staff Portal",
        ),
        html.div(
            {"class_name": "container portal-body"},
            html.div(
                {"class_name": "portal-empty"},
                html.p(
                    "Today's appointments, tasks and figures will appear here once they are connected to the "
                    "portal."
                ),
                html.a({"class_name": "btn btn-outline", "href": HELP_DESK_PATH}, "Help Desk"),
            ),
        ),
    )


def coming_soon_screen(feature: str) -> dict:
    return coming_soon(
        feature=feature,
        heading="Staff Portal Feature Coming Soon",
        status=f"is under development. Estimated availability: {ESTIMATED_AVAILABILITY}",
        links=(("Staff Home", STAFF_PATH), ("Help Desk", HELP_DESK_PATH)),
    )
