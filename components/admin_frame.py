"""The admin console's frame, shared by /admin and its sub-pages (screens never import each other): the
header band with the console's navigation (Overview, Users, Mail outbox, Unknown paths, System health), the
current page marked with `aria-current="page"`, then the page's own content.

Plain links: moving between the console's pages is a navigation the router handles in the browser.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import html
from reactpy.types import VdomDict

from components.format import format_date, format_time
from components.icons import icon
from components.kit import portal_body, portal_header

ADMIN_HOME = "/admin"
# (path under /admin, label, icon)
ADMIN_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("", "Overview", "settings"),
    ("users", "Users", "users"),
    ("outbox", "Mail outbox", "mail"),
    ("not-found", "Unknown paths", "flag"),
    ("health", "System health", "chart"),
)


def admin_href(slug: str) -> str:
    return f"{ADMIN_HOME}/{slug}" if slug else ADMIN_HOME


def admin_nav(active: str) -> VdomDict:
    """The console's navigation; `active` is the current section's path under /admin ('' for /admin)."""
    return html.nav(
        {"class_name": "admin-nav", "aria-label": "Admin console"},
        html.ul(
            {"class_name": "admin-nav-list"},
            *(
                html.li(
                    {"key": slug or "overview"},
                    html.a(
                        {
                            "class_name": "admin-nav-link",
                            "href": admin_href(slug),
                            **({"aria-current": "page"} if slug == active else {}),
                        },
                        icon(name, size=16),
                        html.span(label),
                    ),
                )
                for slug, label, name in ADMIN_SECTIONS
            ),
        ),
    )


def admin_frame(*children: Any, active: str, title: Any, lead: Any = None) -> VdomDict:
    """A console page: the header band (eyebrow 'Administration', the title, an optional lead line and the
    navigation) and `children` in the page body."""
    return html.div(
        {"class_name": "portal admin-console"},
        portal_header(title, admin_nav(active), eyebrow="Administration", lead=lead),
        portal_body(*children),
    )


def moment_text(moment: datetime | None, time_zone: str, *, none: str = "Never") -> str:
    """'Nov 21, 2026 · 1:20 PM' in `time_zone`; `none` when there is no moment."""
    if moment is None:
        return none
    return f"{format_date(moment.astimezone(ZoneInfo(time_zone)))} · {format_time(moment, time_zone)}"
