"""Staff portal (/staff and /staff/*): management, hr, support and owner only (SPEC §6).

Every screen sits in the staff layout (components/staff_frame.py). The index is the Staff Dashboard
(staff/dashboard.py); sections not built yet show 'Staff Portal Feature Coming Soon' naming the requested
feature (under development, no date promised), and only to a member who holds the section's permission.
"""

from __future__ import annotations

from reactpy import component, use_location
from reactpy.types import Component, VdomDict

from components.guards import feature_name, feature_segment
from components.kit import coming_soon
from components.staff_frame import STAFF_HOME, StaffFrame, StaffSection, staff_section
from staff.dashboard import StaffDashboard

HELP_DESK_PATH = "/staff/help-desk"


def staff_feature_name(slug: str) -> str:
    """The feature behind /staff/<slug>: its sidebar label, else a name derived from the path."""
    section = staff_section(slug)
    return section.label if section is not None else feature_name(slug)


@component
def StaffPortal() -> Component:
    slug = feature_segment(use_location().pathname, STAFF_HOME)
    if not slug:
        return StaffFrame(StaffDashboard(), active="")
    feature = staff_feature_name(slug)
    return StaffFrame(StaffSection(lambda: coming_soon_screen(feature), slug=slug, key=slug), active=slug)


def coming_soon_screen(feature: str) -> VdomDict:
    return coming_soon(
        feature=feature,
        heading="Staff Portal Feature Coming Soon",
        status="is under development",
        links=(("Staff Home", STAFF_HOME), ("Help Desk", HELP_DESK_PATH)),
    )
