"""Tickets as the help desk and their customers read them, in a few batched queries.

Staff read everything. A customer reads `for_customer=True` details: no internal notes and none of their
attachments, no history, and neither the assignee nor the staff's tags.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.shared.accounts import account_of
from models.account import AccountRead
from models.identity import User, as_utc
from models.support import (
    AttachmentRead,
    Ticket,
    TicketAttachment,
    TicketChange,
    TicketChangeRead,
    TicketDetail,
    TicketMessage,
    TicketMessageRead,
    TicketRead,
)

FORMER_USER = "Former user"
CUSTOMER, SUPPORT_STAFF, INTERNAL_NOTE = "Customer", "Support Staff", "Internal Note"


async def accounts_by_id(session: AsyncSession, ids: Iterable[str | None]) -> dict[str, AccountRead]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    rows = await session.scalars(select(User).where(User.id.in_(wanted)))
    return {user.id: account_of(user) for user in rows}


def _name(accounts: dict[str, AccountRead], user_id: str | None) -> str:
    account = accounts.get(user_id or "")
    return account.name if account else FORMER_USER


def _ticket_read(row: Ticket, accounts: dict[str, AccountRead], *, for_customer: bool) -> TicketRead:
    customer = accounts.get(row.user_id)
    return TicketRead(
        id=row.id,
        number=row.number,
        user_id=row.user_id,
        customer_name=customer.name if customer else FORMER_USER,
        customer_email=customer.email if customer else "",
        subject=row.subject,
        description=row.description,
        status=row.status,
        priority=row.priority,
        category=row.category,
        assigned_to=None if for_customer else row.assigned_to,
        assignee_name=None if for_customer or not row.assigned_to else _name(accounts, row.assigned_to),
        tags=[] if for_customer else list(row.tags or []),
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        closed_at=as_utc(row.closed_at),
        first_response_due_at=as_utc(row.first_response_due_at),
        resolution_due_at=as_utc(row.resolution_due_at),
        first_responded_at=as_utc(row.first_responded_at),
        paused_at=as_utc(row.paused_at),
    )


async def ticket_reads(
    session: AsyncSession, rows: Sequence[Ticket], *, for_customer: bool = False
) -> list[TicketRead]:
    """`TicketRead`s of `rows`, in order, with one query for the people named."""
    accounts = await accounts_by_id(session, [id_ for r in rows for id_ in (r.user_id, r.assigned_to)])
    return [_ticket_read(row, accounts, for_customer=for_customer) for row in rows]


def attachment_read(row: TicketAttachment) -> AttachmentRead:
    return AttachmentRead(id=row.id, filename=row.filename, content_type=row.content_type, size=row.size)


def _label(message: TicketMessage) -> str:
    if message.is_internal:
        return INTERNAL_NOTE
    return SUPPORT_STAFF if message.from_staff else CUSTOMER


def message_read(
    row: TicketMessage, accounts: dict[str, AccountRead], attachments: Sequence[TicketAttachment] = ()
) -> TicketMessageRead:
    return TicketMessageRead(
        id=row.id,
        ticket_id=row.ticket_id,
        sender_id=row.sender_id,
        sender_name=_name(accounts, row.sender_id),
        author_label=_label(row),
        content=row.content,
        is_internal=row.is_internal,
        created_at=as_utc(row.created_at),
        attachments=[attachment_read(a) for a in attachments],
    )


async def ticket_detail(session: AsyncSession, ticket: Ticket, *, for_customer: bool) -> TicketDetail:
    """The ticket, its thread (oldest first) with attachments, and (staff only) its history."""
    query = select(TicketMessage).where(TicketMessage.ticket_id == ticket.id)
    if for_customer:
        query = query.where(TicketMessage.is_internal.is_(False))
    messages = list(await session.scalars(query.order_by(TicketMessage.created_at, TicketMessage.id)))
    visible = {m.id for m in messages}
    by_message: dict[str | None, list[TicketAttachment]] = defaultdict(list)
    for row in await session.scalars(
        select(TicketAttachment)
        .where(TicketAttachment.ticket_id == ticket.id)
        .order_by(TicketAttachment.created_at, TicketAttachment.id)
    ):
        if row.message_id is None or row.message_id in visible:
            by_message[row.message_id].append(row)
    changes: list[TicketChange] = []
    if not for_customer:
        changes = list(
            await session.scalars(
                select(TicketChange)
                .where(TicketChange.ticket_id == ticket.id)
                .order_by(TicketChange.created_at, TicketChange.id)
            )
        )
    accounts = await accounts_by_id(
        session,
        [
            ticket.user_id,
            ticket.assigned_to,
            *(m.sender_id for m in messages),
            *(c.actor_id for c in changes),
        ],
    )
    return TicketDetail(
        ticket=_ticket_read(ticket, accounts, for_customer=for_customer),
        messages=[message_read(m, accounts, by_message.get(m.id, ())) for m in messages],
        attachments=[attachment_read(a) for a in by_message.get(None, ())],
        history=[
            TicketChangeRead(
                actor_name=_name(accounts, c.actor_id),
                field=c.field,
                old_value=c.old_value,
                new_value=c.new_value,
                created_at=as_utc(c.created_at),
            )
            for c in changes
        ],
    )
