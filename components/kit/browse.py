"""Moving through a list the URL describes: `filter_actions` (a filter form's submit button and the link
that clears it) and `pager` (Previous / Next page links, for lists whose service says whether there is
more instead of counting pages)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit.buttons import Button
from components.kit.links import button_link


def filter_actions(
    label: str = "Search",
    *,
    clear_href: str | None = None,
    clear_label: str = "Clear",
    icon: str | None = "search",
) -> VdomDict:
    """`div.audit-filter-actions`: the submit button (`label`), then an outline link back to the
    unfiltered list when `clear_href` is given."""
    return html.div(
        {"class_name": "audit-filter-actions"},
        Button(label, type="submit", icon=icon),
        button_link(clear_label, clear_href, variant="outline") if clear_href else "",
    )


def pager(
    label: str,
    *,
    previous: str | None,
    following: str | None,
    status: Any = None,
    previous_label: str = "Previous page",
    next_label: str = "Next page",
) -> VdomDict:
    """`nav.staff-pager` named `label`: a small outline link to the `previous` page and one to the
    `following` page, each only where there is one, with `status` ("Page 2 of 5") between them."""
    return html.nav(
        {"class_name": "staff-pager", "aria-label": label},
        button_link(previous_label, previous, variant="outline", size="sm") if previous else "",
        status if status is not None else "",
        button_link(next_label, following, variant="outline", size="sm") if following else "",
    )
