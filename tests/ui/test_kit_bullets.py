"""The kit's `bullets` (components/kit/bullets.py): a plain list of short lines, each keyed by its text."""

from __future__ import annotations

from components.kit import bullets
from tests.ui.harness import attrs, children, classes


def test_bullets_are_one_item_a_line():
    listing = bullets(("Fast for 8 hours", "Bring your ID"), class_name="prep-list")
    assert listing["tagName"] == "ul" and classes(listing) == {"prep-list"}
    items = children(listing)
    assert [i["tagName"] for i in items] == ["li", "li"] and [i["key"] for i in items] == [
        "Fast for 8 hours",
        "Bring your ID",
    ]
    assert children(items[1]) == ["Bring your ID"] and attrs(bullets([])) == {}
