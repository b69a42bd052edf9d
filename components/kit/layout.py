"""Page layout: `section` (a titled band of a page, in a container), `grid` (equal columns), `card` (a
public page's card), `portal_page` and `portal_body` (a signed-in screen and the container under its
header), and the titled panels of the signed-in screens: `StaffCard` (staff portal) and `SettingsCard`
(dashboard settings)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import classes


def section(*children: Any, title: str | None = None, id: str | None = None, muted: bool = False) -> VdomDict:
    """`section.section` (`section-muted` for the tinted band) holding a container and an optional h2."""
    attributes: dict[str, Any] = {"class_name": "section" + (" section-muted" if muted else "")}
    if id:
        attributes["id"] = id
    return html.section(
        attributes,
        html.div(
            {"class_name": "container"},
            html.h2({"class_name": "section-title"}, title) if title else "",
            *children,
        ),
    )


def grid(*children: Any, columns: int = 3) -> VdomDict:
    """`div.grid.grid-{columns}`: the children in equal columns (one column on small screens)."""
    return html.div({"class_name": f"grid grid-{columns}"}, *children)


def card(
    *children: Any,
    icon_name: str | None = None,
    title: str | None = None,
    href: str | None = None,
    media: Any = None,
) -> VdomDict:
    """A card; `media` (e.g. components.illustrations.illustration) goes first, above the icon and title.
    With `href` the whole card is one link."""
    body = [
        media if media is not None else "",
        html.span({"class_name": "card-icon"}, icon(icon_name, size=22)) if icon_name else "",
        html.h3({"class_name": "card-title"}, title) if title else "",
        *children,
    ]
    if href:
        return html.a({"class_name": "card card-link", "href": href}, *body)
    return html.div({"class_name": "card"}, *body)


def StaffCard(  # noqa: N802 - a kit element, named like the components
    title: Any,
    *children: Any,
    title_id: str,
    head: Sequence[Any] = (),
    head_class: str | None = None,
    class_name: str | None = None,
    key: str | None = None,
    id: str | None = None,
) -> VdomDict:
    """`section.staff-card` named by its h2 (`title_id`), in a head row with `head` beside it (a count, a
    button), then `children`."""
    attributes: dict[str, Any] = {
        "class_name": classes("staff-card", class_name),
        "aria-labelledby": title_id,
    }
    if key is not None:
        attributes["key"] = key
    if id is not None:
        attributes["id"] = id
    return html.section(
        attributes,
        html.div(
            {"class_name": classes("staff-card-head", head_class)},
            html.h2({"id": title_id}, title),
            *head,
        ),
        *children,
    )


def SettingsCard(  # noqa: N802 - a kit element, named like the components
    title: Any, *children: Any, title_id: str, class_name: str | None = None, key: str | None = None
) -> VdomDict:
    """`section.settings-card` named by its `h2.settings-title` (`title_id`), then `children`."""
    attributes: dict[str, Any] = {
        "class_name": classes("settings-card", class_name),
        "aria-labelledby": title_id,
    }
    if key is not None:
        attributes["key"] = key
    return html.section(
        attributes, html.h2({"id": title_id, "class_name": "settings-title"}, title), *children
    )


def portal_body(*children: Any, class_name: str | None = None) -> VdomDict:
    """`div.container.portal-body`: the body of a signed-in screen, under its `portal_header`."""
    return html.div({"class_name": classes("container portal-body", class_name)}, *children)


def portal_page(*children: Any) -> VdomDict:
    """`div.portal`: a signed-in screen, its `portal_header` first."""
    return html.div({"class_name": "portal"}, *children)
