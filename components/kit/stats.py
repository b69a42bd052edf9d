"""`stat_group`: a row of dashboard figures (`StatCard`s), named for assistive technology by what they
count ("Today at a glance", "Your balances"); `.staff-stats` lays them out as tiles."""

from __future__ import annotations

from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes


def stat_group(
    *cards: Any, label: str | None, class_name: str | None = None, tag: Literal["section", "div"] = "section"
) -> VdomDict:
    """`section.staff-stats` (or `tag`) named `label` (aria-label; None for a row that a heading above
    already names), holding `cards`."""
    attributes: dict[str, Any] = {"class_name": classes("staff-stats", class_name)}
    if label is not None:
        attributes["aria-label"] = label
    return getattr(html, tag)(attributes, *cards)
