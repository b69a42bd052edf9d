"""The dashboard's sections (SPEC §2): the sidebar groups, who sees each entry, and the small-screen
bottom bar's six-slot variant.

Every section SPEC names is listed. One whose screen is not built yet opens the 'Dashboard Feature Coming
Soon' screen and says so in the sidebar ("Soon"); as each is built, mark it `ready` and route its path to
its own screen (pages/routes.py). `roles` limits an entry to the roles that use it (patients don't see
the provider wallet or jobs); the Administration group is for owners, admins and master admins.
"""

from __future__ import annotations

from dataclasses import dataclass

from components.context import CurrentUser
from components.frame.links import NavLink
from models.account import ADMIN_ROLES, Role

DASHBOARD_PATH = "/dashboard"
APPOINTMENTS_PATH = "/dashboard/appointments"

GROUPS = ("Navigation", "Finance", "Contracting", "Community", "Administration")
ADMIN_GROUP = "Administration"

# Who runs a practice on MediVisit: the provider, and the owners and admins who oversee them.
PROVIDER_SIDE = frozenset({Role.provider, *ADMIN_ROLES})


@dataclass(frozen=True)
class Section:
    slug: str  # the path under /dashboard
    title: str
    icon: str
    group: str
    ready: bool = False
    roles: frozenset[Role] | None = None  # None: every signed-in role

    @property
    def href(self) -> str:
        return f"{DASHBOARD_PATH}/{self.slug}"


SECTIONS: tuple[Section, ...] = (
    Section("appointments", "Appointments", "calendar", "Navigation", ready=True),
    Section("services", "Services", "stethoscope", "Navigation", ready=True, roles=PROVIDER_SIDE),
    Section("support", "Support", "message", "Navigation", ready=True),
    Section("profile", "Profile", "user", "Navigation", ready=True),
    Section("notifications", "Notifications", "bell", "Navigation", ready=True),
    Section("notification-settings", "Notification Settings", "mail", "Navigation", ready=True),
    Section("settings", "Settings", "settings", "Navigation", ready=True),
    Section("wallet", "Wallet", "wallet", "Finance", ready=True),
    Section("provider-wallet", "Provider Wallet", "briefcase", "Finance", ready=True, roles=PROVIDER_SIDE),
    Section("payout-requests", "Payout Requests", "arrow-right", "Finance", ready=True, roles=PROVIDER_SIDE),
    Section("store", "Store", "cart", "Finance", ready=True),
    # Advertisers (providers; owners and admins for house ads) read their own ads' figures (issue 17).
    Section("ad-analytics", "Ad Analytics", "chart", "Finance", ready=True, roles=PROVIDER_SIDE),
    Section("contracts", "Contracts", "check", "Contracting", ready=True),
    Section("jobs", "Jobs", "briefcase", "Contracting", ready=True, roles=PROVIDER_SIDE),
    Section("marketplace", "Marketplace", "building", "Community", ready=True, roles=PROVIDER_SIDE),
    Section("team", "Team", "users", "Community", ready=True),  # organizations (issue 17): anyone
    Section("ai-features", "AI Features", "sparkles", ADMIN_GROUP, ready=True),
    Section("automation", "Automation", "zap", ADMIN_GROUP, ready=True),
)
_BY_SLUG = {section.slug: section for section in SECTIONS}


def is_administrator(role: Role, master_admin: bool) -> bool:
    """Owner, admin or master admin: the Administration group and the bottom bar's Admin slot."""
    return role in ADMIN_ROLES or master_admin


def sees(role: Role, master_admin: bool, section: Section) -> bool:
    if section.group == ADMIN_GROUP:
        return is_administrator(role, master_admin)
    return section.roles is None or role in section.roles or master_admin


def visible_groups(role: Role, master_admin: bool) -> tuple[tuple[str, tuple[Section, ...]], ...]:
    """The sidebar of a role: each group that has an entry for it, with those entries, in menu order."""
    groups = (
        (group, tuple(s for s in SECTIONS if s.group == group and sees(role, master_admin, s)))
        for group in GROUPS
    )
    return tuple((group, sections) for group, sections in groups if sections)


def section_title(slug: str) -> str | None:
    """The title of the known section at /dashboard/<slug>, if it is one."""
    known = _BY_SLUG.get(slug)
    return known.title if known else None


def bottom_bar(user: CurrentUser) -> tuple[NavLink, ...]:
    """SPEC §2's dashboard bottom bar: Home, Dashboard, Bookings, Services, Wallet, and Profile in the sixth
    slot, or Admin for an owner or admin. Providers' Services are theirs to edit; patients browse ours."""
    services = "/dashboard/services" if user.role in PROVIDER_SIDE else "/services"
    sixth = (
        NavLink("Admin", "/admin", icon="shield")
        if is_administrator(user.role, user.is_master_admin)
        else NavLink("Profile", "/dashboard/profile", icon="user")
    )
    return (
        NavLink("Home", "/", icon="home"),
        NavLink("Dashboard", DASHBOARD_PATH, icon="dashboard"),
        NavLink("Bookings", APPOINTMENTS_PATH, icon="calendar"),
        NavLink("Services", services, icon="stethoscope"),
        NavLink("Wallet", "/dashboard/wallet", icon="wallet"),
        sixth,
    )
