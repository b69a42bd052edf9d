"""'Submit New Help Request': staff open a ticket for a customer, found by e-mail address (the staff
dashboard's 'Message Patient' too), with its category, priority, subject, description and files."""

from __future__ import annotations

from collections.abc import Callable

from reactpy import component, event, html
from reactpy.types import VdomDict

from app.services.support import open_ticket
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action
from components.kit import Button, Dialog, Field, Select, ServerForm, TextArea, dialog_actions
from components.tickets import attach_control, enum_choices, use_staged_files
from models.support import TicketCategory, TicketPriority, TicketRead

TITLE = "Submit New Help Request"


@component
def NewTicketDialog(on_close: Callable[[], None], on_created: Callable[[TicketRead], None]) -> VdomDict:
    session = use_session()
    form = use_form(
        draft="helpdesk:new-ticket",
        email="",
        category=TicketCategory.other.value,
        priority=TicketPriority.medium.value,
    )
    staged = use_staged_files()
    submit_action = use_action(open_ticket)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        created = await submit_action.run(
            customer_email=values.get("email", "").strip() or None,
            category=values.get("category", TicketCategory.other.value),
            priority=values.get("priority", TicketPriority.medium.value),
            subject=values.get("subject", ""),
            description=values.get("description", ""),
            attachment_ids=staged.ids,
        )
        if created is not None:
            form.discard_draft()
            session.toaster.success(f"Ticket #{created.number} created")
            on_created(created)

    busy = submit_action.pending
    return Dialog(
        TITLE,
        ServerForm(
            Field(
                "Customer email",
                "email",
                form=form,
                id="new-ticket-email",
                type="email",
                autocomplete="off",
                max_length=320,
                placeholder="patient@example.com",
            ),
            html.div(
                {"class_name": "form-row"},
                Select(
                    "Category",
                    "category",
                    form=form,
                    id="new-ticket-category",
                    options=enum_choices(TicketCategory),
                ),
                Select(
                    "Priority",
                    "priority",
                    form=form,
                    id="new-ticket-priority",
                    options=enum_choices(TicketPriority),
                ),
            ),
            Field("Subject", "subject", form=form, id="new-ticket-subject", max_length=200),
            TextArea(
                "Description",
                "description",
                form=form,
                id="new-ticket-description",
                rows=5,
                max_length=10_000,
            ),
            attach_control(staged, input_id="new-ticket-files", disabled=busy),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close, disabled=busy),
                Button("Submit Request", type="submit", pending=busy, pending_label="Submitting..."),
            ),
            on_submit=submit,
        ),
        open=True,
        on_close=on_close,
        busy=busy,
        description="Open a ticket on behalf of a customer. They see it in their Support page.",
        id="new-ticket-dialog",
        class_name="new-ticket-dialog",
    )
