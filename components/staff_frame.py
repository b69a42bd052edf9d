"""The staff portal layout shared by every /staff screen (staff/ and helpdesk/ both use it): a
permissions-aware sidebar beside the screen.

It is the whole page frame of the portal: /staff routes are `framed=False` (pages/routes.py), so no public
header, flash-sale banner or footer appears inside it; its toolbar links back to the public site and logs out.

`StaffFrame(*children, active=slug)` loads the signed-in member's access once (`get_staff_access`) and
provides it to the screen below (`use_staff_access()`). The sidebar lists the SPEC §6 sections the member
may use; `visible_sections` is the one rule for that (the permission matrix tests it too).

Collapsing the sidebar (16rem ↔ a 3rem icon rail) and the small-screen drawer are browser-only:
static/js/staff.js keeps the open state in localStorage 'staff-sidebar-open', so a toggle costs no
server render. `StaffSection` is the screen-level guard: without the section's permission it shows the
'Access Denied' toast and goes back to /staff (the services refuse on their own anyway).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from reactpy import component, create_context, html, use_context
from reactpy.types import ComponentType, VdomDict
from reactpy_router import navigate

from app.services.staff import HELP_DESK_DENIED, get_staff_access
from app.services.staff import TOPIC as STAFF_TOPIC
from components.account import logout_form
from components.browser import close_overlay, staff_sidebar_toggle
from components.context import SessionContext, use_session
from components.effects import use_effect
from components.guards import ACCESS_DENIED
from components.hooks import use_query, use_topic
from components.icons import icon
from components.kit import UserText, button_link, loading_state
from components.notification_bell import NotificationBell
from models.account import Role
from models.staff import Permission, StaffAccessRead

STAFF_HOME = "/staff"
SIDEBAR_ID = "staff-sidebar"
DRAWER = "staff-nav"  # the overlay name static/js/app.js closes on navigation and Escape


@dataclass(frozen=True)
class StaffSectionInfo:
    """One sidebar entry: `slug` is the path under /staff ('' for the dashboard)."""

    slug: str
    label: str
    icon: str
    permission: Permission | None = None
    owner_only: bool = False
    roles: frozenset[Role] = frozenset()  # when set: only these roles (and owners) open it, e.g. HR's

    @property
    def href(self) -> str:
        return f"{STAFF_HOME}/{self.slug}" if self.slug else STAFF_HOME

    @property
    def denied_description(self) -> str:
        if self.permission == Permission.view_support_tickets:
            return HELP_DESK_DENIED
        return f"You don't have permission to access {self.label}."


P = Permission
# SPEC §6: the staff menu, each item hidden without its permission; the audit log is the owner's. The
# notification inbox (issue 12) is everyone's; Invoices (issue 14) needs create_invoices.
STAFF_SECTIONS: tuple[StaffSectionInfo, ...] = (
    StaffSectionInfo("", "Dashboard", "dashboard"),
    StaffSectionInfo("notifications", "Notifications", "bell"),
    StaffSectionInfo("analytics", "Analytics", "chart", P.view_analytics),
    StaffSectionInfo("providers", "Provider Management", "briefcase", P.manage_providers),
    StaffSectionInfo("verifications", "Verification Requests", "shield", P.manage_verification),
    StaffSectionInfo("revenue", "Revenue Reports", "dollar", P.view_revenue),
    StaffSectionInfo("invoices", "Invoices", "receipt", P.create_invoices),
    StaffSectionInfo("ads", "Advertisement Management", "megaphone", P.manage_ads),
    StaffSectionInfo("help-desk", "Help Desk", "message", P.view_support_tickets),
    StaffSectionInfo("team", "Staff Management", "users", P.manage_staff),
    StaffSectionInfo(
        "careers", "Careers", "briefcase", P.manage_staff
    ),  # job postings, applications (issue 17)
    StaffSectionInfo("onboarding", "Provider Onboarding", "user-plus", P.manage_onboarding),
    StaffSectionInfo("moderation", "Content Moderation", "flag", P.moderate_content),
    StaffSectionInfo("documents", "Document Approvals", "file-check", P.approve_documents),
    StaffSectionInfo("appointments", "Appointments", "calendar", P.view_appointments),
    StaffSectionInfo("products", "Products", "package", P.manage_services),
    StaffSectionInfo("store-orders", "Store Orders", "truck", P.manage_services),
    # The corporate desk (issue 17): leads from /corporate, contracts and the organizations behind them.
    StaffSectionInfo("leads", "Corporate Leads", "building", P.manage_services),
    StaffSectionInfo("contracts", "Contracts", "file-check", P.manage_services),
    StaffSectionInfo("organizations", "Organizations", "users", P.manage_services),
    StaffSectionInfo("documentation", "Documentation", "book"),
    # The public Help Center's articles (issue 16): owners and HR (admins write them through the service too).
    StaffSectionInfo("help-center", "Help Center", "help", roles=frozenset({Role.owner, Role.hr})),
    StaffSectionInfo("settings", "Settings", "settings"),
    StaffSectionInfo("audit", "Audit Log", "lock", owner_only=True),
)
# Both spellings of the help desk path appear (SPEC §2).
_ALIASES = {"helpdesk": "help-desk"}
_BY_SLUG = {section.slug: section for section in STAFF_SECTIONS}


def staff_section(slug: str) -> StaffSectionInfo | None:
    """The sidebar section behind /staff/<slug>, if it is one."""
    slug = slug.lower()
    return _BY_SLUG.get(_ALIASES.get(slug, slug))


def role_label(role: Role) -> str:
    """'hr' → 'HR', 'management' → 'Management'."""
    return "HR" if role == Role.hr else role.value.capitalize()


def may_open(section: StaffSectionInfo, access: StaffAccessRead | None) -> bool:
    """Whether `access` may open `section` (no access: only what needs no permission)."""
    if section.owner_only:
        return access is not None and access.is_owner
    if section.roles:
        return access is not None and (access.is_owner or access.role in section.roles)
    if section.permission is None:
        return True
    return access is not None and access.can(section.permission)


def visible_sections(access: StaffAccessRead | None) -> tuple[StaffSectionInfo, ...]:
    """The sidebar items `access` sees, in menu order."""
    return tuple(section for section in STAFF_SECTIONS if may_open(section, access))


# ---- the member's access, for the screens inside the frame ----------------------------------------


@dataclass(frozen=True)
class StaffAccessState:
    access: StaffAccessRead | None
    loading: bool
    error: str | None


StaffAccessContext = create_context(StaffAccessState(None, True, None))


def use_staff_access() -> StaffAccessState:
    """The signed-in member's access, as loaded by the enclosing StaffFrame."""
    return use_context(StaffAccessContext)


