"""Lists of content: `checklist` (ticked items), `steps` (numbered steps with a title), `chips` and `facts`
(a description list of terms and their details)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon


def checklist(*items: str) -> VdomDict:
    """`ul.checklist`: each item after a tick."""
    return html.ul(
        {"class_name": "checklist"},
        *(html.li({"key": item}, icon("check", size=18), html.span(item)) for item in items),
    )


def steps(*items: tuple[str, str]) -> VdomDict:
    """A numbered list of (title, text) steps."""
    return html.ol(
        {"class_name": "steps"},
        *(
            html.li(
                {"key": title, "class_name": "step"},
                html.span({"class_name": "step-number", "aria-hidden": "true"}, str(number)),
                html.div(html.h3({"class_name": "step-title"}, title), html.p(text)),
            )
            for number, (title, text) in enumerate(items, start=1)
        ),
    )


def chips(*labels: str) -> VdomDict:
    """`ul.chips`: short labels in a row."""
    return html.ul(
        {"class_name": "chips"}, *(html.li({"key": label, "class_name": "chip"}, label) for label in labels)
    )


def facts(*rows: tuple[Any, ...], class_name: str | None = None) -> VdomDict:
    """A `dl` of (term, detail …) rows: `dt` with the term, then `dd` holding the rest."""
    return html.dl(
        {"class_name": class_name} if class_name else {},
        *(part for term, *detail in rows for part in (html.dt(term), html.dd(*detail))),
    )
