"""The kit pieces for finding one's way through lists and detail pages: the breadcrumb trail and a detail
page's header band (components/kit/breadcrumbs.py), the two-column `split` (split.py), and a filter form's
actions and the Previous / Next pager (browse.py)."""

from __future__ import annotations

from components.kit import UserText, breadcrumbs, detail_header, filter_actions, pager, split
from tests.ui.harness import attrs, children, classes, find, find_all, text


def test_a_trail_links_up_and_marks_the_page_itself():
    trail = breadcrumbs(("Services", "/services"), ("Blood draws", None), current="Routine draw")
    assert trail["tagName"] == "nav" and classes(trail) == {"breadcrumbs"}
    assert attrs(trail)["aria-label"] == "Breadcrumb"
    assert [attrs(a)["href"] for a in find_all(trail, "a")] == ["/services"]
    assert attrs(find(trail, "span", text="Routine draw"))["aria-current"] == "page"
    chevrons = [e for e in find_all(trail, "span") if "i-chevron-right" in classes(e)]
    assert len(chevrons) == 2 and all(attrs(c)["aria-hidden"] == "true" for c in chevrons)
    assert text(trail) == "Services Blood draws Routine draw"


def test_the_current_page_may_be_an_element_of_its_own():
    trail = breadcrumbs(("Providers", "/providers"), current=UserText("Pat Lee", **{"aria-current": "page"}))
    assert attrs(find(trail, "bdi"))["aria-current"] == "page"


def test_a_detail_header_is_a_page_header_band_with_the_trail_first():
    band = detail_header(
        "facts", trail=(("Careers", "/careers"),), title="Nurse", lead="Come", class_name="x"
    )
    assert band["tagName"] == "section" and classes(band) == {"page-header", "x"}
    box = find(band, "div", class_="container")
    assert [c["tagName"] for c in children(box) if isinstance(c, dict)] == ["nav", "h1", "p"]
    assert classes(find(band, "p")) == {"lead"} and text(band) == "Careers Nurse Come facts"
    assert find_all(detail_header(trail=(), title=None), "h1") == []


def test_a_split_holds_the_main_column_then_its_aside():
    band = split("text", "more", aside="card", main_class="prose")
    assert band["tagName"] == "div" and classes(band) == {"split"}
    main = children(band)[0]
    assert classes(main) == {"prose"} and text(main) == "text more" and children(band)[1] == "card"
    assert attrs(children(split("a", aside="b"))[0]) == {}


def test_filter_actions_submit_and_clear():
    actions = filter_actions("Show visits", clear_href="/staff/appointments", clear_label="Clear filters")
    assert classes(actions) == {"audit-filter-actions"}
    assert (
        attrs(find(actions, "button"))["type"] == "submit" and text(find(actions, "button")) == "Show visits"
    )
    assert attrs(find(actions, "a"))["href"] == "/staff/appointments"
    assert find_all(filter_actions(), "a") == [] and text(filter_actions()) == "Search"


def test_a_pager_links_only_where_there_is_a_page():
    nav = pager("Staff pages", previous=None, following="/staff/team?page=2", status="Page 1")
    assert nav["tagName"] == "nav" and classes(nav) == {"staff-pager"}
    assert attrs(nav)["aria-label"] == "Staff pages" and text(nav) == "Page 1 Next page"
    assert [attrs(a)["href"] for a in find_all(nav, "a")] == ["/staff/team?page=2"]


def test_a_split_opens_with_the_band_heading_and_its_lead():
    band = split("steps", aside="card", title="How it works", lead="Three steps.")
    main = children(band)[0]
    assert [c["tagName"] if isinstance(c, dict) else c for c in children(main)] == ["h2", "p", "steps"]
    assert classes(find(main, "h2")) == {"section-title"} and classes(find(main, "p")) == {"text-muted"}
