"""The help desk: tickets, replies and internal notes, attachments, due times and overdue notices, canned
responses, presence, and the customer side (open a ticket, read and reply to one's own).

Its public surface: the names below (`__all__`).
"""

from app.services.support._attachments import open_attachment, stage_attachment
from app.services.support._common import (
    HELPDESK_TOPIC,
    apply_status,
    due_status,
    presence_topic,
    record_change,
    support_topic,
    ticket_topic,
)
from app.services.support._customers import (
    count_my_open_tickets,
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
    record_ticket_view,
    render_canned_response,
    reply_to_ticket,
    set_ticket_category,
    set_ticket_priority,
    set_ticket_status,
)

__all__ = [
    "ASSIGN_OTHERS",
    "HELPDESK_TOPIC",
    "TicketFilter",
    "announce_presence",
    "apply_status",
    "assign_ticket",
    "count_my_open_tickets",
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
    "record_change",
    "record_ticket_view",
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
