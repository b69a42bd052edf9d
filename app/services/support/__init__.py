"""The help desk: tickets, replies and internal notes, attachments, due times and overdue notices, canned
responses, presence, and the customer side (open a ticket, read and reply to one's own).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_attachments": (
        "open_attachment",
        "stage_attachment",
    ),
    "_common": (
        "HELPDESK_TOPIC",
        "due_status",
        "presence_topic",
        "support_topic",
        "ticket_topic",
    ),
    "_customers": (
        "count_my_open_tickets",
        "get_my_ticket",
        "list_my_tickets",
        "open_ticket",
        "reply_as_customer",
    ),
    "_overdue": ("notify_overdue_tickets",),
    "_tickets": (
        "ASSIGN_OTHERS",
        "TicketFilter",
        "announce_presence",
        "assign_ticket",
        "create_canned_response",
        "delete_canned_response",
        "get_ticket",
        "list_assignable_staff",
        "list_canned_responses",
        "list_tickets",
        "record_ticket_view",
        "render_canned_response",
        "reply_to_ticket",
        "set_ticket_category",
        "set_ticket_priority",
        "set_ticket_status",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
