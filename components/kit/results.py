"""`no_results`: what a search shows when nothing matched — a heading that says so, then what to try (other
words, other filters, a link to clear them). The kit's `empty_state` is a list with nothing in it yet;
this one answers a search, under a heading of its own."""

from __future__ import annotations

from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict


def no_results(
    title: Any,
    *body: Any,
    heading: Literal["h2", "h3"] = "h3",
    class_name: str = "empty-state",
    key: str | None = None,
    status: bool = False,
) -> VdomDict:
    """`div.{class_name}` (`role="status"` when `status`, so the answer is read out): the `heading`
    holding `title`, then `body`."""
    attributes: dict[str, Any] = {"class_name": class_name}
    if key is not None:
        attributes["key"] = key
    if status:
        attributes["role"] = "status"
    return html.div(attributes, getattr(html, heading)(title), *body)
