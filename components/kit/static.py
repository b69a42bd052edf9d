"""`frozen`: markup that never changes, held by a live tab as one element.

A live tab keeps state on the server for every element it shows (ReactPy's model and its bookkeeping), and
most of the site frame never changes: the header's menus, the footer's link columns, the logo. `frozen`
keeps an element's tag and attributes and writes its content once as HTML (components/html_writer.py) that
the browser inserts as is (`dangerouslySetInnerHTML`): the same DOM, a fraction of the server's memory and
of each render's work. Only for trusted markup built with `reactpy.html` (the writer escapes text and
attribute values); anything interactive inside must be driven by the browser (static/js), since event
handlers and components cannot live in HTML: `frozen` refuses them.

Call it from a cached function (`functools.cache`) so every tab shares one copy of the HTML.
"""

from __future__ import annotations

from typing import Any

from reactpy.types import VdomDict

from components.html_writer import INNER_HTML, model_to_html


def frozen(element: VdomDict) -> VdomDict:
    """`element` with its children written as HTML into one element (see the module's docstring)."""
    _check(element)
    inner = "".join(model_to_html(child) for child in element.get("children", ()))
    attributes = {**element.get("attributes", {}), INNER_HTML: {"__html": inner}}
    frozen_element: VdomDict = {"tagName": element["tagName"], "attributes": attributes}
    if "key" in element:
        frozen_element["key"] = element["key"]
    return frozen_element


def _check(node: Any) -> None:
    if isinstance(node, str):
        return
    if not isinstance(node, dict):
        raise TypeError(f"frozen markup holds only elements and text, not {type(node).__name__}")
    if node.get("eventHandlers") or any(callable(value) for value in node.get("attributes", {}).values()):
        raise ValueError(f"frozen markup cannot handle events (<{node.get('tagName')}>)")
    for child in node.get("children", ()):
        _check(child)