def use_staff_permissions() -> frozenset[Permission]:
    """The member's permissions (empty while loading or when refused)."""
    access = use_staff_access().access
    return access.permissions if access is not None else frozenset()


# ---- the layout ------------------------------------------------------------------------------------


@component
def StaffFrame(*children: Any, active: str = "") -> ComponentType:
    session = use_session()
    query = use_query(get_staff_access)

    def about_me(payload: dict) -> bool:
        # A manager changed this member's role or permissions: show the new access at once.
        return session.actor is not None and payload.get("user_id") == session.actor.user_id

    use_topic(STAFF_TOPIC, refetch=[query], on_event=about_me)
    state = StaffAccessState(query.data, query.loading and query.data is None, query.error)
    body: Any = children
    if state.error:
        body = (access_problem(state.error),)
    pinned = state.access.time_zone if state.access is not None else None
    if pinned and pinned != session.time_zone:  # the member's own zone wins over the browser's
        body = (SessionContext(*body, value=replace(session, time_zone=pinned)),)
    return StaffAccessContext(
        html.div(
            {"class_name": "staff-layout"},
            html.a({"class_name": "skip-link", "href": "#staff-main"}, "Skip to content"),
            sidebar(state.access, active),
            html.div(
                {"class_name": "staff-backdrop", **close_overlay(), "aria-hidden": "true"},
            ),
            html.div(
                {"class_name": "staff-main"},
                toolbar(state.access, active, session.csrf_token),
                html.main({"id": "staff-main", "class_name": "staff-content", "tab_index": -1}, *body),
            ),
        ),
        value=state,
    )


