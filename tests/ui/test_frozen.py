"""`frozen` (components/kit/static.py): markup that never changes, held as one element whose content is
HTML the browser inserts as is — the same DOM as the live elements would make, escaped the same way."""

from __future__ import annotations

import pytest
from reactpy import html

from components.html_writer import model_to_html
from components.kit import frozen


def test_the_content_is_written_once_as_html_and_the_element_keeps_its_tag_and_attributes() -> None:
    nav = html.nav(
        {"class_name": "primary-nav", "aria-label": "Main", "key": "nav"},
        html.a({"href": "/services?a=1&b=2"}, "Services & prices"),
        "<script>alert(1)</script>",
    )
    held = frozen(nav)
    assert held["tagName"] == "nav" and held["key"] == "nav"
    assert held["attributes"]["class_name"] == "primary-nav"
    assert "children" not in held
    inner = held["attributes"]["dangerouslySetInnerHTML"]["__html"]
    assert (
        inner
        == '<a href="/services?a=1&amp;b=2">Services &amp; prices</a>&lt;script&gt;alert(1)&lt;/script&gt;'
    )
    # Written into a page (the first frame), it reads exactly as the live element would.
    assert model_to_html(held) == model_to_html(nav)
    # Frozen inside frozen (the logo inside the footer) is written through.
    assert model_to_html(frozen(html.footer(held))) == model_to_html(html.footer(nav))


def test_event_handlers_cannot_be_frozen() -> None:
    with pytest.raises(ValueError, match="cannot handle events"):
        frozen(html.div(html.button({"on_click": lambda _event: None}, "Report Bug")))
