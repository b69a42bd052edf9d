"""The header band of a detail page (a job posting, a help article, a forum topic, a provider, a
service): `breadcrumbs`, the trail of links back up to the list it belongs to, and `detail_header`, the
`page-header` band that starts with that trail and then holds the page's own title."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import classes

Crumb = tuple[Any, str | None]
"""(label, href): a link up the trail, or plain text when `href` is None."""


def breadcrumbs(*trail: Crumb, current: Any = None) -> VdomDict:
    """`nav.breadcrumbs` named "Breadcrumb": the `trail` in order, a chevron between steps, and the page
    itself last (`aria-current="page"`) when `current` is given; a `current` that is already an element
    (a `UserText`) keeps its own tag."""
    steps: list[Any] = [html.a({"href": href}, label) if href else html.span(label) for label, href in trail]
    if current is not None:
        steps.append(current if isinstance(current, dict) else html.span({"aria-current": "page"}, current))
    parts: list[Any] = []
    for n, step in enumerate(steps):
        if n:
            parts.append(icon("chevron-right", size=14))
        parts.append(step)
    return html.nav({"class_name": "breadcrumbs", "aria-label": "Breadcrumb"}, *parts)


def detail_header(
    *body: Any,
    trail: Sequence[Crumb],
    current: Any = None,
    title: Any = None,
    lead: Any = None,
    class_name: str | None = None,
) -> VdomDict:
    """`section.page-header` holding a container: the `breadcrumbs`, an h1 with `title` (leave it out to
    put a heading of your own in `body`), a `p.lead`, then `body`."""
    return html.section(
        {"class_name": classes("page-header", class_name)},
        html.div(
            {"class_name": "container"},
            breadcrumbs(*trail, current=current),
            html.h1(title) if title is not None else "",
            html.p({"class_name": "lead"}, lead) if lead else "",
            *body,
        ),
    )
