"""The help desk for staff (SPEC §2 "Help Desk", §4 ticket states and filters, §5 replies and search): the
ticket list with its tabs and search, a ticket with its whole thread (internal notes included) and
history, replies and internal notes, status, priority, category, assignment and canned responses.

Everything here needs view_support_tickets (`require_permission`). Assignment rule:
- assigning a ticket to yourself (even one another member holds), or unassigning yourself:
  view_support_tickets, i.e. anyone at the desk;
- assigning it to another member, or unassigning another member: manage_support_tickets or manage_staff
  as well (by SPEC §6 grants: owners and HR, or anyone given manage_support_tickets as an extra);
- the assignee must be a staff member who may use the help desk.
Status and assignment changes are written to the ticket's history and to the audit log.
The customer's side (opening tickets, their own thread, their replies) is `support_customers.py`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.events import publish_on_commit
from app.principal import Principal
from app.services.domain_events import TicketAssigned, TicketReplied
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.shared.accounts import get_account
from app.services.shared.staff_access import members_with, permissions_of, require_permission
from app.services.staff.internal import signed
from app.services.support._attachments import add_message
from app.services.support._common import (
    MESSAGE_REQUIRED,
    TEXT_MAX,
    announce,
    as_category,
    as_priority,
    as_status,
    audit_ticket,
    change_status,
    clean_text,
    load_ticket,
    presence_topic,
    record_change,
    shift_for_priority,
    support_topic,
)
from app.services.support._reads import accounts_by_id, message_read, ticket_detail, ticket_reads
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.staff import Permission
from models.support import (
    CannedResponse,
    CannedResponseRead,
    Ticket,
    TicketCategory,
    TicketDetail,
    TicketMessageRead,
    TicketPriority,
    TicketRead,
    TicketStatus,
)

MAX_PAGE = 100
TITLE_MAX = 120
UNASSIGNED = "Unassigned"
PRESENCE_STATES = ("viewing", "replying")
ASSIGN_OTHERS = frozenset({Permission.manage_support_tickets, Permission.manage_staff})
ASSIGN_DENIED = "Only a help-desk manager can assign tickets to other staff members."
NOT_AN_AGENT = "{name} cannot work on help-desk tickets."
CANNED_TITLE_REQUIRED = "Please give the canned response a title."
CANNED_BODY_REQUIRED = "Please write the canned response."
CANNED_EXISTS = "A canned response with this title already exists."
CANNED_NOT_FOUND = "This canned response does not exist."
CANNED_DELETE_DENIED = "Only its author or a help-desk manager can delete this canned response."


class TicketFilter(enum.StrEnum):
    """The list's tabs (SPEC §2, §4): open means new or open; mine, assigned to the signed-in member."""

    all = "all"
    open = "open"
    mine = "mine"
    in_progress = "in_progress"
    waiting = "waiting"
    resolved = "resolved"


async def _agent(session: AsyncSession, actor: Principal) -> AccountRead:
    return await require_permission(session=session, actor=actor, permission=Permission.view_support_tickets)


# ---- reading -------------------------------------------------------------------------------------
async def list_tickets(
    *,
    session: AsyncSession,
    actor: Principal,
    filter: TicketFilter | str = TicketFilter.all,  # noqa: A002 - the SPEC's word for the tabs
    search: str = "",
    limit: int = MAX_PAGE,
) -> list[TicketRead]:
    """Tickets of one tab, newest activity first; `search` is a case-insensitive substring of the subject
    or description. At most 100."""
    account = await _agent(session, actor)
    try:
        tab = TicketFilter(filter)
    except ValueError:
        raise ValidationFailed("Unknown ticket filter.") from None
    query = select(Ticket)
    if tab == TicketFilter.open:
        query = query.where(Ticket.status.in_((TicketStatus.new, TicketStatus.open)))
    elif tab == TicketFilter.mine:
        query = query.where(Ticket.assigned_to == account.id)
    elif tab != TicketFilter.all:
        query = query.where(Ticket.status == TicketStatus(tab.value))
    needle = search.strip().lower()[:200]
    if needle:
        escaped = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(Ticket.search_text.like(f"%{escaped}%", escape="\\"))
    limit = max(1, min(int(limit), MAX_PAGE))
    rows = list(
        await session.scalars(query.order_by(Ticket.updated_at.desc(), Ticket.id.desc()).limit(limit))
    )
    return await ticket_reads(session, rows)


async def get_ticket(*, session: AsyncSession, actor: Principal, ticket_id: str) -> TicketDetail:
    """A ticket with its whole thread, internal notes included, and its history."""
    await _agent(session, actor)
    return await ticket_detail(session, await load_ticket(session, ticket_id), for_customer=False)


