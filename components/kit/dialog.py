"""`Dialog`: the app's one modal dialog.

Browser behaviour, no server render spent on it: Escape clicks the dialog's close button
(static/js/app.js, `data-modal` / `data-modal-close`); static/js/kit.js moves the focus into the dialog when
it opens, keeps Tab and Shift+Tab inside it while open, and gives the focus back to the element that opened
it when it closes.
"""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import Handler, call, classes


def dialog_actions(*buttons: Any) -> VdomDict:
    """The footer row of a dialog (`div.modal-actions`): cancel first, the main action last."""
    return html.div({"class_name": "modal-actions"}, *buttons)


def Dialog(  # noqa: N802 - a kit element, named like the components
    title: Any,
    *children: Any,
    open: bool,
    on_close: Handler,
    footer: Any = None,
    description: Any = None,
    id: str = "dialog",
    busy: bool = False,
    close_label: str = "Close",
    class_name: str | None = None,
) -> Any:
    """A modal dialog: nothing while not `open`; otherwise the backdrop and `role="dialog"`,
    `aria-modal`, labelled by its title and described by `description` (shown as the lead line).

    `on_close()` (sync or async) runs for the close button and Escape; `busy` disables the close button
    (an action is in flight). `footer` is placed last — `dialog_actions(Button(...), Button(...))`, or a
    form's own actions inside `children`. Ids: `{id}-title`, `{id}-description`; give each dialog on a
    page its own `id`."""
    if not open:
        return html._()
    title_id, description_id = f"{id}-title", f"{id}-description"

    async def close(_event: dict) -> None:
        await call(on_close)

    dialog: dict[str, Any] = {
        "class_name": classes("modal", class_name),
        "role": "dialog",
        "aria-modal": "true",
        "aria-labelledby": title_id,
        "id": id,
    }
    if description:
        dialog["aria-describedby"] = description_id
    return html.div(
        {"class_name": "modal-backdrop", "data-modal": ""},
        html.div(
            dialog,
            html.div(
                {"class_name": "modal-header"},
                html.h2({"id": title_id}, title),
                html.button(
                    {
                        "class_name": "icon-button",
                        "type": "button",
                        "aria-label": close_label,
                        "data-modal-close": "",
                        "disabled": busy,
                        "on_click": close,
                    },
                    icon("x", size=18),
                ),
            ),
            html.p({"class_name": "modal-lead", "id": description_id}, description) if description else "",
            *children,
            footer if footer is not None else "",
        ),
    )
