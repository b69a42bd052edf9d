"""The kit's `Region` (components/kit/region.py): a part of a screen named by its own heading, with the
heading alone or in a head row beside a count or a button, and `status_card` (status_card.py), built on it."""

from __future__ import annotations

from components.kit import Region, status_card
from tests.ui.harness import attrs, children, classes, find, text


def test_a_region_is_named_by_its_heading():
    region = Region("Reviews", "the list", title_id="reviews-title", class_name="card profile-card")
    assert region["tagName"] == "section" and classes(region) == {"card", "profile-card"}
    heading = children(region)[0]
    assert heading["tagName"] == "h2" and attrs(heading) == {"id": "reviews-title"}
    assert attrs(region)["aria-labelledby"] == "reviews-title" and text(region) == "Reviews the list"


def test_the_tag_the_heading_level_and_its_class_are_chosen():
    region = Region(
        "Messages", title_id="t", tag="aside", heading="h3", title_class="card-title", role="status", id="m"
    )
    assert region["tagName"] == "aside" and attrs(region)["role"] == "status" and attrs(region)["id"] == "m"
    assert classes(find(region, "h3")) == {"card-title"} and "class_name" not in attrs(region)


def test_a_head_row_holds_the_heading_and_what_goes_beside_it():
    region = Region(
        "My tickets", "body", title_id="t", head_class="support-card-head", head=("New",), key="k"
    )
    head = children(region)[0]
    assert head["tagName"] == "div" and classes(head) == {"support-card-head"}
    assert [c["tagName"] if isinstance(c, dict) else c for c in children(head)] == ["h2", "New"]
    assert region["key"] == "k" and text(region) == "My tickets New body"


def test_a_title_may_come_in_parts():
    region = Region(("icon", "Service area"), title_id="area")
    assert children(find(region, "h2")) == ["icon", "Service area"]


def test_a_status_card_is_a_listed_card_with_its_badge_beside_the_title():
    card = status_card("Blood draw", "Open", "details", title_id="r1-title", key="r1")
    assert card["tagName"] == "li" and classes(card) == {"card", "request-card"} and card["key"] == "r1"
    head = find(card, "div", class_="request-card-head")
    assert classes(find(head, "h3")) == {"card-title"} and text(head) == "Blood draw Open"
    assert attrs(card)["aria-labelledby"] == "r1-title" and text(card) == "Blood draw Open details"
