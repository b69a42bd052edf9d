"""`Region`: a part of a screen named by its own heading, the shape under every titled panel (a profile's
"Reviews" card, a ticket's "Messages", a help topic, an agenda): the element (a `section` unless told)
points at its heading with `aria-labelledby`, so assistive technology lists it by that name. `StaffCard`
and `SettingsCard` are its two most common looks; `Region` takes any classes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

Tag = Literal["section", "aside", "article", "li", "div"]
Heading = Literal["h1", "h2", "h3", "h4"]


def Region(  # noqa: N802 - a kit element, named like the components
    title: Any,
    *children: Any,
    title_id: str,
    class_name: str | None = None,
    tag: Tag = "section",
    heading: Heading = "h2",
    title_class: str | None = None,
    head: Sequence[Any] = (),
    head_class: str | None = None,
    key: str | None = None,
    id: str | None = None,
    role: str | None = None,
) -> VdomDict:
    """`<{tag} aria-labelledby={title_id}>`: its `heading` (id `title_id`, class `title_class`) holding
    `title` (or its parts, a tuple: an icon and the words) first, then `children`. With `head_class` the
    heading sits in a `div.{head_class}` row with `head` beside it (a count, a badge, a button)."""
    attributes: dict[str, Any] = {"aria-labelledby": title_id}
    for name, value in (("class_name", class_name), ("key", key), ("id", id), ("role", role)):
        if value is not None:
            attributes[name] = value
    heading_attributes = {"id": title_id, **({"class_name": title_class} if title_class else {})}
    title_element = getattr(html, heading)(
        heading_attributes, *(title if isinstance(title, tuple) else (title,))
    )

    top = html.div({"class_name": head_class}, title_element, *head) if head_class else title_element
    return getattr(html, tag)(attributes, top, *children)
