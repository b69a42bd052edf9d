"""The help desk (app/services/support): the customer hears of replies, a member of tickets assigned to
them, the desk of red flags and of missed due times. Ticket numbers only, never the customer's words."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import TicketAssigned, TicketRedFlagged, TicketReplied, TicketsOverdue
from app.services.notifications._copy import (
    ticket_assigned_copy,
    ticket_link_for_customer,
    ticket_link_for_staff,
    ticket_overdue_copy,
    ticket_red_flag_copy,
    ticket_reply_copy,
)
from app.services.notifications._delivery import MAX_RECIPIENTS, Message, notify, notify_each
from app.services.shared.staff_access import members_with
from models.notification import NotificationKind
from models.staff import Permission


async def _desk(session: AsyncSession) -> list[str]:
    """Everyone who may work the help desk (view_support_tickets)."""
    return [m.id for m in await members_with(session=session, permission=Permission.view_support_tickets)]


async def tell_red_flag(session: AsyncSession, flagged: TicketRedFlagged) -> None:
    """Its assignee and the whole desk but the one who wrote it (a category nobody can turn off)."""
    desk = await _desk(session)
    title, body = ticket_red_flag_copy(flagged.number, flagged.level)
    await notify(
        session=session,
        recipients=[flagged.assignee_id, *(member for member in desk if member != flagged.written_by)],
        kind=NotificationKind.ticket_red_flag,
        link=ticket_link_for_staff(flagged.ticket_id),
        title=title,
        body=body,
    )


async def tell_tickets_overdue(session: AsyncSession, overdue: TicketsOverdue) -> None:
    """Each breach to the ticket's assignee, or, unassigned, to the whole desk; in batches of MAX_RECIPIENTS."""
    desk = await _desk(session) if any(b.assignee_id is None for b in overdue.breaches) else []
    messages = []
    for breach in overdue.breaches:
        title, body = ticket_overdue_copy(breach.number, breach.breach)
        link = ticket_link_for_staff(breach.ticket_id)
        told = [breach.assignee_id] if breach.assignee_id else desk
        messages += [Message(user_id, title, body, link) for user_id in told]
    for start in range(0, len(messages), MAX_RECIPIENTS):
        await notify_each(
            session=session,
            kind=NotificationKind.ticket_overdue,
            messages=messages[start : start + MAX_RECIPIENTS],
            now=overdue.at,
        )


async def tell_ticket_replied(session: AsyncSession, replied: TicketReplied) -> None:
    title, body = ticket_reply_copy(replied.number)
    await notify(
        session=session,
        recipients=[replied.customer_id],
        kind=NotificationKind.ticket_reply,
        link=ticket_link_for_customer(replied.ticket_id),
        title=title,
        body=body,
    )


async def tell_ticket_assigned(session: AsyncSession, assigned: TicketAssigned) -> None:
    title, body = ticket_assigned_copy(assigned.number)
    await notify(
        session=session,
        recipients=[assigned.assignee_id],
        kind=NotificationKind.ticket_assigned,
        link=ticket_link_for_staff(assigned.ticket_id),
        title=title,
        body=body,
    )
