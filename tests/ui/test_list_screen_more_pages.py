"""The list-screen pattern's pieces for lists the services do not count (components/kit/list_screen.py):
`MorePages` links the pages around this one from `ListQuery.page_href`, and `text_param(squash=True)` reads
a search as the staff lists keep it (one space between words)."""

from __future__ import annotations

from components.kit import ListQuery, text_param
from components.kit.list_screen import MorePages
from tests.ui.harness import attrs, find_all, text


def test_more_pages_links_the_pages_around_this_one_with_the_filters():
    url = ListQuery("/staff/documents", {"standing": "expired", "kind": ""})
    middle = MorePages(2, True, href=url.page_href, label="Document pages")
    assert attrs(middle)["aria-label"] == "Document pages" and text(middle) == "Previous page Next page"
    assert [attrs(a)["href"] for a in find_all(middle, "a")] == [
        "/staff/documents?standing=expired",
        "/staff/documents?standing=expired&page=3",
    ]
    last = MorePages(3, False, href=url.page_href, label="Document pages", status="Page 3")
    assert text(last) == "Previous page Page 3"
    assert [attrs(a)["href"] for a in find_all(last, "a")] == ["/staff/documents?standing=expired&page=2"]
    assert find_all(MorePages(1, False, href=url.page_href, label="Document pages"), "a") == []


def test_a_squashed_search_keeps_one_space_between_words():
    params = {"q": ["  Jordan \t  Lee  "]}
    assert text_param(params, "q", limit=100, squash=True) == "Jordan Lee"
    assert text_param(params, "q", limit=8, squash=True) == "Jordan L"
    assert text_param(params, "q", limit=100) == "Jordan \t  Lee"
