"""`bullets`: a plain bulleted list of short lines of text (how to prepare, what you'll need, the notes of a
check, the reasons a step is blocked). The kit's other lists (`checklist`, `steps`, `chips`) add a tick, a
number or a chip look; this one is the list as it is."""

from __future__ import annotations

from collections.abc import Iterable

from reactpy import html
from reactpy.types import VdomDict


def bullets(items: Iterable[str], *, class_name: str | None = None) -> VdomDict:
    """`ul` (`class_name` on it) with one `li` a line, keyed by its text."""
    return html.ul(
        {"class_name": class_name} if class_name else {}, *(html.li({"key": item}, item) for item in items)
    )
