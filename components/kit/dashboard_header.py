"""`dashboard_header`: the header band of a dashboard screen (wallet, settings, support, services …): the
kit's `portal_header` whose eyebrow is the link back up — to the dashboard, or to the screen above
(Notifications, for their settings)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit.headers import portal_header

DASHBOARD = ("Dashboard", "/dashboard")


def dashboard_header(title: Any, *extra: Any, lead: Any = None, up: tuple[str, str] = DASHBOARD) -> VdomDict:
    """`portal_header(title, *extra, lead=lead)` with the eyebrow `a` to `up` = (label, href)."""
    label, href = up
    return portal_header(title, *extra, eyebrow=html.a({"href": href}, label), lead=lead)
