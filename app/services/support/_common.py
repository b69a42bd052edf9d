"""Help-desk rules shared by the staff desk (`support.py`) and the customer side (`support_customers.py`):
limits and messages, due times by priority and the waiting pause, status changes, history, and the events
every change publishes.

Events carry ids and a kind, never message text: "helpdesk" (staff consoles), `ticket:<id>` (staff
detail views), `presence:<id>` (agents viewing or replying to a ticket) and `support:<customer id>` (the
customer's screens, never told about internal notes).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import TypeVar

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.events import publish_on_commit
from app.services.automation.internal import emit_ticket_event
from app.services.errors import NotFound, ValidationFailed
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.identity import as_utc
from models.support import (
    DueStatus,
    Ticket,
    TicketCategory,
    TicketChange,
    TicketPriority,
    TicketRead,
    TicketStatus,
)

SUBJECT_MAX = 200
TEXT_MAX = 10_000
FIRST_TICKET_NUMBER = 1001
TICKET_NUMBER_LOCK = 0x7469636B  # pg_advisory_xact_lock key of ticket numbering ("tick")
NUMBER_ATTEMPTS = 10

HELPDESK_TOPIC = "helpdesk"
E = TypeVar("E", bound=StrEnum)

SUBJECT_REQUIRED = "Please enter a subject."
DESCRIPTION_REQUIRED = "Please describe how we can help."
MESSAGE_REQUIRED = "Please write a message before sending."
TICKET_NOT_FOUND = "This ticket does not exist."
UNKNOWN_STATUS = "Unknown ticket status."
UNKNOWN_PRIORITY = "Unknown ticket priority."
UNKNOWN_CATEGORY = "Unknown ticket category."

# SPEC §3 priorities → (first response, resolution) due, in hours from opening.
DUE_HOURS: dict[TicketPriority, tuple[int, int]] = {
    TicketPriority.urgent: (1, 4),
    TicketPriority.high: (4, 24),
    TicketPriority.medium: (8, 48),
    TicketPriority.low: (24, 72),
}
DONE_STATUSES = frozenset({TicketStatus.resolved, TicketStatus.closed})


def ticket_topic(ticket_id: str) -> str:
    return f"ticket:{ticket_id}"


def support_topic(user_id: str) -> str:
    return f"support:{user_id}"


def presence_topic(ticket_id: str) -> str:
    """Who is viewing or replying to a ticket right now (staff consoles only; never stored)."""
    return f"presence:{ticket_id}"


def clean_text(value: str | None, *, required: str, limit: int, name: str) -> str:
    """`value` trimmed; ValidationFailed when empty or longer than `limit` characters."""
    cleaned = (value or "").strip()
    if not cleaned:
        raise ValidationFailed(required)
    if len(cleaned) > limit:
        raise ValidationFailed(f"The {name} can be at most {limit:,} characters.")
    return cleaned


def _choice(kind: type[E], value: E | str, message: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise ValidationFailed(message) from None


def as_status(value: TicketStatus | str) -> TicketStatus:
    return _choice(TicketStatus, value, UNKNOWN_STATUS)


def as_priority(value: TicketPriority | str) -> TicketPriority:
    return _choice(TicketPriority, value, UNKNOWN_PRIORITY)


def as_category(value: TicketCategory | str) -> TicketCategory:
    return _choice(TicketCategory, value, UNKNOWN_CATEGORY)


def search_text(subject: str, description: str) -> str:
    """What the case-insensitive ticket search runs on (see `Ticket.search_text`)."""
    return f"{subject}\n{description}".lower()


# ---- due times -----------------------------------------------------------------------------------
def due_times(priority: TicketPriority, start: datetime) -> tuple[datetime, datetime]:
    first, resolution = DUE_HOURS[priority]
    return start + timedelta(hours=first), start + timedelta(hours=resolution)


def shift_for_priority(ticket: Ticket, old: TicketPriority, new: TicketPriority) -> None:
    """Move the due times by the difference between the two priorities' allowances (pauses so far kept)."""
    (old_first, old_resolution), (new_first, new_resolution) = DUE_HOURS[old], DUE_HOURS[new]
    ticket.first_response_due_at = as_utc(ticket.first_response_due_at) + timedelta(
        hours=new_first - old_first
    )
    ticket.resolution_due_at = as_utc(ticket.resolution_due_at) + timedelta(
        hours=new_resolution - old_resolution
    )


def due_status(ticket: TicketRead, now: datetime) -> DueStatus:
    if ticket.status in DONE_STATUSES:
        return DueStatus(first_response_overdue=False, resolution_overdue=False)
    clock = as_utc(ticket.paused_at) or now
    return DueStatus(
        first_response_overdue=ticket.first_responded_at is None and clock > ticket.first_response_due_at,
        resolution_overdue=clock > ticket.resolution_due_at,
    )


