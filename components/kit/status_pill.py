"""`status_pill`: the small rounded state of a setting or a connection ("On", "Off", "Connected", "This
device", "Listed", "Awaiting verification"): `span.status-pill`, green (`status-on`) when the thing is on,
an icon before the word when given. The word says the state; the colour only repeats it. `state_line` is
a settings card's line that starts with that pill and says what the state means."""

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


def state_line(pill: VdomDict, *text: Any) -> VdomDict:
    """`p.settings-text`: a setting's `status_pill` first, then what that state means (`text`, its parts in
    order) — "On. Signing in asks for a code from your authenticator app."."""
    return html.p({"class_name": "settings-text"}, pill, *text)
