"""How a staff screen names one of its items: `item_title`, the item's title (a link to it when it opens,
`a.handbook-link`) over one muted line of detail (a job's team, an article's summary, an applicant's
e-mail) in a list or a table; `meta_line`, the line of facts under an opened item's heading (a ticket's
number, when it was created and by whom; an application's status, type, date and e-mail), laid out as a
wrapping row by its class (`.ticket-meta`, `.verify-meta`)."""

from __future__ import annotations

from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes


def item_title(
    title: Any,
    detail: Any = None,
    *,
    href: str | None = None,
    detail_class: str | None = None,
    tag: Literal["div", "li"] = "div",
    key: str | None = None,
) -> VdomDict:
    """`<{tag}>`: `title` (in `a.handbook-link` with `href`; else as it is, e.g. a `UserText`), then
    `p.text-muted` (plus `detail_class`) holding `detail` unless it is None."""
    return getattr(html, tag)(
        {"key": key} if key is not None else {},
        html.a({"href": href, "class_name": "handbook-link"}, title) if href is not None else title,
        html.p({"class_name": classes("text-muted", detail_class)}, detail) if detail is not None else "",
    )


def meta_line(*parts: Any, class_name: str) -> VdomDict:
    """`p.{class_name}`: each part in order, empty ones left out: text (or a tuple of text and elements)
    in its own `span`, an element (a badge, a `span` with a class of its own) as it is."""
    return html.p(
        {"class_name": class_name},
        *(
            part if isinstance(part, dict) else html.span(*(part if isinstance(part, tuple) else (part,)))
            for part in parts
            if part not in ("", None)
        ),
    )
