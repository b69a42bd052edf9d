"""The 'Canned responses' dialog: the saved replies, a form to add one (with {customer} and {ticket}
placeholders) and Delete (its author or a help-desk manager; the service decides)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html
from reactpy.types import VdomDict

from app.services.support import create_canned_response, delete_canned_response, list_canned_responses
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import Button, Dialog, Field, ServerForm, TextArea, dialog_actions


@component
def CannedDialog(on_close: Callable[[], None], on_changed: Callable[[], None]) -> VdomDict:
    session = use_session()
    saved = use_query(list_canned_responses)
    form = use_form(title="", body="")

    def changed(_result: object = None) -> None:
        on_changed()  # the reply box's list

    create = use_action(create_canned_response, refetch=[saved], on_success=changed)
    remove = use_action(delete_canned_response, refetch=[saved], on_success=changed)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        created = await create.run(title=form.values.get("title", ""), body=form.values.get("body", ""))
        if created is not None:
            session.toaster.success("Canned response saved")
            form.reset(title="", body="")

    def delete(canned_id: str) -> Callable[[dict], Any]:
        async def click(_event: dict) -> None:
            await remove.run(canned_id=canned_id)

        return click

    return Dialog(
        "Canned responses",
        html.ul(
            {"class_name": "canned-list"},
            *(
                html.li(
                    {"key": c.id, "class_name": "canned-item"},
                    html.div(
                        {"class_name": "canned-text"},
                        html.strong(c.title),
                        html.span({"class_name": "canned-body"}, c.body),
                    ),
                    html.button(
                        {
                            "type": "button",
                            "class_name": "icon-button",
                            "aria-label": f"Delete {c.title}",
                            "disabled": remove.pending,
                            "on_click": delete(c.id),
                        },
                        icon("trash", size=16),
                    ),
                )
                for c in saved.data or ()
            ),
        )
        if saved.data
        else html.p({"class_name": "modal-lead"}, "No canned responses yet."),
        ServerForm(
            Field("Title", "title", form=form, id="canned-new-title", max_length=120),
            TextArea(
                "Response",
                "body",
                form=form,
                id="canned-new-body",
                rows=4,
                max_length=10_000,
                hint="{customer} becomes the customer's name and {ticket} the ticket number.",
            ),
            dialog_actions(
                Button("Done", variant="ghost", on_click=on_close, disabled=create.pending),
                Button("Save response", type="submit", pending=create.pending),
            ),
            on_submit=submit,
            label="New canned response",
        ),
        open=True,
        on_close=on_close,
        id="canned",
        class_name="canned-dialog",
    )
