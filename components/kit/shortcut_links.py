"""`shortcut_links`: a list of big links to where a member goes next (the staff dashboard's Quick Actions):
each an icon, a label over a line that says what it does, and a chevron (`.portal-links` in static/css)."""

from __future__ import annotations

from collections.abc import Sequence

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon

Shortcut = tuple[str, str, str, str]
"""(label, href, icon name, hint)."""


def shortcut_links(links: Sequence[Shortcut]) -> VdomDict:
    """`ul.portal-links`: one `a.portal-link` a shortcut, keyed by its address."""
    return html.ul(
        {"class_name": "portal-links"},
        *(
            html.li(
                {"key": href},
                html.a(
                    {"class_name": "portal-link", "href": href},
                    html.span({"class_name": "portal-link-icon"}, icon(icon_name, size=18)),
                    html.span(
                        {"class_name": "portal-link-text"},
                        html.span({"class_name": "portal-link-label"}, label),
                        html.span({"class_name": "portal-link-hint"}, hint),
                    ),
                    icon("chevron-right", size=18, class_name="icon portal-link-chevron"),
                ),
            )
            for label, href, icon_name, hint in links
        ),
    )
