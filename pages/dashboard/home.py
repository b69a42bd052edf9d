"""Dashboard (/dashboard and /dashboard/*): a welcome with the dashboard's sections, login required.

'Welcome back' greets only someone who signed in before this session (`UiSession.returning`); a first
visit is greeted with 'Welcome'.

Profile and Settings are built (pages/dashboard/profile.py, settings.py, routed in pages/routes.py ahead of
the catch-all); every other sub-path shows 'Dashboard Feature Coming Soon' naming the feature, with no date
promised. `SECTIONS`
lists the known ones (SPEC §2); as each is built, mark it `ready` and route its path to its own screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from reactpy import component, html, use_location

from components.context import CurrentUser, use_session
from components.guards import ADMIN_ROLES, feature_name, feature_segment
from components.icons import icon
from components.kit import UserText
from components.ui import coming_soon, portal_header

DASHBOARD_PATH = "/dashboard"
APPOINTMENTS_PATH = "/dashboard/appointments"


@dataclass(frozen=True)
class Section:
    slug: str  # the path under /dashboard
    title: str
    icon: str
    group: str  # sidebar group (SPEC §2)
    ready: bool = False

    @property
    def href(self) -> str:
        return f"{DASHBOARD_PATH}/{self.slug}"


GROUPS = ("Navigation", "Finance", "Contracting", "Community", "Administration")
ADMIN_GROUP = "Administration"  # owner and admin only (SPEC §2)

SECTIONS: tuple[Section, ...] = (
    Section("appointments", "Appointments", "calendar", "Navigation", ready=True),
    Section("services", "Services", "stethoscope", "Navigation", ready=True),
    Section("support", "Support", "message", "Navigation", ready=True),
    Section("profile", "Profile", "user", "Navigation", ready=True),
    Section("notifications", "Notifications", "message", "Navigation"),
    Section("notification-settings", "Notification Settings", "mail", "Navigation"),
    Section("settings", "Settings", "monitor", "Navigation", ready=True),
    Section("wallet", "Wallet", "shield", "Finance"),
    Section("provider-wallet", "Provider Wallet", "briefcase", "Finance"),
    Section("payout-requests", "Payout Requests", "arrow-right", "Finance"),
    Section("store", "Store", "cart", "Finance"),
    Section("contracts", "Contracts", "check", "Contracting"),
    Section("jobs", "Jobs", "briefcase", "Contracting"),
    Section("marketplace", "Marketplace", "building", "Community"),
    Section("team", "Team", "users", "Community"),
    Section("ad-analytics", "Ad Analytics", "star", "Administration"),
    Section("ai-features", "AI Features", "sparkles", "Administration"),
    Section("automation", "Automation", "zap", "Administration"),
)

_BY_SLUG = {section.slug: section for section in SECTIONS}


def section_title(slug: str) -> str:
    """The feature behind /dashboard/<slug>: the known section's title, else a name derived from the path."""
    known = _BY_SLUG.get(slug)
    return known.title if known else feature_name(slug)


@component
def DashboardPage() -> dict:
    session = use_session()
    slug = feature_segment(use_location().pathname, DASHBOARD_PATH)
    if not slug:
        return dashboard_home(session.user, returning=session.returning)
    return coming_soon_screen(section_title(slug))


def greeting(user: CurrentUser, *, returning: bool) -> dict:
    """'Welcome back, Pat' for someone who has been here before, else 'Welcome, Pat' (the name isolated)."""
    first_name = user.first_name or (user.name or "").split(" ")[0] or user.email
    return html._("Welcome back, " if returning else "Welcome, ", UserText(first_name))


def dashboard_home(user: CurrentUser, *, returning: bool = False) -> dict:
    groups = tuple(g for g in GROUPS if g != ADMIN_GROUP or user.role in ADMIN_ROLES)
    return html.div(
        {"class_name": "portal"},
        portal_header(
            greeting(user, returning=returning),
            eyebrow="Dashboard",
            lead="Everything in your account, in one place. Sections open here as they become available.",
        ),
        html.div(
            {"class_name": "container portal-body"},
            *(_group(group, tuple(s for s in SECTIONS if s.group == group)) for group in groups),
        ),
    )


def _group(title: str, sections: tuple[Section, ...]) -> dict:
    heading_id = f"dashboard-group-{title.lower()}"
    return html.section(
        {"class_name": "portal-group", "aria-labelledby": heading_id, "key": title},
        html.h2({"class_name": "portal-group-title", "id": heading_id}, title),
        html.ul(
            {"class_name": "portal-links"},
            *(
                html.li(
                    {"key": s.slug},
                    html.a(
                        {"class_name": "portal-link", "href": s.href},
                        html.span({"class_name": "portal-link-icon"}, icon(s.icon, size=20)),
                        html.span(
                            {"class_name": "portal-link-text"},
                            html.span({"class_name": "portal-link-label"}, s.title),
                            "" if s.ready else html.span({"class_name": "portal-pill"}, "Coming soon"),
                        ),
                    ),
                )
                for s in sections
            ),
        ),
    )


def coming_soon_screen(feature: str) -> dict:
    return coming_soon(
        feature=feature,
        heading="Dashboard Feature Coming Soon",
        status="isn't available yet",
        links=(("Back to Dashboard", DASHBOARD_PATH), ("My Appointments", APPOINTMENTS_PATH)),
    )
