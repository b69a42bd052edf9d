"""The help desk for customers (any signed-in user): open a ticket, list and read their own tickets, reply.

A customer never receives an internal note, the ticket's history, its assignee or its tags
(`for_customer` reads), and the events their screens hear never mention a note. Staff may open a ticket
for a customer by e-mail address ('Message Patient'), and only staff choose a priority. A ticket or reply
with a red flag (an emergency, a crisis) is filed, made urgent and the desk alerted; the answer carries the
911 / 988 message for the screen (`_safety`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.sessions import find_user_by_email
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.accounts import account_of
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_permission
from app.services.support._attachments import add_message, claim_attachments
from app.services.support._common import (
    DESCRIPTION_REQUIRED,
    MESSAGE_REQUIRED,
    SUBJECT_MAX,
    SUBJECT_REQUIRED,
    TEXT_MAX,
    TICKET_NOT_FOUND,
    announce,
    as_category,
    as_priority,
    change_status,
    clean_text,
    create_ticket,
)
from app.services.support._reads import accounts_by_id, message_read, ticket_detail, ticket_reads
from app.services.support._safety import check_customer_words
from models.base import utcnow
from models.staff import Permission
from models.support import (
    Ticket,
    TicketCategory,
    TicketDetail,
    TicketMessageRead,
    TicketPriority,
    TicketRead,
    TicketStatus,
)

MY_TICKETS_LIMIT = 50
NO_SUCH_CUSTOMER = "No account has this e-mail address."
TICKET_CLOSED = "This ticket is closed. Please open a new request."
# A customer's reply on one of these reopens the ticket (it needs the desk's attention again).
REOPENED_BY_REPLY = frozenset({TicketStatus.waiting, TicketStatus.resolved})


async def open_ticket(
    *,
    session: AsyncSession,
    actor: Principal,
    category: TicketCategory | str,
    subject: str,
    description: str,
    attachment_ids: Sequence[str] = (),
    customer_email: str | None = None,
    priority: TicketPriority | str | None = None,
) -> TicketRead:
    """A new ticket of the signed-in user. Staff with view_support_tickets may instead open one for the
    customer at `customer_email` and choose its `priority` (default medium)."""
    account = await require_account(session=session, actor=actor)
    on_behalf = bool((customer_email or "").strip()) or priority is not None
    if on_behalf:
        await require_permission(session=session, actor=actor, permission=Permission.view_support_tickets)
    category = as_category(category)
    priority = as_priority(priority or TicketPriority.medium)
    subject = clean_text(subject, required=SUBJECT_REQUIRED, limit=SUBJECT_MAX, name="subject")
    description = clean_text(description, required=DESCRIPTION_REQUIRED, limit=TEXT_MAX, name="description")
    customer = account
    if customer_email and customer_email.strip():
        user = await find_user_by_email(session, customer_email)
        if user is None:
            raise NotFound(NO_SUCH_CUSTOMER)
        customer = account_of(user)
    ticket = await create_ticket(
        session,
        customer_id=customer.id,
        created_by=account.id,
        subject=subject,
        description=description,
        category=category,
        priority=priority,
        at=utcnow(),
    )
    await claim_attachments(
        session, uploader_id=account.id, attachment_ids=attachment_ids, ticket_id=ticket.id
    )
    flag = await check_customer_words(
        session, ticket, written_by=account.id, text=f"{subject}\n{description}"
    )
    await announce(session, ticket, "created", customer=True)
    await session.flush()
    read = (await ticket_reads(session, [ticket], for_customer=not on_behalf))[0]
    return read.model_copy(update={"safety_message": flag.message}) if flag else read


async def _own_ticket(
    session: AsyncSession, user_id: str, ticket_id: str, *, for_update: bool = False
) -> Ticket:
    ticket = await session.get(Ticket, ticket_id, populate_existing=True, with_for_update=for_update)
    if ticket is None or ticket.user_id != user_id:
        raise NotFound(TICKET_NOT_FOUND)
    return ticket


async def list_my_tickets(
    *, session: AsyncSession, actor: Principal, limit: int = MY_TICKETS_LIMIT
) -> list[TicketRead]:
    """The signed-in user's tickets, newest activity first (at most 50)."""
    account = await require_account(session=session, actor=actor)
    limit = max(1, min(int(limit), MY_TICKETS_LIMIT))
    rows = list(
        await session.scalars(
            select(Ticket)
            .where(Ticket.user_id == account.id)
            .order_by(Ticket.updated_at.desc(), Ticket.id.desc())
            .limit(limit)
        )
    )
    return await ticket_reads(session, rows, for_customer=True)


async def count_my_open_tickets(*, session: AsyncSession, actor: Principal) -> int:
    """How many of the signed-in user's tickets are not resolved or closed yet."""
    account = await require_account(session=session, actor=actor)
    settled = (TicketStatus.resolved, TicketStatus.closed)
    count = await session.scalar(
        select(func.count())
        .select_from(Ticket)
        .where(Ticket.user_id == account.id, Ticket.status.not_in(settled))
    )
    return int(count or 0)


async def get_my_ticket(*, session: AsyncSession, actor: Principal, ticket_id: str) -> TicketDetail:
    """One of the signed-in user's tickets with its public thread: never internal notes, never history."""
    account = await require_account(session=session, actor=actor)
    return await ticket_detail(session, await _own_ticket(session, account.id, ticket_id), for_customer=True)


async def reply_as_customer(
    *,
    session: AsyncSession,
    actor: Principal,
    ticket_id: str,
    content: str,
    attachment_ids: Sequence[str] = (),
) -> TicketMessageRead:
    """The customer's reply on their own ticket; on a waiting or resolved ticket it reopens it (open)."""
    account = await require_account(session=session, actor=actor)
    content = clean_text(content, required=MESSAGE_REQUIRED, limit=TEXT_MAX, name="message")
    ticket = await _own_ticket(session, account.id, ticket_id, for_update=True)
    if ticket.status == TicketStatus.closed:
        raise ValidationFailed(TICKET_CLOSED)
    now = utcnow()
    message, attachments = await add_message(
        session,
        ticket,
        sender_id=account.id,
        content=content,
        from_staff=False,
        internal=False,
        attachment_ids=attachment_ids,
        now=now,
    )
    if ticket.status in REOPENED_BY_REPLY:
        await change_status(session, ticket, account, TicketStatus.open)
    ticket.updated_at = now
    flag = await check_customer_words(session, ticket, written_by=account.id, text=content)
    await announce(session, ticket, "reply", customer=True)
    read = message_read(message, await accounts_by_id(session, [account.id]), attachments)
    return read.model_copy(update={"safety_message": flag.message}) if flag else read
