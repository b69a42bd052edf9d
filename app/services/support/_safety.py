"""Red flags in what a customer writes to the help desk (issue 27): a new ticket or a reply that describes a
medical emergency or a mental-health crisis (`app.services.safety`) is filed all the same (a person in
crisis must not lose their message), and at once

- the ticket becomes urgent (its due times move with the priority, and its history says so),
- every help-desk worker (view_support_tickets) and its assignee get a "Safety alerts" notification, a
  category nobody can turn off, naming only the ticket's number and which message (911 or 988) the
  customer was shown, never their words,
- and the caller gets the flag so the screen shows the customer the 911 / 988 message.

The flag's category goes to the server log; the words are never stored anywhere beyond the ticket itself.
"""

from __future__ import annotations

import logging

from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.services.domain_events import TicketRedFlagged
from app.services.safety import RedFlag, find_red_flag
from app.services.support._common import record_change, shift_for_priority
from models.support import Ticket, TicketPriority

logger = logging.getLogger(__name__)


async def check_customer_words(
    session: AsyncSession, ticket: Ticket, *, written_by: str, text: str
) -> RedFlag | None:
    """The red flag in `text` (just written on `ticket`), with the desk alerted; None when there is none."""
    flag = find_red_flag(text)
    if flag is None:
        return None
    logger.warning(
        "Help-desk red flag: ticket=%s level=%s category=%s", ticket.number, flag.level, flag.category
    )
    if ticket.priority != TicketPriority.urgent:
        record_change(
            session, ticket, written_by, "priority", ticket.priority.value, TicketPriority.urgent.value
        )
        shift_for_priority(ticket, ticket.priority, TicketPriority.urgent)
        ticket.priority = TicketPriority.urgent
    await events.publish_event(
        session,
        TicketRedFlagged(
            ticket_id=ticket.id,
            number=ticket.number,
            level=flag.level,
            assignee_id=ticket.assigned_to,
            written_by=written_by,
        ),
    )
    return flag