# ---- changes -------------------------------------------------------------------------------------
def apply_status(ticket: Ticket, status: TicketStatus, now: datetime) -> bool:
    """Move `ticket` to `status` (SPEC §4): resolved or closed sets closed_at, any other status clears it;
    waiting pauses the due clock and leaving waiting pushes the due times back by the pause. False when
    the ticket already has that status."""
    if ticket.status == status:
        return False
    if ticket.status == TicketStatus.waiting and ticket.paused_at is not None:
        paused = now - as_utc(ticket.paused_at)
        ticket.first_response_due_at = as_utc(ticket.first_response_due_at) + paused
        ticket.resolution_due_at = as_utc(ticket.resolution_due_at) + paused
        ticket.paused_at = None
    if status == TicketStatus.waiting:
        ticket.paused_at = now
    ticket.closed_at = now if status in DONE_STATUSES else None
    ticket.status = status
    ticket.updated_at = now
    return True


async def audit_ticket(
    session: AsyncSession, account: AccountRead, action: AuditAction, ticket: Ticket, old: str, new: str
) -> None:
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=action,
        target=f"ticket #{ticket.number}",
        ip=None,
        user_agent=None,
        details={"ticket_id": ticket.id, "from": old, "to": new},
    )


async def change_status(
    session: AsyncSession, ticket: Ticket, account: AccountRead, status: TicketStatus
) -> bool:
    """`apply_status` with its history line and audit entry; False when nothing changed."""
    old = ticket.status
    if not apply_status(ticket, status, utcnow()):
        return False
    record_change(session, ticket, account.id, "status", old.label, status.label)
    await audit_ticket(session, account, AuditAction.ticket_status, ticket, old.value, status.value)
    await emit_ticket_event(session=session, ticket=ticket)
    return True


def record_change(
    session: AsyncSession, ticket: Ticket, actor_id: str | None, field: str, old: str, new: str
) -> None:
    session.add(
        TicketChange(
            ticket_id=ticket.id, actor_id=actor_id, field=field, old_value=old[:200], new_value=new[:200]
        )
    )


async def announce(session: AsyncSession, ticket: Ticket, kind: str, *, customer: bool) -> None:
    """Tell open screens that `ticket` changed (after commit): the staff consoles and detail views always,
    the customer's screens when `customer` (never for an internal note)."""
    payload = {"ticket_id": ticket.id, "kind": kind}
    await publish_on_commit(session, HELPDESK_TOPIC, payload)
    await publish_on_commit(session, ticket_topic(ticket.id), payload)
    if customer:
        await publish_on_commit(session, support_topic(ticket.user_id), payload)


async def load_ticket(session: AsyncSession, ticket_id: str, *, for_update: bool = False) -> Ticket:
    """The ticket; `for_update` locks its row until commit (PostgreSQL), so two agents' changes queue up
    instead of overwriting each other."""
    ticket = await session.get(Ticket, ticket_id, populate_existing=True, with_for_update=for_update)
    if ticket is None:
        raise NotFound(TICKET_NOT_FOUND)
    return ticket


async def insert_ticket(session: AsyncSession, ticket: Ticket) -> Ticket:
    """Add `ticket` with the next number (#1001, #1002, ...). On PostgreSQL a transaction-scoped advisory
    lock makes concurrent openings take turns; on SQLite a number taken meanwhile (its reads see other
    commits) is retried with the next one."""
    if session.bind is not None and session.bind.dialect.name == "postgresql":
        await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": TICKET_NUMBER_LOCK})
    for _attempt in range(NUMBER_ATTEMPTS):
        highest = await session.scalar(select(func.max(Ticket.number)))
        ticket.number = (highest or FIRST_TICKET_NUMBER - 1) + 1
        try:
            async with session.begin_nested():
                session.add(ticket)
        except IntegrityError:  # the savepoint's rollback took `ticket` out of the session again
            continue
        return ticket
    raise ValidationFailed("Many requests are being opened right now. Please try again.")


async def create_ticket(
    session: AsyncSession,
    *,
    customer_id: str,
    created_by: str,
    subject: str,
    description: str,
    category: TicketCategory,
    priority: TicketPriority,
    at: datetime,
) -> Ticket:
    """A new ticket of `customer_id` (opened by `created_by`: the customer, or staff on their behalf) at
    `at`, with its due times, its number and the 'created' history line. Inputs are already checked."""
    first_due, resolution_due = due_times(priority, at)
    ticket = await insert_ticket(
        session,
        Ticket(
            user_id=customer_id,
            subject=subject,
            description=description,
            search_text=search_text(subject, description),
            status=TicketStatus.new,
            priority=priority,
            category=category,
            tags=[],
            created_by=created_by,
            first_response_due_at=first_due,
            resolution_due_at=resolution_due,
            created_at=at,
            updated_at=at,
        ),
    )
    record_change(session, ticket, created_by, "created", "", f"#{ticket.number}")
    await emit_ticket_event(session=session, ticket=ticket, created=True, now=at)
    return ticket
