"""The header bands at the top of a screen: `page_header` (public pages), `portal_header` (the signed-in
screens: dashboard, settings, staff, admin) and `page_title`, which sets the browser tab's title."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components import browser


def page_title(title: str) -> VdomDict:
    """Sets document.title (the browser module reads this marker); renders nothing visible."""
    return html.span({"hidden": True, **browser.page_title(title)})


def page_header(title: str, lead: str | None = None, *, eyebrow: str | None = None) -> VdomDict:
    """The band at the top of a public page: an eyebrow line, the page's h1 and a lead paragraph."""
    return _band("page-header", title, eyebrow, lead)


def portal_header(title: Any, *extra: Any, eyebrow: Any = None, lead: Any = None) -> VdomDict:
    """The header band of the signed-in screens (dashboard, settings, staff, admin); `extra` follows the lead."""
    return _band("portal-header", title, eyebrow, lead, *extra)


def _band(class_name: str, title: Any, eyebrow: Any, lead: Any, *extra: Any) -> VdomDict:
    return html.section(
        {"class_name": class_name},
        html.div(
            {"class_name": "container"},
            html.p({"class_name": "eyebrow"}, eyebrow) if eyebrow else "",
            html.h1(title),
            html.p({"class_name": "lead"}, lead) if lead else "",
            *extra,
        ),
    )
