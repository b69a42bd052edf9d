"""`link_list`: a plain list of links — what a card offers ("What we offer"), a legal text's contents, the
sources an answer came from: one `li` a link, an icon before its words when the list has one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon


def link_list(
    links: Iterable[tuple[Any, str]],
    *,
    class_name: str | None = None,
    numbered: bool = False,
    icon_name: str | None = None,
) -> VdomDict:
    """`ul.{class_name}` (an `ol` when `numbered`): for each (label, href) an `li` (keyed by the href)
    holding an `a` to href, the `icon_name` icon (14 px) before the label when given."""
    return (html.ol if numbered else html.ul)(
        {"class_name": class_name} if class_name else {},
        *(
            html.li(
                {"key": href},
                html.a({"href": href}, *((icon(icon_name, size=14),) if icon_name else ()), label),
            )
            for label, href in links
        ),
    )
