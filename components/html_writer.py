"""ReactPy models written as HTML, as ReactPy's browser client would build them.

Used for the first frame of a page (medivisit/reactpy_compat/first_paint.py) and for markup frozen into one
element (components/kit/static.py). Elements of JavaScript modules (`importSource`) and scripts only do something in
the live tree: the HTML holds the empty `<span>` and `<div>` ReactPy's client draws in their place, so both
trees have the same shape (static/js/first-paint.js finds an element's live counterpart by its position).
`style` attributes are left out: the Content-Security-Policy (medivisit/security_headers.py) refuses inline
styles in HTML, while the live tree sets them through the DOM. An element's `dangerouslySetInnerHTML` is
written as its content, as the browser client does.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

INNER_HTML = "dangerouslySetInnerHTML"
VOID_ELEMENTS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
# What ReactPy's client draws for an element of a JavaScript module (its mount point) and for a script.
PLACEHOLDERS = {"importSource": "<span></span>", "script": "<div></div>"}
ATTRIBUTE_NAMES = {
    "class_name": "class",
    "className": "class",
    "html_for": "for",
    "htmlFor": "for",
    "default_value": "value",
    "defaultValue": "value",
    "default_checked": "checked",
    "defaultChecked": "checked",
    "accept_charset": "accept-charset",
    "http_equiv": "http-equiv",
}


def model_to_html(model: Any) -> str:
    """A ReactPy model (the layout's output, snake_case attribute names as the client receives them) as HTML."""
    out: list[str] = []
    _write(model, out)
    return "".join(out)


def _write(node: Any, out: list[str], select_value: str | None = None) -> None:
    if isinstance(node, str):
        out.append(escape(node, quote=False))
        return
    if not isinstance(node, dict):
        return
    if "importSource" in node:
        out.append(PLACEHOLDERS["importSource"])
        return
    tag = node.get("tagName", "")
    children = node.get("children", ())
    if not tag:
        for child in children:
            _write(child, out, select_value)
        return
    if tag == "script":
        out.append(PLACEHOLDERS["script"])
        return
    attributes = dict(node.get("attributes", {}))
    text_value = None
    if tag == "textarea":
        text_value = attributes.pop("value", None) or attributes.pop("default_value", None)
    inner_select = None
    if tag == "select":
        inner_select = attributes.pop("value", None) or attributes.pop("default_value", None)
    if tag == "option" and select_value is not None and str(attributes.get("value")) == str(select_value):
        attributes["selected"] = True
    inner_html = attributes.pop(INNER_HTML, None)
    out.append(f"<{tag}{_attributes(attributes)}>")
    if tag in VOID_ELEMENTS:
        return
    if inner_html is not None:
        out.append(inner_html["__html"])
        out.append(f"</{tag}>")
        return
    if text_value is not None:
        out.append(escape(str(text_value), quote=False))
    for child in children:
        _write(child, out, inner_select if tag == "select" else select_value)
    out.append(f"</{tag}>")


def _attributes(attributes: Mapping[str, Any]) -> str:
    parts = []
    for name, value in attributes.items():
        if name == "key" or callable(value) or value is None:
            continue
        html_name = _attribute_name(name)
        if html_name == "style":
            continue
        if isinstance(value, bool) and not html_name.startswith(("aria-", "data-")):
            if value:
                parts.append(f" {html_name}")
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append(f' {html_name}="{escape(str(value), quote=True)}"')
    return "".join(parts)


def _attribute_name(name: str) -> str:
    if name in ATTRIBUTE_NAMES:
        return ATTRIBUTE_NAMES[name]
    if name.startswith(("aria_", "data_")):
        return name.replace("_", "-")
    if "-" in name:
        return name
    return name.replace("_", "").lower()  # read_only → readonly, tabIndex → tabindex
