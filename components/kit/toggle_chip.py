"""`toggle_chip`: one choice in a row of like choices that stays pressed once chosen (a day of the next two
weeks, an open time, a day of a provider's week): a `button` with `aria-pressed`, `is-selected` while it is
the one chosen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes


def toggle_chip(
    *content: Any,
    pressed: bool,
    on_click: Callable[[dict[str, Any]], Any],
    class_name: str,
    key: str,
    extra_class: str | None = None,
    label: str | None = None,
    disabled: bool | None = None,
) -> VdomDict:
    """`button.{class_name}[type=button]` (`is-selected` and `aria-pressed="true"` when `pressed`, then
    `extra_class`; `label` its aria-label; `disabled` when given) holding `content`; `on_click(event)`."""
    attributes: dict[str, Any] = {
        "type": "button",
        "key": key,
        "class_name": classes(class_name, pressed and "is-selected", extra_class),
        "aria-pressed": "true" if pressed else "false",
        "on_click": on_click,
    }
    if label is not None:
        attributes["aria-label"] = label
    if disabled is not None:
        attributes["disabled"] = disabled
    return html.button(attributes, *content)
