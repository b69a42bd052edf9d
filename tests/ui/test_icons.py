"""Icons are one element each, drawn by static/css/icons.css, which must match components/icons.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.icons import SIZES, icon, stylesheet

ICONS_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "icons.css"


def test_the_stylesheet_is_written_from_the_icon_table() -> None:
    assert ICONS_CSS.read_text() == stylesheet(), "run: python -m components.icons > static/css/icons.css"


def test_an_icon_is_one_element_hidden_from_screen_readers_unless_labelled() -> None:
    decorative = icon("cart", size=18)
    assert decorative == {
        "tagName": "span",
        "attributes": {"class_name": "icon i-cart icon-18", "aria-hidden": "true"},
    }
    labelled = icon("star-filled", size=16, label="Rated")
    assert dict(labelled["attributes"]) == {
        "class_name": "icon i-star-filled icon-16",
        "role": "img",
        "aria-label": "Rated",
    }
    for size in SIZES:
        assert f".icon-{size} {{ width: {size}px; height: {size}px; }}" in stylesheet()


@pytest.mark.parametrize(("name", "size"), [("no-such-icon", 18), ("cart", 19)])
def test_an_unknown_icon_or_size_fails_loudly(name: str, size: int) -> None:
    with pytest.raises((KeyError, ValueError)):
        icon(name, size=size)