def sidebar(access: StaffAccessRead | None, active: str) -> VdomDict:
    active_section = staff_section(active)
    return html.aside(
        {"id": SIDEBAR_ID, "class_name": "staff-sidebar", "aria-label": "Staff portal"},
        html.div(
            {"class_name": "staff-sidebar-inner"},
            sidebar_head(),
            sidebar_nav(access, active_section),
        ),
    )


def sidebar_head() -> VdomDict:
    return html.div(
        {"class_name": "staff-sidebar-head"},
        html.span({"class_name": "staff-sidebar-mark"}, icon("shield", size=18)),
        html.span({"class_name": "staff-nav-label staff-sidebar-title"}, "Staff Portal"),
        html.button(
            {
                "type": "button",
                "class_name": "icon-button staff-drawer-close",
                **close_overlay(),
                "aria-label": "Close staff menu",
            },
            icon("x", size=20),
        ),
    )


def sidebar_nav(access: StaffAccessRead | None, active_section: StaffSectionInfo | None) -> VdomDict:
    return html.nav(
        {"class_name": "staff-nav", "aria-label": "Staff sections"},
        html.ul(
            {"class_name": "staff-nav-list"},
            *(
                html.li(
                    {"key": section.slug or "dashboard"},
                    html.a(
                        {
                            "class_name": "staff-nav-link",
                            "href": section.href,
                            "title": section.label,
                            **({"aria-current": "page"} if section is active_section else {}),
                        },
                        icon(section.icon, size=18),
                        html.span({"class_name": "staff-nav-label"}, section.label),
                    ),
                )
                for section in visible_sections(access)
            ),
        ),
    )


def toolbar(access: StaffAccessRead | None, active: str, csrf_token: str = "") -> VdomDict:
    section = staff_section(active)
    return html.header(
        {"class_name": "staff-toolbar"},
        html.button(
            {
                "type": "button",
                "class_name": "icon-button staff-sidebar-toggle",
                **staff_sidebar_toggle(),
                "aria-controls": SIDEBAR_ID,
                "aria-label": "Toggle staff menu",
                "title": "Toggle staff menu (Ctrl+B)",
            },
            icon("sidebar", size=20),
        ),
        html.span({"class_name": "staff-toolbar-title"}, section.label if section else "Staff Portal"),
        html.span(
            {"class_name": "staff-toolbar-who"},
            UserText(access.name, class_name="staff-toolbar-name"),
            html.span({"class_name": "portal-pill"}, role_label(access.role)),
        )
        if access is not None
        else html.span({"class_name": "staff-toolbar-who"}),
        NotificationBell(),
        html.a({"class_name": "btn btn-ghost btn-sm staff-toolbar-site", "href": "/"}, "Back to site"),
        logout_form(csrf_token, class_name="btn btn-outline btn-sm", role=None),
    )


def access_problem(message: str) -> VdomDict:
    return html.section(
        {"class_name": "container staff-problem", "role": "alert"},
        html.span({"class_name": "coming-soon-icon"}, icon("lock", size=28)),
        html.h1(ACCESS_DENIED),
        html.p(message),
        button_link("Back to Home", "/", variant="outline"),
    )


@component
def StaffSection(view: Callable[[], Any], slug: str) -> Any:
    """Render `view()` when the member may open the section `slug`; otherwise toast 'Access Denied' and
    go to /staff. Place it inside StaffFrame."""
    state = use_staff_access()
    toaster = use_session().toaster
    section = staff_section(slug)
    allowed = None if state.loading or state.error else (section is None or may_open(section, state.access))

    @use_effect(dependencies=[allowed])
    def announce() -> None:
        if allowed is False and section is not None:
            toaster.error(ACCESS_DENIED, section.denied_description)

    if allowed is None:
        return loading_state() if state.loading else ""
    if not allowed:
        return navigate(STAFF_HOME, replace=True)
    return view()
