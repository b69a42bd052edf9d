"""`split`: a band's two columns, the main text beside what goes with it (a card, an aside), one under
the other on small screens (`.split` in static/css)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict


def split(*main: Any, aside: Any, main_class: str | None = None) -> VdomDict:
    """`div.split`: a column holding `main` (`main_class` on it: "split-main", "prose"), then `aside`."""
    return html.div(
        {"class_name": "split"},
        html.div({"class_name": main_class} if main_class else {}, *main),
        aside,
    )
