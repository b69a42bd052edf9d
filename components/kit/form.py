"""`ServerForm`: the form element of the screens' forms. The server checks what was sent (`no_validate`:
the browser's own bubbles would say something else than the service, in another place), and `on_submit` is
the screen's handler (an `@event(prevent_default=True)` coroutine, so the page does not reload)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import EventHandlerType, VdomDict

from components.kit._util import Handler, classes


def ServerForm(  # noqa: N802 - a kit element, named like the components
    *children: Any,
    on_submit: Handler | EventHandlerType,
    id: str | None = None,
    label: str | None = None,
    class_name: str | None = None,
    key: str | None = None,
) -> VdomDict:
    """`form.form[novalidate]` sent to `on_submit`; `label` names it for screen readers (aria-label)."""
    attributes: dict[str, Any] = {
        "class_name": classes("form", class_name),
        "on_submit": on_submit,
        "no_validate": True,
    }
    if id is not None:
        attributes["id"] = id
    if label is not None:
        attributes["aria-label"] = label
    if key is not None:
        attributes["key"] = key
    return html.form(attributes, *children)
