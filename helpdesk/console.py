"""Help Desk (/staff/help-desk and /staff/helpdesk; SPEC §2 "Help Desk"): the staff ticket console.

Inside the staff portal frame, for members with view_support_tickets (others get 'Access Denied' and go
back to /staff). The tickets list on the left (helpdesk/ticket_list.py), the selected ticket on the right
(helpdesk/ticket_view.py); the tab, the search and the selected ticket live in the URL (desk_state.py).
Both panes are live: they refetch on the services' events, never on a timer.
"""

from __future__ import annotations

from reactpy import component, html, use_location, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from components import browser
from components.staff_frame import StaffFrame, StaffSection
from helpdesk.desk_state import DeskState
from helpdesk.new_ticket import NewTicketDialog
from helpdesk.ticket_list import TicketList
from helpdesk.ticket_view import TicketPane
from models.support import TicketRead

SECTION = "help-desk"
SUBTITLE = "Manage customer support tickets and provider inquiries"


@component
def HelpDeskPage() -> Component:
    return StaffFrame(StaffSection(_Desk, slug=SECTION), active=SECTION)


@component
def _Desk() -> VdomDict:
    params = use_search_params()
    state = DeskState.from_params(use_location().pathname, params)
    # ?new=1 (the staff dashboard's Message Patient) opens New Ticket on arrival.
    creating, set_creating = use_state(lambda: params.get("new") == ["1"])
    opened_state: State[str | None] = use_state(None)
    opened, set_opened = opened_state

    def created(ticket: TicketRead) -> None:
        set_creating(False)
        set_opened(ticket.id)

    # After New Ticket, open the new ticket: static/js/app.js follows this link at once (a query change
    # within the page, which reactpy-router's navigate() does not do).
    follow = browser.follow(state.href(ticket=opened)) if opened and opened != state.ticket else ""
    return html.div(
        {"class_name": "desk" + (" desk-has-ticket" if state.ticket else "")},
        html.div(
            {"class_name": "desk-header"},
            html.h1("Help Desk"),
            html.p({"class_name": "desk-subtitle"}, SUBTITLE),
        ),
        html.div(
            {"class_name": "desk-panels"},
            TicketList(state, lambda: set_creating(True)),
            TicketPane(state),
        ),
        NewTicketDialog(on_close=lambda: set_creating(False), on_created=created) if creating else "",
        follow,
    )
