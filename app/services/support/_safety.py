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

from app.services.notifications import ticket_link_for_staff, ticket_red_flag_copy
from app.services.notifications.internal import notify
from app.services.safety import RedFlag, find_red_flag
from app.services.shared.staff_access import members_with
from app.services.support._common import record_change, shift_for_priority
from models.notification import NotificationKind
from models.staff import Permission
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
    desk = await members_with(session=session, permission=Permission.view_support_tickets)
    title, body = ticket_red_flag_copy(ticket.number, flag.level)
    await notify(
        session=session,
        recipients=[ticket.assigned_to, *(member.id for member in desk if member.id != written_by)],
        kind=NotificationKind.ticket_red_flag,
        link=ticket_link_for_staff(ticket.id),
        title=title,
        body=body,
    )
    return flag
