"""The staff list screen's pattern: a list whose state lives in the URL (status tabs, filters, page), shown as
a status tab list over its panel, a search form, the page of items (or a table) with its pager, and a dialog
to edit one item.

- `ListQuery`: the list's address and its current filters; `href(**changes)` writes a link (a changed
  filter starts again at page 1), `tab_href(name)` the tabs' links, `page_href(n)` the pager's.
  `choice_param` and `text_param` read the filters from `use_search_params()`, refusing anything else.
- `StatusTabs`: `Tabs` (URL-driven) and the selected tab's `TabPanel` in one call.
- `SearchForm`: the GET form of a list's filters (`role="search"`): the browser sends it to the list's own
  address, client-side (static/js/app.js), so the filters land in the URL and a reload or a shared link
  keeps them; Search, and Clear when given.
- `PagedItems`: one page of items, an empty note when there are none, and `PageLinks` under them.
- `MorePages`: Previous page / Next page for a list that is not counted (the service says only whether
  another page follows), the kit's `pager` with `query.page_href`'s links.
- `form_error`: the line (`p.form-error[role=alert]`) where a screen says why the service refused.
The dialog is the kit's `Dialog`; the table is `DataTable` (with `page_href=query.page_href`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from reactpy import html
from reactpy.types import VdomDict

from components import browser
from components.kit._util import classes
from components.kit.browse import pager
from components.kit.buttons import Button
from components.kit.pages import PageLinks, list_href
from components.kit.tabs import TabPanel, Tabs

Params = Mapping[str, list[str]]


def text_param(params: Params, name: str, *, limit: int, squash: bool = False) -> str:
    """The search parameter `name`, stripped and cut to `limit` characters ("" when missing); `squash` also
    makes each run of spaces inside it one space (before the cut)."""
    value = (params.get(name) or [""])[0]
    return (" ".join(value.split()) if squash else value.strip())[:limit]


def choice_param(params: Params, name: str, choices: Collection[str], *, default: str = "") -> str:
    """The search parameter `name` when it is one of `choices`, else `default`."""
    value = (params.get(name) or [""])[0].strip()[:64]
    return value if value in choices else default


@dataclass(frozen=True)
class ListQuery:
    """A list's address (`path`) and its current `filters`; a filter equal to its entry in `defaults` is
    left out of the links, as are empty ones and page 1."""

    path: str
    filters: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)

    def href(self, **changes: Any) -> str:
        """The list's address with these filters changed (page 1 unless `page` is given)."""
        values = {**self.filters, **changes}
        return list_href(
            self.path, **{k: v for k, v in values.items() if k not in self.defaults or v != self.defaults[k]}
        )

    def tab_href(self, name: str) -> Callable[[str], str]:
        """The links of tabs that set the filter `name`."""
        return lambda key: self.href(**{name: key})

    def page_href(self, page: int) -> str:
        """The address of page `page` with the current filters."""
        return self.href(page=page)


def StatusTabs(  # noqa: N802 - a kit element, named like the components
    tabs: Any,
    selected: str,
    *panel: Any,
    label: str,
    href: Callable[[str], str],
    id: str,
    class_name: str = "tabs",
    panel_class: str | None = None,
) -> VdomDict:
    """The tab list (links from `href(key)`) and the selected tab's panel holding `panel`."""
    return html._(
        Tabs(tabs, selected, label=label, href=href, id=id, class_name=class_name),
        TabPanel(selected, *panel, id=id, class_name=panel_class),
    )


def SearchForm(  # noqa: N802 - a kit element, named like the components
    *fields: Any,
    action: str,
    label: str,
    key: str,
    hidden: Mapping[str, str] | None = None,
    clear_href: str | None = None,
    class_name: str = "form audit-filters",
    actions_class: str = "audit-filter-actions",
) -> VdomDict:
    """A list's filters as a GET form to `action` (the list's path); `label` names the search landmark;
    `key` changes with the filters in the URL, so the form is rebuilt with them after a search; `hidden`
    filters travel along (e.g. the selected tab); Clear links to `clear_href`."""
    return html.form(
        {
            "key": key,
            "class_name": class_name,
            "method": "get",
            "action": action,
            "role": "search",
            "aria-label": label,
            **browser.client_get_form(),
        },
        *(
            html.input({"type": "hidden", "name": name, "value": value, "key": f"hidden-{name}"})
            for name, value in (hidden or {}).items()
            if value
        ),
        *fields,
        html.div(
            {"class_name": actions_class},
            Button("Search", type="submit", icon="search"),
            html.a({"class_name": "btn btn-outline", "href": clear_href}, "Clear") if clear_href else "",
        ),
    )


class Page(Protocol):
    """A page of a list as the services return it (`XPage`): its items and where it stands (most also
    carry their `page_size`)."""

    @property
    def items(self) -> Any: ...
    @property
    def total(self) -> int: ...
    @property
    def page(self) -> int: ...


def PagedItems(  # noqa: N802 - a kit element, named like the components
    data: Page,
    *body: Any,
    empty: Any,
    href: Callable[[int], str],
    label: str,
    empty_class: str = "hint",
    page_size: int | None = None,
) -> Any:
    """`body` (this page's items) and the links to the other pages (`label` names them: "Pages of leads");
    `empty` when the page has no items (a string becomes a `p.{empty_class}`). `page_size` is the page's
    own unless given (for pages that do not carry it)."""
    if not data.items:
        return html.p({"class_name": empty_class}, empty) if isinstance(empty, str) else empty
    size = page_size if page_size is not None else data.page_size  # type: ignore[attr-defined]
    return html._(*body, PageLinks(data.page, data.total, size, href=href, label=label))


def MorePages(  # noqa: N802 - a kit element, named like the components
    page: int,
    has_more: bool,
    *,
    href: Callable[[int], str],
    label: str,
    status: Any = None,
) -> VdomDict:
    """`nav.staff-pager` named `label`: Previous page (from page 2 on) and Next page (when `has_more`),
    `href(n)` page n's address, `status` between them."""
    return pager(
        label,
        previous=href(page - 1) if page > 1 else None,
        following=href(page + 1) if has_more else None,
        status=status,
    )


def form_error(problem: Any, *, class_name: str | None = None) -> Any:
    """Why the service refused (`p.form-error`, an alert read out at once); nothing without a problem."""
    if not problem:
        return ""
    return html.p({"class_name": classes("form-error", class_name), "role": "alert"}, problem)