async def record_ticket_view(*, session: AsyncSession, actor: Principal, ticket_id: str) -> None:
    """Note in the audit log that a member opened the ticket (once per open, not per reload of it), with
    the client's address and browser: a ticket is a patient's record (HIPAA §164.312(b))."""
    account = await _agent(session, actor)
    ticket = await load_ticket(session, ticket_id)
    customer = await get_account(session=session, user_id=ticket.user_id)
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.ticket_view,
        target=f"ticket #{ticket.number}",
        details={"customer": customer.name if customer else "", "customer_id": ticket.user_id},
    )


async def _read(session: AsyncSession, ticket: Ticket) -> TicketRead:
    await session.flush()
    return (await ticket_reads(session, [ticket]))[0]


# ---- replies and notes ---------------------------------------------------------------------------
async def reply_to_ticket(
    *,
    session: AsyncSession,
    actor: Principal,
    ticket_id: str,
    content: str,
    internal: bool = False,
    attachment_ids: Sequence[str] = (),
) -> TicketMessageRead:
    """A reply to the customer, or an internal note (`internal`: staff only, never shown to the customer).

    Empty after trimming: refused. On a new or open ticket it moves the ticket to in progress; the first
    public reply marks the ticket as responded to."""
    account = await _agent(session, actor)
    content = clean_text(content, required=MESSAGE_REQUIRED, limit=TEXT_MAX, name="message")
    if not internal:
        content = await signed(session, account.id, content)
    ticket = await load_ticket(session, ticket_id, for_update=True)
    now = utcnow()
    message, attachments = await add_message(
        session,
        ticket,
        sender_id=account.id,
        content=content,
        from_staff=True,
        internal=internal,
        attachment_ids=attachment_ids,
        now=now,
    )
    moved = ticket.status in (TicketStatus.new, TicketStatus.open) and await change_status(
        session, ticket, account, TicketStatus.in_progress
    )
    ticket.updated_at = now
    if not internal and ticket.first_responded_at is None:
        ticket.first_responded_at = now
    await announce(session, ticket, "note" if internal else "reply", customer=not internal)
    if not internal and ticket.user_id != account.id:
        await events.publish_event(
            session, TicketReplied(ticket_id=ticket.id, number=ticket.number, customer_id=ticket.user_id)
        )
    if internal and moved:
        # The customer sees the new status, not that a note caused it.
        await publish_on_commit(
            session, support_topic(ticket.user_id), {"ticket_id": ticket.id, "kind": "status"}
        )
    return message_read(message, await accounts_by_id(session, [account.id]), attachments)


async def announce_presence(*, session: AsyncSession, actor: Principal, ticket_id: str, state: str) -> None:
    """Tell the other agents who have this ticket open that the actor is viewing it or replying (a signal
    only: nothing is stored). The consoles repeat "viewing" as a heartbeat and forget silent agents."""
    account = await _agent(session, actor)
    if state not in PRESENCE_STATES:
        raise ValidationFailed("Unknown presence state.")
    payload = {"ticket_id": ticket_id, "user_id": account.id, "name": account.name, "state": state}
    await publish_on_commit(session, presence_topic(ticket_id), payload)


# ---- status, priority, category, assignment ------------------------------------------------------
async def set_ticket_status(
    *, session: AsyncSession, actor: Principal, ticket_id: str, status: TicketStatus | str
) -> TicketRead:
    """Any status from any other (SPEC §4): resolved or closed sets closed_at, reopening clears it;
    waiting pauses the due clock."""
    account = await _agent(session, actor)
    status = as_status(status)
    ticket = await load_ticket(session, ticket_id, for_update=True)
    if await change_status(session, ticket, account, status):
        await announce(session, ticket, "status", customer=True)
    return await _read(session, ticket)


async def set_ticket_priority(
    *, session: AsyncSession, actor: Principal, ticket_id: str, priority: TicketPriority | str
) -> TicketRead:
    """A new priority; the due times move by the difference between the two priorities' allowances."""
    account = await _agent(session, actor)
    priority = as_priority(priority)
    ticket = await load_ticket(session, ticket_id, for_update=True)
    if ticket.priority != priority:
        record_change(session, ticket, account.id, "priority", ticket.priority.value, priority.value)
        shift_for_priority(ticket, ticket.priority, priority)
        ticket.priority = priority
        ticket.updated_at = utcnow()
        await announce(session, ticket, "priority", customer=False)
    return await _read(session, ticket)


