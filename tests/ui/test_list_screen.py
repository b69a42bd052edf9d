"""The kit's list-screen pattern (components/kit/list_screen.py): the URL holds the tab, the filters and the
page; the search form, the page of items with its pager, and the refusal line, as the staff lists use them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from components.kit import (
    ListQuery,
    PagedItems,
    SearchForm,
    StatusTabs,
    browser_field,
    button_link,
    choice_param,
    form_error,
    text_param,
)
from tests.ui.harness import attrs, classes, find, find_all, text


@dataclass(frozen=True)
class _Page:
    items: list[Any] = field(default_factory=list)
    total: int = 0
    page: int = 1
    page_size: int = 20


def test_filters_are_read_from_the_url_and_anything_else_is_refused():
    params = {"status": ["won"], "q": ["  MS-12  "], "tab": ["<script>"]}
    assert choice_param(params, "status", {"new", "won"}) == "won"
    assert choice_param(params, "tab", {"queue", "log"}, default="queue") == "queue"
    assert choice_param({}, "status", {"new"}) == ""
    assert text_param(params, "q", limit=4) == "MS-1"
    assert text_param({}, "q", limit=16) == ""


def test_links_keep_the_filters_and_a_changed_filter_starts_at_page_one():
    url = ListQuery("/staff/store-orders", {"status": "shipped", "q": "MS-1"})
    assert url.page_href(3) == "/staff/store-orders?status=shipped&q=MS-1&page=3"
    assert url.tab_href("status")("delivered") == "/staff/store-orders?status=delivered&q=MS-1"
    assert url.href(q="") == "/staff/store-orders?status=shipped"
    assert url.page_href(1) == "/staff/store-orders?status=shipped&q=MS-1"


def test_a_default_filter_is_left_out_of_the_links():
    url = ListQuery("/staff/ads", {"status": "review"}, defaults={"status": "review"})
    assert url.tab_href("status")("review") == "/staff/ads"
    assert url.tab_href("status")("all") == "/staff/ads?status=all"
    assert url.page_href(2) == "/staff/ads?page=2"


def test_status_tabs_label_their_panel():
    view = StatusTabs(
        (("", "All"), ("new", "New")),
        "new",
        "the list",
        label="Lead status",
        href=ListQuery("/staff/leads").tab_href("status"),
        id="leads-by",
        panel_class="corp",
    )
    tab = find(view, "a", **{"aria-selected": "true"})
    assert attrs(tab)["href"] == "/staff/leads?status=new"
    panel = find(view, role="tabpanel")
    assert attrs(panel)["aria-labelledby"] == attrs(tab)["id"] == "leads-by-tab-new"
    assert classes(panel) == {"tab-panel", "corp"}
    assert text(panel) == "the list"


def test_the_search_form_is_a_get_form_to_the_list_with_its_hidden_filters():
    form = SearchForm(
        browser_field("Order number", "q", value="MS-1", type="search", id_prefix="orders"),
        action="/staff/store-orders",
        label="Find an order",
        key="search shipped MS-1",
        hidden={"status": "shipped", "empty": ""},
        clear_href="/staff/store-orders?status=shipped",
    )
    assert attrs(form)["method"] == "get" and attrs(form)["action"] == "/staff/store-orders"
    assert attrs(form)["role"] == "search" and attrs(form)["aria-label"] == "Find an order"
    hidden = find_all(form, "input", type="hidden")
    assert [(attrs(h)["name"], attrs(h)["value"]) for h in hidden] == [("status", "shipped")]
    assert attrs(find(form, "button"))["type"] == "submit"
    assert attrs(find(form, "a", "Clear"))["href"] == "/staff/store-orders?status=shipped"


def test_a_page_of_items_has_its_pager_and_an_empty_page_its_note():
    shown = PagedItems(
        _Page(items=[1, 2], total=45, page=2),
        "two items",
        empty="Nothing here.",
        href=ListQuery("/staff/leads").page_href,
        label="Pages of leads",
    )
    nav = find(shown, "nav", **{"aria-label": "Pages of leads"})
    assert "Page 2 of 3" in text(nav)
    assert [attrs(a)["href"] for a in find_all(nav, "a")] == ["/staff/leads", "/staff/leads?page=3"]
    empty = PagedItems(_Page(), "x", empty="Nothing here.", href=str, label="Pages", empty_class="empty-note")
    assert empty["tagName"] == "p" and classes(empty) == {"empty-note"} and text(empty) == "Nothing here."


def test_the_refusal_line_is_an_alert_only_when_there_is_one():
    assert form_error("") == ""
    line = form_error("That order was already shipped.")
    assert attrs(line)["role"] == "alert" and classes(line) == {"form-error"}


def test_a_button_link_is_a_link_styled_as_a_button():
    link = button_link("View contract", "/staff/contracts", variant="outline", size="sm", key="c")
    assert link["tagName"] == "a" and classes(link) == {"btn", "btn-outline", "btn-sm"}
    assert attrs(link)["href"] == "/staff/contracts"
