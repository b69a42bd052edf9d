"""The help desk: tickets, replies and internal notes, attachments, due times, canned responses, presence,
and the customer side (open a ticket, read and reply to one's own).

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.support._attachments import (
    open_attachment,
    stage_attachment,
)
from app.services.support._common import (
    HELPDESK_TOPIC,
    DueStatus,
    due_status,
    ticket_topic,
)
from app.services.support._customers import (
    get_my_ticket,
    list_my_tickets,
    open_ticket,
    reply_as_customer,
)
from app.services.support._tickets import (
    ASSIGN_OTHERS,
    TicketFilter,
    announce_presence,
    assign_ticket,
    create_canned_response,
    delete_canned_response,
    get_ticket,
    list_assignable_staff,
    list_canned_responses,
    list_tickets,
    presence_topic,
    render_canned_response,
    reply_to_ticket,
    set_ticket_category,
    set_ticket_priority,
    set_ticket_status,
    support_topic,
)

__all__ = [
    "ASSIGN_OTHERS",
    "DueStatus",
    "HELPDESK_TOPIC",
    "TicketFilter",
    "announce_presence",
    "assign_ticket",
    "create_canned_response",
    "delete_canned_response",
    "due_status",
    "get_my_ticket",
    "get_ticket",
    "list_assignable_staff",
    "list_canned_responses",
    "list_my_tickets",
    "list_tickets",
    "open_attachment",
    "open_ticket",
    "presence_topic",
    "render_canned_response",
    "reply_as_customer",
    "reply_to_ticket",
    "set_ticket_category",
    "set_ticket_priority",
    "set_ticket_status",
    "stage_attachment",
    "support_topic",
    "ticket_topic",
]
