"""'Submit New Help Request': staff open a ticket for a customer, found by e-mail address (the staff
dashboard's 'Message Patient' too), with its category, priority, subject, description and files."""

from __future__ import annotations

from collections.abc import Callable

from reactpy import component, event, html

from app.services.support import open_ticket
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action
from components.tickets import attach_control, enum_options, use_staged_files
from components.ui import modal, modal_actions
from models.support import TicketCategory, TicketPriority, TicketRead

TITLE = "Submit New Help Request"


@component
def NewTicketDialog(on_close: Callable[[], None], on_created: Callable[[TicketRead], None]) -> dict:
    session = use_session()
    form = use_form(email="", category=TicketCategory.other.value, priority=TicketPriority.medium.value)
    staged = use_staged_files()
    submit_action = use_action(open_ticket)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        created = await submit_action.run(
            actor=session.actor,
            customer_email=values.get("email", "").strip() or None,
            category=values.get("category", TicketCategory.other.value),
            priority=values.get("priority", TicketPriority.medium.value),
            subject=values.get("subject", ""),
            description=values.get("description", ""),
            attachment_ids=staged.ids,
        )
        if created is not None:
            session.toaster.success(f"Ticket #{created.number} created")
            on_created(created)

    busy = submit_action.pending
    return modal(
        "new-ticket-title",
        TITLE,
        html.form(
            {"class_name": "form", "on_submit": submit, "noValidate": True},
            html.label({"html_for": "new-ticket-email"}, "Customer email"),
            html.input(
                form.field(
                    "email",
                    id="new-ticket-email",
                    type="email",
                    autoComplete="off",
                    maxLength=320,
                    placeholder="patient@example.com",
                )
            ),
            html.div(
                {"class_name": "form-row"},
                html.div(
                    html.label({"html_for": "new-ticket-category"}, "Category"),
                    html.select(
                        form.field("category", id="new-ticket-category"), *enum_options(TicketCategory)
                    ),
                ),
                html.div(
                    html.label({"html_for": "new-ticket-priority"}, "Priority"),
                    html.select(
                        form.field("priority", id="new-ticket-priority"), *enum_options(TicketPriority)
                    ),
                ),
            ),
            html.label({"html_for": "new-ticket-subject"}, "Subject"),
            html.input(form.field("subject", id="new-ticket-subject", maxLength=200)),
            html.label({"html_for": "new-ticket-description"}, "Description"),
            html.textarea(form.field("description", id="new-ticket-description", rows=5, maxLength=10_000)),
            attach_control(staged, input_id="new-ticket-files", disabled=busy),
            modal_actions(
                cancel="Cancel",
                submit="Submitting..." if busy else "Submit Request",
                on_cancel=on_close,
                busy=busy,
            ),
        ),
        on_close=on_close,
        busy=busy,
        lead="Open a ticket on behalf of a customer. They see it in their Support page.",
        class_name="new-ticket-dialog",
    )
