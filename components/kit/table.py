"""`DataTable`: a captioned table with sortable headers, pagination and an empty state.

Markup of the staff tables (`table.staff-table`, `th[scope=col]`, `td[data-label]` so the rows become
cards on small screens) and the pager of the provider lists (`nav.pagination`, "Page 2 of 5").

Sorting and paging are either URL-driven (`sort_href(key, direction)`, `page_href(page)`: links, so the
back button and a shared link keep the view) or callbacks (`on_sort(key, direction)`, `on_page(page)`).
At most 100 rows are ever rendered (reactpy 1.1 re-sends whole subtrees): `page_size` is clamped to 1…100.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import Handler, call, classes

MAX_PAGE_SIZE = 100
Direction = Literal["asc", "desc"]
ARIA_SORT = {"asc": "ascending", "desc": "descending"}


@dataclass(frozen=True)
class Column:
    """One column: `key` names the value (a mapping key or an attribute of the row) and the sort key;
    `render(row)` overrides how a cell shows; `numeric` right-aligns it with tabular figures; `class_name` is added to its cells."""

    key: str
    label: str
    render: Callable[[Any], Any] | None = None
    sortable: bool = False
    numeric: bool = False
    class_name: str | None = None

    def cell(self, row: Any) -> Any:
        if self.render is not None:
            return self.render(row)
        value = row.get(self.key) if isinstance(row, Mapping) else getattr(row, self.key, None)
        return "" if value is None else str(value)


def clamp_page_size(page_size: int) -> int:
    """1 ≤ page size ≤ 100."""
    return max(1, min(int(page_size), MAX_PAGE_SIZE))


def page_count(total: int, page_size: int) -> int:
    """How many pages `total` rows fill (at least 1)."""
    return max(1, math.ceil(max(total, 0) / clamp_page_size(page_size)))


def next_direction(column: str, sort_key: str | None, sort_dir: Direction) -> Direction:
    """The direction a click on `column` asks for: the other one on the sorted column, else ascending."""
    return ("desc" if sort_dir == "asc" else "asc") if column == sort_key else "asc"


def _header(
    column: Column,
    sort_key: str | None,
    sort_dir: Direction,
    on_sort: Handler | None,
    sort_href: Callable[[str, Direction], str] | None,
) -> VdomDict:
    attributes: dict[str, Any] = {"scope": "col", "key": column.key}
    if column.numeric:
        attributes["class_name"] = "is-numeric"
    sortable = column.sortable and (on_sort is not None or sort_href is not None)
    if not sortable:
        return html.th(attributes, column.label)
    sorted_here = column.key == sort_key
    if sorted_here:
        attributes["aria-sort"] = ARIA_SORT[sort_dir]
    direction = next_direction(column.key, sort_key, sort_dir)
    indicator = html.span(
        {"class_name": "th-sort-icon", "aria-hidden": "true"},
        ("▲" if sort_dir == "asc" else "▼") if sorted_here else "↕",
    )
    if sort_href is not None:
        control = html.a(
            {"class_name": "th-sort", "href": sort_href(column.key, direction)}, column.label, indicator
        )
    else:

        async def sort(_event: dict) -> None:
            await call(on_sort, column.key, direction)

        control = html.button(
            {"class_name": "th-sort", "type": "button", "on_click": sort}, column.label, indicator
        )
    return html.th(attributes, control)


def _pager(
    page: int,
    pages: int,
    label: str,
    on_page: Handler | None,
    page_href: Callable[[int], str] | None,
) -> Any:
    if pages <= 1 or (on_page is None and page_href is None):
        return ""

    def step(target: int, text: str, rel: str, arrow: str) -> VdomDict:
        parts = (icon(arrow, size=16), text) if rel == "prev" else (text, icon(arrow, size=16))
        if target < 1 or target > pages:
            return html.span(
                {"class_name": "btn btn-sm btn-outline is-disabled", "aria-disabled": "true", "key": rel},
                *parts,
            )
        if page_href is not None:
            return html.a(
                {"class_name": "btn btn-sm btn-outline", "href": page_href(target), "rel": rel, "key": rel},
                *parts,
            )

        async def go(_event: dict) -> None:
            await call(on_page, target)

        return html.button(
            {"class_name": "btn btn-sm btn-outline", "type": "button", "on_click": go, "key": rel}, *parts
        )

    return html.nav(
        {"class_name": "pagination table-pager", "aria-label": label},
        step(page - 1, "Previous", "prev", "arrow-left"),
        html.span({"class_name": "page-status", "aria-live": "polite"}, f"Page {page} of {pages}"),
        step(page + 1, "Next", "next", "arrow-right"),
    )


def DataTable(  # noqa: N802 - a kit element, named like the components
    columns: Sequence[Column],
    rows: Sequence[Any],
    *,
    caption: str,
    sort_key: str | None = None,
    sort_dir: Direction = "asc",
    on_sort: Handler | None = None,
    sort_href: Callable[[str, Direction], str] | None = None,
    page: int = 1,
    page_size: int = 20,
    total: int | None = None,
    on_page: Handler | None = None,
    page_href: Callable[[int], str] | None = None,
    empty: Any = "Nothing to show.",
    row_key: Callable[[Any], Any] | None = None,
    row_class: Callable[[Any], str | None] | None = None,
    show_caption: bool = False,
    pager_label: str | None = None,
    class_name: str = "staff-table",
) -> VdomDict:
    """The table.

    - `rows`: this page's rows when `total` is given (server-side paging), else every row (paged here);
      never more than `page_size` (≤ 100) are rendered.
    - sortable columns get a button (or link) in their header; the sorted one has `aria-sort`. A click
      asks for the other direction on the sorted column, ascending on another: `on_sort(key, direction)`
      / `sort_href(key, direction)`. Sorting the rows is the caller's (the service's) job.
    - `page` is clamped into 1…pages; Previous/Next call `on_page(page)` or link to `page_href(page)`.
    - no rows: the table is replaced by `empty` (a string becomes the staff screens' `p.staff-empty`).
    - `row_class(row)` gives a row's class (e.g. "staff-inactive"), when given.
    - `caption` names the table for screen readers (visible with `show_caption`)."""
    size = clamp_page_size(page_size)
    if total is None:
        total = len(rows)
        pages = page_count(total, size)
        page = max(1, min(int(page), pages))
        shown = list(rows[(page - 1) * size : page * size])
    else:
        pages = page_count(total, size)
        page = max(1, min(int(page), pages))
        shown = list(rows[:size])
    pager = _pager(page, pages, pager_label or f"{caption} pages", on_page, page_href)
    if not shown:
        return html.div(
            {"class_name": "data-table"},
            html.p({"class_name": "staff-empty"}, empty) if isinstance(empty, str) else empty,
            pager,
        )
    key_of = row_key or (lambda row: None)
    return html.div(
        {"class_name": "data-table"},
        html.div(
            {"class_name": "table-scroll"},
            html.table(
                {"class_name": class_name},
                html.caption({"class_name": "" if show_caption else "sr-only"}, caption),
                html.thead(html.tr(*(_header(c, sort_key, sort_dir, on_sort, sort_href) for c in columns))),
                html.tbody(
                    *(
                        html.tr(
                            {
                                "key": str(key_of(row) if key_of(row) is not None else index),
                                **({"class_name": row_class(row) or ""} if row_class is not None else {}),
                            },
                            *(
                                html.td(
                                    {
                                        "key": c.key,
                                        "data-label": c.label,
                                        **(
                                            {
                                                "class_name": classes(
                                                    "is-numeric" if c.numeric else None, c.class_name
                                                )
                                            }
                                            if c.numeric or c.class_name
                                            else {}
                                        ),
                                    },
                                    c.cell(row),
                                )
                                for c in columns
                            ),
                        )
                        for index, row in enumerate(shown)
                    )
                ),
            ),
        ),
        pager,
    )
