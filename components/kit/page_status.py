"""`status_pill`: the small rounded state of a setting or a connection ("On", "Off", "Connected", "This
device", "Listed", "Awaiting verification"): `span.status-pill`, green (`status-on`) when the thing is on,
an icon before the word when given. The word says the state; the colour only repeats it."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import classes


def status_pill(label: Any, *, on: bool = False, icon_name: str | None = None) -> VdomDict:
    """`span.status-pill` (`status-on` when `on`): the `icon_name` icon (14 px) when given, then `label`."""
    return html.span(
        {"class_name": classes("status-pill", on and "status-on")},
        *((icon(icon_name, size=14),) if icon_name else ()),
        label,
    )
