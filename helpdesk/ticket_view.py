"""The help desk's right pane: 'No ticket selected' until a ticket is chosen, then the ticket: subject, id,
created date, Resolve and Waiting, Status, Priority, Category, Assigned To, due times, the description,
the thread (internal notes included), the reply box, for payments staff (process_payments) the Refund
section (helpdesk/ticket_refund.py: a chooser of the requester's refundable visits and store orders, then
the shared refund form), and the history.

It refetches on the ticket's events (`ticket:<id>`), so another agent's reply or status change shows
without a reload; `PresenceBar` says who else has it open. Opening it writes one `ticket_view` audit entry
(a reload or a live refresh of the open ticket writes none).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from reactpy import component, html, use_state
from reactpy.types import Component, VdomDict

from app.services.support import (
    ASSIGN_OTHERS,
    assign_ticket,
    due_status,
    get_ticket,
    list_assignable_staff,
    record_ticket_view,
    set_ticket_category,
    set_ticket_priority,
    set_ticket_status,
    ticket_topic,
)
from components.context import use_session
from components.effects import use_effect
from components.hooks import use_action, use_query, use_topic
from components.icons import icon
from components.kit import Button, QueryView, Region, Select, UserText, meta_line
from components.kit.buttons import Variant
from components.staff_frame import use_staff_permissions
from components.tickets import (
    attachment_links,
    enum_choices,
    overdue_badge,
    thread,
    time_tag,
    when,
)
from helpdesk.desk_state import DeskState
from helpdesk.presence import PresenceBar
from helpdesk.reply_box import ReplyBox
from helpdesk.ticket_refund import TicketRefund
from models.base import utcnow
from models.staff import Permission
from models.support import (
    DueStatus,
    TicketCategory,
    TicketChangeRead,
    TicketPriority,
    TicketRead,
    TicketStatus,
)

# The status buttons of a ticket's head: (status, label, icon, variant).
STATUS_BUTTONS: tuple[tuple[TicketStatus, str, str, Variant], ...] = (
    (TicketStatus.resolved, "Resolve", "check", "primary"),
    (TicketStatus.waiting, "Waiting", "clock", "outline"),
)


def status_changed(status: TicketStatus) -> str:
    """SPEC §8 toast: 'Ticket status changed to {status}'."""
    return f"Ticket status changed to {status.label.lower()}"


@component
def TicketPane(state: DeskState) -> VdomDict | Component:
    if state.ticket is None:
        return html.section(
            {"class_name": "desk-pane desk-detail desk-detail-empty", "aria-label": "Ticket"},
            html.span({"class_name": "desk-empty-icon"}, icon("message", size=28)),
            html.h2("No ticket selected"),
            html.p("Select a ticket from the list to view details and respond"),
        )
    return TicketView(state.ticket, state.href(ticket=None), key=state.ticket)


@component
def TicketView(ticket_id: str, back_href: str) -> VdomDict:
    session = use_session()
    payments = Permission.process_payments in use_staff_permissions()
    detail = use_query(get_ticket, ticket_id=ticket_id)
    use_topic(ticket_topic(ticket_id), refetch=[detail])
    # A refused or missing ticket is the query's to show; the view is noted quietly.
    viewed = use_action(record_ticket_view, exclusive=False, on_error=lambda _message: None)

    @use_effect(dependencies=[ticket_id])
    async def opened() -> None:
        await viewed.run(ticket_id=ticket_id)

    back = html.a({"class_name": "desk-back", "href": back_href}, icon("arrow-left", size=16), "All tickets")
    if detail.data is None:  # loading, or refused / not found: the kit's looks (error with Retry)
        return html.section(
            {"class_name": "desk-pane desk-detail", "aria-label": "Ticket"},
            back,
            QueryView(detail, lambda _data: "", loading_label="Loading ticket…"),
        )
    data = detail.data
    ticket = data.ticket
    return html.section(
        {"class_name": "desk-pane desk-detail", "aria-labelledby": "ticket-subject"},
        html.div(
            {"class_name": "ticket-head"},
            back,
            html.div(
                {"class_name": "ticket-title"},
                UserText(ticket.subject, tag="h2", id="ticket-subject"),
                meta_line(
                    html.span({"class_name": "ticket-number"}, f"Ticket #{ticket.number}"),
                    ("Created ", time_tag(ticket.created_at, when(ticket.created_at, session.time_zone))),
                    (UserText(ticket.customer_name), f" · {ticket.customer_email}"),
                    class_name="ticket-meta",
                ),
            ),
            _StatusButtons(ticket, detail.refetch),
        ),
        PresenceBar(ticket_id),
        html.div(
            {"class_name": "ticket-body"},
            _Fields(ticket, detail.refetch),
            Region(
                "Description",
                UserText(ticket.description, tag="p", class_name="ticket-description"),
                attachment_links(data.attachments),
                title_id="ticket-description",
                class_name="ticket-section",
                heading="h3",
            ),
            Region(
                "Conversation",
                thread(data.messages, session.time_zone, empty="No replies yet."),
                title_id="ticket-thread",
                class_name="ticket-section",
                heading="h3",
            ),
            ReplyBox(ticket, detail.refetch),
            TicketRefund(ticket.user_id, key=ticket.user_id) if payments and ticket.user_id else "",
            _history(data.history, session.time_zone),
        ),
    )


@component
def _StatusButtons(ticket: TicketRead, refresh: Callable[[], None]) -> VdomDict:
    session = use_session()

    def changed(updated: TicketRead) -> None:
        session.toaster.success(status_changed(updated.status))
        refresh()

    action = use_action(set_ticket_status, on_success=changed)

    def set_status(status: TicketStatus) -> Callable[[], Awaitable[None]]:
        async def click() -> None:
            await action.run(ticket_id=ticket.id, status=status)

        return click

    return html.div(
        {"class_name": "ticket-actions"},
        *(
            Button(
                label,
                size="sm",
                variant=variant,
                icon=icon_name,
                disabled=action.pending or ticket.status == status,
                on_click=set_status(status),
                key=status.value,
            )
            for status, label, icon_name, variant in STATUS_BUTTONS
        ),
    )


@component
def _Fields(ticket: TicketRead, refresh: Callable[[], None]) -> VdomDict:
    session = use_session()
    me = session.user.id if session.user else ""
    can_assign_others = bool(ASSIGN_OTHERS & use_staff_permissions())

    def status_done(updated: TicketRead) -> None:
        session.toaster.success(status_changed(updated.status))
        refresh()

    # The selects are uncontrolled and keyed (the component and the <select> element) by the ticket's
    # value: ReactPy's client keeps a select's own value once it has been changed, so a change the server
    # refuses, or another agent's change, remounts the select with the ticket's value.
    refused, set_refused = use_state(0)

    def failed(message: str) -> None:
        session.toaster.error(message)
        set_refused(lambda count: count + 1)

    status = use_action(set_ticket_status, on_success=status_done, on_error=failed)
    priority = use_action(set_ticket_priority, on_success=lambda _t: refresh(), on_error=failed)
    category = use_action(set_ticket_category, on_success=lambda _t: refresh(), on_error=failed)
    assign = use_action(assign_ticket, on_success=lambda _t: refresh(), on_error=failed)
    staff = use_query(list_assignable_staff, enabled=can_assign_others)

    async def assign_to(assignee_id: str | None) -> None:
        await assign.run(ticket_id=ticket.id, assignee_id=assignee_id)

    async def assign_to_me() -> None:
        await assign_to(me)

    def select(label: str, field_id: str, value: str, values: Any, action: Any, name: str) -> Component:
        async def change(chosen: str) -> None:
            await action.run(ticket_id=ticket.id, **{name: chosen})

        return Select(
            label,
            name,
            id=field_id,
            options=enum_choices(values),
            default=value,
            disabled=action.pending,
            on_change=change,
            class_name="ticket-field",
            key=f"{name}-{value}-{refused}",
            control_attributes={"key": f"{name}-{value}-{refused}"},
        )

    return html.div(
        {"class_name": "ticket-fields"},
        select("Status", "ticket-status", ticket.status.value, TicketStatus, status, "status"),
        select("Priority", "ticket-priority", ticket.priority.value, TicketPriority, priority, "priority"),
        select("Category", "ticket-category", ticket.category.value, TicketCategory, category, "category"),
        html.div(
            {"class_name": "ticket-field ticket-assignee"},
            html.span({"class_name": "ticket-field-label", "id": "ticket-assignee-label"}, "Assigned To"),
            html.div(
                {"class_name": "ticket-assignee-row"},
                html.span(
                    {"class_name": "ticket-assignee-name", "aria-labelledby": "ticket-assignee-label"},
                    ticket.assignee_name or "Unassigned",
                ),
                ""
                if ticket.assigned_to == me
                else Button(
                    "Assign to me",
                    size="sm",
                    variant="outline",
                    disabled=assign.pending,
                    on_click=assign_to_me,
                ),
            ),
            _reassign(ticket, staff.data or [], assign_to, assign.pending, refused)
            if can_assign_others
            else "",
        ),
        _due("First response", ticket.first_response_due_at, ticket, session.time_zone, first=True),
        _due("Resolution", ticket.resolution_due_at, ticket, session.time_zone, first=False),
    )


def _reassign(ticket: TicketRead, staff: list, assign_to: Callable, pending: bool, refused: int) -> Component:
    async def change(chosen: str) -> None:
        await assign_to(chosen or None)

    return Select(
        "Assign to another member",
        "assignee",
        id="ticket-reassign",
        options=[(member.id, member.name) for member in staff],
        placeholder="Unassigned",
        default=ticket.assigned_to or "",
        disabled=pending,
        on_change=change,
        hide_label=True,
        class_name="ticket-reassign",
        key=f"assignee-{ticket.assigned_to}-{len(staff)}-{refused}",
        control_attributes={"key": f"assignee-{ticket.assigned_to}-{len(staff)}-{refused}"},
    )


def _due(label: str, due: datetime, ticket: TicketRead, time_zone: str, *, first: bool) -> VdomDict:
    state: DueStatus = due_status(ticket, utcnow())
    overdue = state.first_response_overdue if first else state.resolution_overdue
    if first and ticket.first_responded_at is not None:
        text: Any = html._(
            "Responded ", time_tag(ticket.first_responded_at, when(ticket.first_responded_at, time_zone))
        )
    elif ticket.status in (TicketStatus.resolved, TicketStatus.closed) and not first and ticket.closed_at:
        text = html._(ticket.status.label, " ", time_tag(ticket.closed_at, when(ticket.closed_at, time_zone)))
    else:
        text = html._("Due ", time_tag(due, when(due, time_zone)))
    return html.div(
        {"class_name": "ticket-field ticket-due" + (" is-overdue" if overdue else "")},
        html.span({"class_name": "ticket-field-label"}, label),
        html.span(
            {"class_name": "ticket-due-text"},
            html.span(text),
            overdue_badge() if overdue else "",
            html.span({"class_name": "ticket-paused"}, "Paused while waiting") if ticket.paused_at else "",
        ),
    )


def _change_text(change: TicketChangeRead) -> str:
    if change.field == "created":
        return f"{change.actor_name} opened the ticket"
    if change.field == "assignee":
        return (
            f"{change.actor_name} assigned it to {change.new_value}"
            if change.new_value != "Unassigned"
            else (f"{change.actor_name} unassigned {change.old_value}")
        )
    return f"{change.actor_name} changed {change.field} from {change.old_value} to {change.new_value}"


def _history(history: list[TicketChangeRead], time_zone: str) -> VdomDict:
    return html.details(
        {"class_name": "ticket-history"},
        html.summary(f"History ({len(history)})"),
        html.ol(
            *(
                html.li(
                    {"key": f"{index}-{change.created_at.isoformat()}"},
                    html.span(_change_text(change)),
                    html.span(
                        {"class_name": "ticket-history-time"},
                        time_tag(change.created_at, when(change.created_at, time_zone)),
                    ),
                )
                for index, change in enumerate(history)
            )
        ),
    )
