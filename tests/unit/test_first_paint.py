"""The first frame's HTML writer (components/html_writer.py, for medivisit/reactpy_compat/first_paint.py): a
ReactPy model as the browser would build it."""

from __future__ import annotations

import asyncio

from reactpy import Layout, component, html, use_state
from reactpy.core.types import VdomJson

from components.html_writer import model_to_html


def rendered(element) -> VdomJson:  # noqa: ANN001
    @component
    def Root():  # noqa: ANN202
        return element

    async def render() -> VdomJson:
        async with Layout(Root()) as layout:
            return (await layout.render())["model"]

    return asyncio.run(render())


def test_attributes_take_their_html_names_booleans_their_html_form_and_styles_are_left_to_the_live_tree() -> (
    None
):
    model = rendered(
        html.label(
            {
                "html_for": "zip",
                "class_name": "field",
                "data-x": "1",
                "aria-hidden": True,
                "style": {"margin_top": "4px"},
            },
            html.input({"id": "zip", "read_only": True, "disabled": False, "max_length": 5, "value": "100"}),
        )
    )
    assert model_to_html(model) == (
        '<label for="zip" class="field" data-x="1" aria-hidden="true">'
        '<input id="zip" readonly maxlength="5" value="100"></label>'
    )


def test_text_is_escaped_and_void_elements_have_no_end_tag() -> None:
    model = rendered(html.p('<b>"hi"</b> & bye', html.br(), html.img({"src": "/a.svg", "alt": 'say "x"'})))
    assert (
        model_to_html(model)
        == '<p>&lt;b&gt;"hi"&lt;/b&gt; &amp; bye<br><img src="/a.svg" alt="say &quot;x&quot;"></p>'
    )


def test_form_values_are_written_where_html_keeps_them() -> None:
    model = rendered(
        html._(
            html.textarea({"name": "notes", "value": "Gate code <4>"}),
            html.select(
                {"name": "sort", "value": "price"},
                html.option({"value": "rating"}, "Rating"),
                html.option({"value": "price"}, "Price"),
            ),
        )
    )
    assert model_to_html(model) == (
        '<textarea name="notes">Gate code &lt;4&gt;</textarea>'
        '<select name="sort"><option value="rating">Rating</option><option value="price" selected>Price</option></select>'
    )


def test_handlers_are_left_out_and_scripts_and_javascript_modules_hold_the_clients_placeholders() -> None:
    """The HTML has the shape of the live tree, where ReactPy's client draws a script as an empty <div> and
    a JavaScript module's element as an empty <span> (first-paint.js pairs elements by position)."""

    @component
    def Counter():  # noqa: ANN202
        count, set_count = use_state(0)
        return html.button(
            {"type": "button", "on_click": lambda _event: set_count(count + 1)}, f"Clicked {count}"
        )

    model = rendered(
        html.div(Counter(), html.script("alert(1)"), {"tagName": "x", "importSource": {"source": "m"}})
    )
    assert (
        model_to_html(model) == '<div><button type="button">Clicked 0</button><div></div><span></span></div>'
    )
