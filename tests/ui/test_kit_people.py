"""The kit's `member_item` (components/kit/people.py): a person or an organization in a list of members,
the name over one line of detail, then what can be done with it."""

from __future__ import annotations

from components.kit import member_item
from tests.ui.harness import attrs, children, classes, find, text


def test_a_member_is_a_name_over_its_detail_then_the_actions():
    item = member_item(("Pat Lee", " (you)"), "pat@example.test", "Remove", key="u1")
    assert item["tagName"] == "li" and classes(item) == {"corp-member"} and item["key"] == "u1"
    who = children(item)[0]
    assert [c["tagName"] for c in children(who)] == ["span", "br", "span"]
    assert text(find(item, "span", class_="corp-member-name")) == "Pat Lee (you)"
    assert text(find(item, "span", class_="corp-member-email")) == "pat@example.test"
    assert children(item)[1] == "Remove"


def test_with_an_href_the_name_is_a_link():
    item = member_item("Acme", "Company · 3 members", key="o1", href="/staff/organizations?id=o1")
    link = find(item, "a")
    assert classes(link) == {"corp-member-name"} and attrs(link)["href"] == "/staff/organizations?id=o1"
