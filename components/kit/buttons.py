"""`Button`: the one button of the app (`btn btn-<variant>`), with a pending state for actions in flight;
`button_row` lays buttons and button links out in a row."""

from __future__ import annotations

from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon as icon_svg
from components.kit._util import Handler, call, classes

Variant = Literal["primary", "outline", "ghost", "danger", "light"]
VARIANTS = ("primary", "outline", "ghost", "danger", "light")


def Button(  # noqa: N802 - a kit element, named like the components
    label: Any,
    *,
    on_click: Handler | None = None,
    type: Literal["button", "submit", "reset"] = "button",
    variant: Variant = "primary",
    size: Literal["md", "sm"] = "md",
    pending: bool = False,
    pending_label: str | None = None,
    disabled: bool = False,
    icon: str | None = None,
    aria_label: str | None = None,
    class_name: str | None = None,
    key: str | None = None,
) -> VdomDict:
    """A <button class="btn btn-{variant}">. `on_click()` takes no argument (sync or async).

    While `pending` the button is disabled, `aria-busy="true"` and reads `pending_label` (default: the
    label), so a second click cannot start the same action twice."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown button variant {variant!r}")
    attributes: dict[str, Any] = {
        "type": type,
        "class_name": classes("btn", f"btn-{variant}", size == "sm" and "btn-sm", class_name),
        "disabled": disabled or pending,
    }
    if pending:
        attributes["aria-busy"] = "true"
    if aria_label:
        attributes["aria-label"] = aria_label
    if key is not None:
        attributes["key"] = key
    if on_click is not None:

        async def clicked(_event: dict) -> None:
            await call(on_click)

        attributes["on_click"] = clicked
    return html.button(
        attributes,
        icon_svg(icon, size=16 if size == "sm" else 18) if icon else "",
        (pending_label or label) if pending else label,
    )


def button_row(*buttons: Any) -> VdomDict:
    """`div.button-row`: buttons (and button links) side by side, wrapping on small screens."""
    return html.div({"class_name": "button-row"}, *buttons)
