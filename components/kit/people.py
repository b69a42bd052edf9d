"""`member_item`: one person or organization in a list of members (a company's team, its invitations, the
organizations staff look after): the name, a link when it opens more, over one line of detail (the e-mail,
the role and how long an invitation lasts, the kind and size), then what can be done with it (a badge and a
Remove button, a Withdraw button). The list is a `ul.corp-member-list`."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict


def member_item(name: Any, detail: Any, *after: Any, key: str, href: str | None = None) -> VdomDict:
    """`li.corp-member`: `span.corp-member-name` (`a.corp-member-name` with `href`) holding `name` (or its
    parts, a tuple), a line break and `span.corp-member-email` holding `detail`, then `after`."""
    name_attributes = {"class_name": "corp-member-name", **({"href": href} if href else {})}
    name_parts = name if isinstance(name, tuple) else (name,)
    return html.li(
        {"class_name": "corp-member", "key": key},
        html.div(
            (html.a if href else html.span)(name_attributes, *name_parts),
            html.br(),
            html.span({"class_name": "corp-member-email"}, detail),
        ),
        *after,
    )
