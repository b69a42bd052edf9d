"""The staff portal's screen shapes (staff/, helpdesk/): `staff_screen` (a back-office screen: its header band
over its body), `pill` (a count beside a card's title, a short label), `staff_empty` (a staff list's empty note),
`staff_row` (one line of a staff agenda or task list: a time, a title over its details, what can be
done with it) and `staff_list`, the list of those rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes
from components.kit.headers import portal_header
from components.kit.layout import portal_body

STAFF_PORTAL = "Staff Portal"


def staff_screen(
    title: Any,
    *body: Any,
    lead: Any = None,
    eyebrow: Any = STAFF_PORTAL,
    header: Sequence[Any] = (),
    body_class: str | None = None,
    after: Sequence[Any] = (),
) -> VdomDict:
    """A staff screen: its `portal_header` (`title`, the `eyebrow` line, the `lead`, then `header`: the
    screen's own buttons), its `portal_body` (`div.container.portal-body`, plus `body_class`) holding
    `body`, then `after` (the screen's dialogs)."""
    return html._(
        portal_header(title, *header, eyebrow=eyebrow, lead=lead),
        portal_body(*body, class_name=body_class),
        *after,
    )


def pill(text: Any) -> VdomDict:
    """`span.portal-pill`: a short word in a rounded pill: how many items a card holds (beside its title),
    "You" beside a member, an audit entry's action."""
    return html.span({"class_name": "portal-pill"}, text)


def staff_empty(text: Any, *, status: bool = False) -> VdomDict:
    """`p.staff-empty`: what a staff list says when it has nothing to show (`role=status` when it follows a
    change the member made, so it is read out)."""
    return html.p({"class_name": "staff-empty", **({"role": "status"} if status else {})}, text)


def staff_row(
    time: Any,
    title: Any,
    *meta: Any,
    after: Sequence[Any] = (),
    key: str | None = None,
    class_name: str | None = None,
    time_class: str | None = None,
) -> VdomDict:
    """`li.staff-row`: `span.staff-row-time` holding `time` (or its parts, a tuple), `div.staff-row-main` holding `title` (a string
    becomes a `span.staff-row-title`; an element keeps its own tag) over one `span.staff-row-meta` per
    `meta` (a tuple gives one line's parts), then `after` (a button, a badge)."""
    attributes: dict[str, Any] = {"class_name": classes("staff-row", class_name)}
    if key is not None:
        attributes["key"] = key
    title_element = html.span({"class_name": "staff-row-title"}, title) if isinstance(title, str) else title
    return html.li(
        attributes,
        html.span(
            {"class_name": classes("staff-row-time", time_class)},
            *(time if isinstance(time, tuple) else (time,)),
        ),
        html.div(
            {"class_name": "staff-row-main"},
            title_element,
            *(
                html.span({"class_name": "staff-row-meta"}, *(line if isinstance(line, tuple) else (line,)))
                for line in meta
            ),
        ),
        *after,
    )


def staff_list(*rows: Any, class_name: str | None = None) -> VdomDict:
    """`ul.staff-list`: the `staff_row`s of an agenda or a task list."""
    return html.ul({"class_name": classes("staff-list", class_name)}, *rows)
