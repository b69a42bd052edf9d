"""`band`: one horizontal band of a public page — a `section.section` holding the page's `container` — when
the band has classes of its own (the search layout, the chat, a legal text's two columns, the loading
look of checkout). The kit's `section` is the plain titled band; this one takes a screen's classes on
the band and on its container, and no heading."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes


def band(
    *children: Any,
    class_name: str | None = None,
    container_class: str | None = None,
    label: str | None = None,
    container_role: str | None = None,
    id: str | None = None,
    key: str | None = None,
) -> VdomDict:
    """`section.section.{class_name}` (named `label`, an aria-label; `id` its anchor) holding a
    `div.container.{container_class}` (with `container_role`, e.g. "status") that holds `children`."""
    outer: dict[str, Any] = {"class_name": classes("section", class_name)}
    for name, value in (("aria-label", label), ("id", id), ("key", key)):
        if value is not None:
            outer[name] = value
    inner: dict[str, Any] = {"class_name": classes("container", container_class)}
    if container_role is not None:
        inner["role"] = container_role
    return html.section(outer, html.div(inner, *children))
