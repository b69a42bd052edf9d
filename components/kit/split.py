"""`split`: a band's two columns, the main text beside what goes with it (a card, an aside), one under
the other on small screens (`.split` in static/css). The main column usually opens with the band's
heading (`h2.section-title`) and a muted lead line."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict


def split(
    *main: Any, aside: Any, title: Any = None, lead: Any = None, main_class: str | None = None
) -> VdomDict:
    """`div.split`: a column (`main_class` on it: "split-main", "prose") holding the `title` as an
    `h2.section-title`, the `lead` as a `p.text-muted`, then `main`; then `aside`."""
    heading = (html.h2({"class_name": "section-title"}, title),) if title is not None else ()
    lead_line = (html.p({"class_name": "text-muted"}, lead),) if lead is not None else ()
    return html.div(
        {"class_name": "split"},
        html.div({"class_name": main_class} if main_class else {}, *heading, *lead_line, *main),
        aside,
    )
