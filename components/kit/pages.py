"""Links between the pages of a list whose page lives in the URL (links, so a page can be shared, reloaded
and opened in a new tab); nothing when everything fits on one page. `PageLinks`: Previous / "Page 2 of 5" /
Next, when the total is known; `NewerOlderLinks`: Newer / "Page 2" / Older, for a list read one page ahead
(newest first) without counting it. `page_param` reads the page from the search parameters and `list_href`
writes a list's address."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from reactpy import html
from reactpy.types import VdomDict


def page_param(params: dict[str, list[str]], *, last: int = 10_000) -> int:
    """The `page` search parameter: 1 when it is missing, not a number, or past `last`."""
    raw = (params.get("page") or ["1"])[0]
    return int(raw) if raw.isdigit() and 0 < int(raw) <= last else 1


def list_href(path: str, **params: Any) -> str:
    """`path` with these search parameters, empty ones and page 1 left out ("/staff/leads?status=new")."""
    kept = {k: v for k, v in params.items() if v and not (k == "page" and v == 1)}
    return f"{path}?{urlencode(kept)}" if kept else path


def PageLinks(  # noqa: N802 - a kit element, named like the components
    page: int, total: int, page_size: int, *, href: Callable[[int], str], label: str
) -> VdomDict | str:
    """Links to the pages around `page` (1-based) of `total` items, `page_size` a page; `href(n)` is page
    n's address and `label` names the navigation for screen readers ("Pages of orders")."""
    pages = max(1, -(-total // max(1, page_size)))
    if pages <= 1:
        return ""
    return html.nav(
        {"class_name": "page-links", "aria-label": label},
        html.a({"class_name": "btn btn-outline btn-sm", "href": href(page - 1)}, "Previous")
        if page > 1
        else "",
        html.span({"class_name": "hint"}, f"Page {page} of {pages}"),
        html.a({"class_name": "btn btn-outline btn-sm", "href": href(page + 1)}, "Next")
        if page < pages
        else "",
    )


def NewerOlderLinks(  # noqa: N802 - a kit element, named like the components
    page: int, has_more: bool, *, href: Callable[[int], str], label: str
) -> VdomDict | str:
    """Newer (page - 1) and Older (page + 1, when `has_more`) around `page` (1-based) of a newest-first
    list; `href(n)` is page n's address and `label` names the navigation for screen readers."""
    if page <= 1 and not has_more:
        return ""
    return html.nav(
        {"class_name": "page-links", "aria-label": label},
        html.a({"class_name": "btn btn-outline btn-sm", "href": href(page - 1)}, "Newer") if page > 1 else "",
        html.span({"class_name": "hint"}, f"Page {page}"),
        html.a({"class_name": "btn btn-outline btn-sm", "href": href(page + 1)}, "Older") if has_more else "",
    )
