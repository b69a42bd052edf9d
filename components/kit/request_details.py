"""`request_details`: the lines that describe a service request on its card, on the patient's list, the
providers' board and a provider's won jobs: where and how long (`p.request-meta`), the preferred times
(`ul.request-windows`, named "Preferred times") and the patient's notes (`p.request-notes`, the words
bidi-isolated as the patient wrote them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit.display import UserText


def request_details(
    meta: Any, *, windows: Sequence[str] = (), notes: str | None = None, notes_label: str = "Your notes: "
) -> tuple[VdomDict, ...]:
    """The card's lines in order, each only when there is something to say: `meta`, the `windows` (one
    `li` each), then `notes` after its bold `notes_label`. Splat them into the card (`*request_details(…)`)."""
    lines = [html.p({"class_name": "request-meta"}, meta)]
    if windows:
        lines.append(
            html.ul(
                {"class_name": "request-windows", "aria-label": "Preferred times"},
                *(html.li({"key": str(i)}, text) for i, text in enumerate(windows)),
            )
        )
    if notes:
        lines.append(html.p({"class_name": "request-notes"}, html.strong(notes_label), UserText(notes)))
    return tuple(lines)
