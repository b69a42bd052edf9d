"""The reply box under a ticket's thread: a 3-row message, the 'Internal Note' checkbox ('(Only visible to
staff)'), Attach, the canned responses picker, Request AI analysis (a reply drafted from the help center by
app/services/assistant, put in the box to edit; SPEC §9's "AI analysis requested"), and Send Reply / Add
Note (the label follows the checkbox).

The message field is the kit's TextArea on a `use_form()` form: typing re-renders nothing. Toasts per SPEC §8:
'Reply sent to customer' or 'Internal note added'. A message that is empty after trimming is ignored
(SPEC §5).
"""

from __future__ import annotations

from collections.abc import Callable

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.assistant import draft_ticket_reply
from app.services.support import list_canned_responses, render_canned_response, reply_to_ticket
from components.browser import typing_field, typing_scope
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import Button, Checkbox, TextArea
from components.tickets import attach_control, use_staged_files
from helpdesk.canned import CannedDialog
from helpdesk.presence import TypingSignal
from models.support import TicketRead

REPLY_SENT = "Reply sent to customer"
NOTE_ADDED = "Internal note added"
MANAGE = "__manage__"


@component
def ReplyBox(ticket: TicketRead, on_sent: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(draft=f"helpdesk:reply:{ticket.id}", content="")
    internal, set_internal = use_state(False)
    managing, set_managing = use_state(False)
    staged = use_staged_files()
    canned = use_query(list_canned_responses)
    send = use_action(reply_to_ticket)
    analyse = use_action(draft_ticket_reply)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        content = form.values.get("content", "")
        if not content.strip() or send.pending:
            return
        sent = await send.run(
            ticket_id=ticket.id,
            content=content,
            internal=internal,
            attachment_ids=staged.ids,
        )
        if sent is not None:
            session.toaster.success(NOTE_ADDED if internal else REPLY_SENT)
            form.reset(content="")
            staged.clear()
            on_sent()

    def pick(event_: dict) -> None:
        choice = event_["target"]["value"]
        if choice == MANAGE:
            set_managing(True)
            return
        found = next((c for c in canned.data or () if c.id == choice), None)
        if found is None:
            return
        text = render_canned_response(found.body, ticket)
        current = form.values.get("content", "").rstrip()
        form.reset(content=f"{current}\n\n{text}" if current else text)

    async def request_analysis() -> None:
        # AI analysis requested: a reply drafted from the help center lands in the box, for the agent to edit
        # and send (never sent from here).
        draft = await analyse.run(ticket_id=ticket.id)
        if draft is None:
            return
        current = form.values.get("content", "").rstrip()
        form.reset(content=f"{current}\n\n{draft.text}" if current else draft.text)
        session.toaster.success(
            "AI draft added to the reply: check and edit it before sending"
            if draft.found
            else "The help center has nothing on this ticket"
        )

    label = "Add Note" if internal else "Send Reply"
    form_view = html.form(
        {
            "class_name": "reply-box" + (" reply-box-internal" if internal else ""),
            "on_submit": submit,
            "aria-label": "Reply",
            **typing_scope(),
            "no_validate": True,
        },
        TextArea(
            "Message",
            "content",
            form=form,
            id="reply-content",
            rows=3,
            max_length=10_000,
            hide_label=True,
            placeholder="Add an internal note for the team..." if internal else "Type your reply...",
            control_attributes=typing_field(),
        ),
        TypingSignal(ticket.id),
        html.div(
            {"class_name": "reply-tools"},
            # Uncontrolled: the box flips at once in the browser; the server follows.
            Checkbox(
                html._(
                    html.span("Internal Note"),
                    " ",
                    html.span({"class_name": "reply-hint"}, "(Only visible to staff)"),
                ),
                "internal",
                id="reply-internal",
                on_change=set_internal,
                class_name="reply-internal",
            ),
            attach_control(staged, input_id=f"reply-files-{ticket.id}", disabled=send.pending),
            html.select(
                {
                    "class_name": "input reply-canned",
                    "aria-label": "Canned responses",
                    "value": "",
                    "on_change": pick,
                },
                html.option({"value": ""}, "Canned responses…"),
                *(html.option({"key": c.id, "value": c.id}, c.title) for c in canned.data or ()),
                html.option({"value": MANAGE}, "Manage canned responses…"),
            ),
            Button(
                "Request AI analysis",
                variant="outline",
                size="sm",
                icon="sparkles",
                pending=analyse.pending,
                pending_label="Drafting…",
                on_click=request_analysis,
                class_name="reply-ai",
            ),
            Button(
                label, type="submit", pending=send.pending, pending_label="Sending…", class_name="reply-send"
            ),
        ),
    )
    # The dialog holds a form of its own, so it sits beside the reply form, not inside it.
    dialog = CannedDialog(on_close=lambda: set_managing(False), on_changed=canned.refetch) if managing else ""
    return html._(form_view, dialog)
