"""The help desk's left pane, 'Support Tickets': New Ticket, the search box, the tabs and the rows.

The search box is a GET form (static/js/app.js turns its submit into an in-page navigation) and tabs and
rows are links, so typing costs no server render and the URL holds the view; the selected ticket stays
open while the list is filtered. The list refetches whenever any ticket changes ("helpdesk" events), so a
new ticket or another agent's change appears without a reload.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.support import HELPDESK_TOPIC, TicketFilter, due_status, list_tickets
from components.context import use_session
from components.forms import use_form
from components.hooks import use_query, use_topic
from components.icons import icon
from components.kit import Button, Field, QueryView, Region, TabPanel, Tabs, UserText, filter_form
from components.tickets import (
    category_badge,
    month_day,
    overdue_badge,
    priority_badge,
    status_badge,
    time_tag,
)
from helpdesk.desk_state import TABS, DeskState
from models.base import utcnow
from models.support import TicketRead

PREVIEW_LENGTH = 140
TABS_ID = "desk-tabs"
NO_TICKETS = html.div(
    {"class_name": "desk-empty"},
    html.p({"class_name": "desk-empty-title"}, "No tickets found"),
    html.p("Try changing your search or filters"),
)


def preview(text: str) -> str:
    """The description, on one line and cut at a word near PREVIEW_LENGTH characters."""
    flat = " ".join(text.split())
    if len(flat) <= PREVIEW_LENGTH:
        return flat
    return flat[:PREVIEW_LENGTH].rsplit(" ", 1)[0].rstrip(",.;:") + "…"


@component
def TicketList(state: DeskState, on_new: Callable[[], None]) -> VdomDict:
    session = use_session()
    query = use_query(list_tickets, filter=state.tab.value, search=state.search)
    use_topic(HELPDESK_TOPIC, refetch=[query])

    def rows(tickets: list[TicketRead]) -> VdomDict:
        now = utcnow()
        return html.ul(
            {"class_name": "desk-rows", "aria-label": "Tickets"},
            *(_row(t, state, session.time_zone, now) for t in tickets),
        )

    body = QueryView(query, rows, empty=NO_TICKETS, loading_label="Loading tickets…")
    return Region(
        "Support Tickets",
        _SearchBox(state, key=f"{state.tab.value}:{state.search}"),
        Tabs(
            [(tab.value, label) for tab, label in TABS],
            state.tab.value,
            label="Ticket filters",
            href=lambda key: state.href(tab=TicketFilter(key)),
            id=TABS_ID,
            class_name="desk-tabs",
            tab_class="desk-tab",
        ),
        TabPanel(state.tab.value, body, id=TABS_ID, class_name="desk-list-body"),
        title_id="desk-list-title",
        class_name="desk-pane desk-list",
        head_class="desk-list-head",
        head=(Button("New Ticket", size="sm", icon="plus", on_click=on_new),),
    )


@component
def _SearchBox(state: DeskState) -> VdomDict:
    # Typing is kept on the server (components/forms.py) so a live refresh of the list cannot wipe it;
    # submitting navigates (a new key, so a fresh box, whenever the URL's search changes).
    form = use_form(q=state.search)
    return filter_form(
        icon("search", size=16),
        Field(
            "Search tickets",
            "q",
            form=form,
            id="desk-search",
            type="search",
            hide_label=True,
            placeholder="Search tickets...",
            max_length=200,
            autocomplete="off",
        ),
        action=state.path,
        label=None,
        class_name="desk-search",
        submit=None,
        hidden={
            "tab": "" if state.tab == TicketFilter.all else state.tab.value,
            "ticket": state.ticket or "",
        },
    )


def _row(ticket: TicketRead, state: DeskState, time_zone: str, now: Any) -> VdomDict:
    overdue = due_status(ticket, now).overdue
    return html.li(
        {"key": ticket.id},
        html.a(
            {
                "class_name": "desk-row",
                "href": state.href(ticket=ticket.id),
                **({"aria-current": "true"} if ticket.id == state.ticket else {}),
            },
            html.span(
                {"class_name": "desk-row-top"},
                UserText(ticket.subject, class_name="desk-row-subject"),
                html.span(
                    {"class_name": "desk-row-date"},
                    time_tag(ticket.created_at, month_day(ticket.created_at, time_zone)),
                ),
            ),
            html.span(
                {"class_name": "desk-row-badges"},
                status_badge(ticket.status),
                priority_badge(ticket.priority),
                category_badge(ticket.category),
                overdue_badge(with_icon=True) if overdue else "",
            ),
            UserText(preview(ticket.description), class_name="desk-row-desc"),
        ),
    )
