"""The frame of every /dashboard screen: a sidebar of the SPEC §2 groups beside a header (sidebar toggle,
"Go to" search, theme, the notification bell, account menu) and the screen; on small screens the sidebar is a
drawer and the bottom bar is the six-slot dashboard variant.

Everything that only moves pixels stays in the browser (static/js/dashboard.js): collapsing the sidebar to
a 3rem icon rail (Ctrl/Cmd+B or the toggle), its cookie 'sidebar:state' (7 days; the page's HTML is
served already collapsed when it says so, medivisit/main.py, so a reload does not flash), the rail's
tooltips and the "Go to" search, which opens the sidebar link whose name matches. The server renders
the sidebar once per role and page: each variant is one frozen element shared by every tab.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from reactpy import component, html, use_location
from reactpy.core.vdom import make_vdom_constructor
from reactpy.types import VdomDict

from components import browser
from components.context import use_session
from components.frame.dashboard_links import (
    DASHBOARD_PATH,
    Section,
    bottom_bar,
    visible_groups,
)
from components.frame.links import is_active
from components.frame.mobile import bottom_link
from components.frame.nav import avatar_menu, theme_toggle_button
from components.icons import icon
from components.kit import frozen
from components.notification_bell import NotificationBell
from components.vip_welcome import VipWelcome
from models.account import Role

SIDEBAR_ID = "dash-sidebar"
SEARCH_LIST_ID = "dash-pages"
datalist = make_vdom_constructor("datalist")  # not among reactpy.html's elements


@component
def DashboardFrame(*children: Any) -> VdomDict:
    session = use_session()
    user = session.user
    if user is None:  # the route's guard is on its way to the sign-in page
        return html.div({"class_name": "app-shell"}, *children)
    pathname = use_location().pathname
    active = pathname.removeprefix(DASHBOARD_PATH).strip("/").split("/")[0]
    return html.div(
        {"class_name": "dash-layout"},
        html.a({"class_name": "skip-link", "href": "#main"}, "Skip to content"),
        _sidebar(session.brand_name, user.role, user.is_master_admin, active),
        html.div({"class_name": "dash-backdrop", **browser.close_overlay(), "aria-hidden": "true"}),
        html.div(
            {"class_name": "dash-main"},
            html.header(
                {"class_name": "dash-header"},
                _sidebar_toggle(),
                _search(user.role, user.is_master_admin),
                html.div(
                    {"class_name": "dash-header-actions"},
                    theme_toggle_button(),
                    NotificationBell(),
                    avatar_menu(user, session.csrf_token),
                ),
            ),
            html.main({"id": "main", "class_name": "dash-content", "tab_index": -1}, *children),
        ),
        VipWelcome() if user.is_vip else "",
        html.nav(
            {"class_name": "bottom-bar bottom-bar-six", "aria-label": "Quick navigation"},
            *(bottom_link(link, _here(link.href, pathname)) for link in bottom_bar(user)),
        ),
    )


def _here(href: str, pathname: str) -> bool:
    # The overview's entry is the current one on the overview only, not under every section.
    return pathname == href if href == DASHBOARD_PATH else is_active(href, pathname)


@cache
def _sidebar_toggle() -> VdomDict:
    return frozen(
        html.button(
            {
                "type": "button",
                "class_name": "icon-button dash-sidebar-toggle",
                **browser.dashboard_sidebar_toggle(),
                "aria-controls": SIDEBAR_ID,
                "aria-expanded": "true",
                "aria-label": "Toggle sidebar",
                "title": "Toggle sidebar (Ctrl+B)",
            },
            icon("sidebar", size=20),
        )
    )


@cache
def _sidebar(brand: str, role: Role, master_admin: bool, active: str) -> VdomDict:
    """The sidebar for one role on one section (`active`, '' for the overview): frozen, shared."""
    groups = visible_groups(role, master_admin)
    return frozen(
        html.aside(
            {"id": SIDEBAR_ID, "class_name": "dash-sidebar", "aria-label": "Dashboard"},
            html.div(
                {"class_name": "dash-sidebar-inner"},
                html.div(
                    {"class_name": "dash-sidebar-head"},
                    html.a(
                        {"class_name": "dash-brand", "href": "/", "aria-label": f"{brand} home"},
                        html.span({"class_name": "dash-brand-mark"}, icon("heart", size=18)),
                        html.span({"class_name": "dash-nav-label dash-brand-name"}, brand),
                    ),
                    html.button(
                        {
                            "type": "button",
                            "class_name": "icon-button dash-drawer-close",
                            **browser.close_overlay(),
                            "aria-label": "Close sidebar",
                        },
                        icon("x", size=20),
                    ),
                ),
                html.nav(
                    {"class_name": "dash-nav", "aria-label": "Dashboard sections"},
                    _link(Section("", "Overview", "dashboard", ""), active == ""),
                    *(_group(title, sections, active) for title, sections in groups),
                ),
            ),
        )
    )


def _group(title: str, sections: tuple[Section, ...], active: str) -> VdomDict:
    heading = f"dash-group-{title.lower()}"
    return html.div(
        {"class_name": "dash-group", "key": title},
        html.h2({"class_name": "dash-group-title", "id": heading}, title),
        html.ul(
            {"class_name": "dash-nav-list", "aria-labelledby": heading},
            *(html.li({"key": s.slug}, _link(s, s.slug == active)) for s in sections),
        ),
    )


def _link(section: Section, current: bool) -> VdomDict:
    href = section.href if section.slug else DASHBOARD_PATH
    soon = not section.ready and bool(section.slug)
    return html.a(
        {
            "class_name": "dash-nav-link",
            "href": href,
            **browser.rail_tooltip(section.title + (" (coming soon)" if soon else "")),
            **({"aria-current": "page"} if current else {}),
        },
        icon(section.icon, size=18),
        html.span({"class_name": "dash-nav-label"}, section.title),
        html.span({"class_name": "dash-soon"}, "Soon") if soon else "",
    )


@cache
def _search(role: Role, master_admin: bool) -> VdomDict:
    """ "Go to": type a page's name (the browser suggests the ones this role has) and press Enter."""
    names = [s.title for _group_title, sections in visible_groups(role, master_admin) for s in sections]
    return frozen(
        html.form(
            {"class_name": "dash-search", "role": "search", **browser.dashboard_search()},
            html.label({"class_name": "sr-only", "html_for": "dash-search-input"}, "Go to a dashboard page"),
            icon("search", size=16, class_name="icon dash-search-icon"),
            html.input(
                {
                    "id": "dash-search-input",
                    "class_name": "dash-search-input",
                    "type": "search",
                    "list": SEARCH_LIST_ID,
                    "placeholder": "Go to…",
                    "autocomplete": "off",
                    "max_length": 60,
                }
            ),
            datalist({"id": SEARCH_LIST_ID}, *(html.option({"value": name, "key": name}) for name in names)),
            html.span(
                {"class_name": "dash-search-status", "role": "status", **browser.dashboard_search_status()}
            ),
        )
    )