async def set_ticket_category(
    *, session: AsyncSession, actor: Principal, ticket_id: str, category: TicketCategory | str
) -> TicketRead:
    account = await _agent(session, actor)
    category = as_category(category)
    ticket = await load_ticket(session, ticket_id, for_update=True)
    if ticket.category != category:
        record_change(session, ticket, account.id, "category", ticket.category.value, category.value)
        ticket.category = category
        ticket.updated_at = utcnow()
        await announce(session, ticket, "category", customer=True)
    return await _read(session, ticket)


async def _may_work_tickets(session: AsyncSession, account: AccountRead) -> bool:
    return Permission.view_support_tickets in await permissions_of(session=session, account=account)


async def assign_ticket(
    *, session: AsyncSession, actor: Principal, ticket_id: str, assignee_id: str | None
) -> TicketRead:
    """Assign the ticket (None: unassign). See the module's docstring for who may assign whom."""
    account = await _agent(session, actor)
    ticket = await load_ticket(session, ticket_id, for_update=True)
    assignee_id = assignee_id or None
    if assignee_id == ticket.assigned_to:
        return await _read(session, ticket)
    # Whose assignment this decides besides the actor's own: the new assignee, or the one taken off.
    others = {assignee_id or ticket.assigned_to} - {None, account.id}
    if others and not ASSIGN_OTHERS & await permissions_of(session=session, account=account):
        raise PermissionDenied(ASSIGN_DENIED)
    assignee = None
    if assignee_id is not None:
        assignee = await get_account(session=session, user_id=assignee_id)
        if assignee is None:
            raise NotFound("This staff member does not exist.")
        if not await _may_work_tickets(session, assignee):
            raise ValidationFailed(NOT_AN_AGENT.format(name=assignee.name))
    previous = (await accounts_by_id(session, [ticket.assigned_to])).get(ticket.assigned_to or "")
    record_change(
        session,
        ticket,
        account.id,
        "assignee",
        previous.name if previous else UNASSIGNED,
        assignee.name if assignee else UNASSIGNED,
    )
    await audit_ticket(
        session, account, AuditAction.ticket_assign, ticket, ticket.assigned_to or "", assignee_id or ""
    )
    ticket.assigned_to = assignee_id
    ticket.updated_at = utcnow()
    await announce(session, ticket, "assigned", customer=False)
    if assignee_id is not None and assignee_id != account.id:
        await events.publish_event(
            session, TicketAssigned(ticket_id=ticket.id, number=ticket.number, assignee_id=assignee_id)
        )
    return await _read(session, ticket)


async def list_assignable_staff(*, session: AsyncSession, actor: Principal) -> list[AccountRead]:
    """Staff members who may work the help desk (and so be assigned tickets), by name."""
    await _agent(session, actor)
    return await members_with(session=session, permission=Permission.view_support_tickets)


# ---- canned responses ------------------------------------------------------------------------------
def render_canned_response(body: str, ticket: TicketRead) -> str:
    """A canned response for `ticket`: {customer} is the customer's name, {ticket} the ticket's '#1042'."""
    return body.replace("{customer}", ticket.customer_name).replace("{ticket}", f"#{ticket.number}")


def _canned_read(row: CannedResponse) -> CannedResponseRead:
    return CannedResponseRead(id=row.id, title=row.title, body=row.body)


async def list_canned_responses(*, session: AsyncSession, actor: Principal) -> list[CannedResponseRead]:
    await _agent(session, actor)
    rows = await session.scalars(select(CannedResponse).order_by(CannedResponse.title).limit(MAX_PAGE))
    return [_canned_read(row) for row in rows]


async def create_canned_response(
    *, session: AsyncSession, actor: Principal, title: str, body: str
) -> CannedResponseRead:
    account = await _agent(session, actor)
    title = clean_text(title, required=CANNED_TITLE_REQUIRED, limit=TITLE_MAX, name="title")
    body = clean_text(body, required=CANNED_BODY_REQUIRED, limit=TEXT_MAX, name="response")
    row = CannedResponse(title=title, body=body, created_by=account.id)
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:
        raise ValidationFailed(CANNED_EXISTS) from None
    return _canned_read(row)


async def delete_canned_response(*, session: AsyncSession, actor: Principal, canned_id: str) -> None:
    """Its author, or a help-desk manager (manage_support_tickets or manage_staff), may delete it."""
    account = await _agent(session, actor)
    row = await session.get(CannedResponse, canned_id)
    if row is None:
        raise NotFound(CANNED_NOT_FOUND)
    if row.created_by != account.id and not ASSIGN_OTHERS & await permissions_of(
        session=session, account=account
    ):
        raise PermissionDenied(CANNED_DELETE_DENIED)
    await session.execute(delete(CannedResponse).where(CannedResponse.id == row.id))
