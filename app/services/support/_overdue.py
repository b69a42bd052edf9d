"""Overdue notices (a periodic job, run by the server every minute): a ticket that missed its first-response
or resolution due time is announced to its assignee, or, unassigned, to everyone who may work the help desk
(view_support_tickets) — once per breach.

The rules are `due_status`'s, in SQL: resolved and closed tickets never; a paused ticket (waiting on the
customer) is judged at the moment its pause began, so a pause that started in time holds the notice back;
a first response already sent never breaches. Each breach is claimed by stamping its `…_notified_at` column
with an UPDATE whose WHERE repeats those conditions (… IS NULL): with several workers only the one whose
UPDATE changed the row announces it (PostgreSQL re-checks the WHERE after waiting for a row lock; the
candidates are picked with SKIP LOCKED so the job never waits behind an agent editing a ticket). The scan
reads the two partial indexes of models/support.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, and_, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app import events
from app.services.domain_events import MissedDue, TicketBreach, TicketsOverdue
from models.support import FIRST_RESPONSE_UNANNOUNCED, RESOLUTION_UNANNOUNCED, Ticket

OVERDUE_BATCH = 200  # breaches of one kind claimed per run; the rest wait for the next minute


@dataclass(frozen=True)
class _Watch:
    breach: MissedDue
    due: InstrumentedAttribute[datetime]
    notified: InstrumentedAttribute[datetime | None]
    unannounced: str  # the partial index's condition


WATCHES = (
    _Watch(
        "first-response",
        Ticket.first_response_due_at,
        Ticket.first_response_overdue_notified_at,
        FIRST_RESPONSE_UNANNOUNCED,
    ),
    _Watch(
        "resolution", Ticket.resolution_due_at, Ticket.resolution_overdue_notified_at, RESOLUTION_UNANNOUNCED
    ),
)


def _overdue(watch: _Watch, now: datetime) -> ColumnElement[bool]:
    """`due_status`'s clock: the start of the pause while waiting, else now (a pause began before now, so
    `due < now` holds either way: the index's range)."""
    return and_(
        text(watch.unannounced),
        watch.due < now,
        or_(
            and_(Ticket.paused_at.is_(None), watch.due < now),
            and_(Ticket.paused_at.is_not(None), watch.due < Ticket.paused_at),
        ),
    )


async def _claim(session: AsyncSession, watch: _Watch, now: datetime) -> list[tuple[str, int, str | None]]:
    """Stamp up to a batch of unannounced breaches as announced; (id, number, assignee) of those this run won."""
    candidates = (
        select(Ticket.id)
        .where(_overdue(watch, now))
        .order_by(watch.due)
        .limit(OVERDUE_BATCH)
        .with_for_update(skip_locked=True)
    )
    claimed = await session.execute(
        update(Ticket)
        .where(Ticket.id.in_(candidates.scalar_subquery()), _overdue(watch, now))
        .values({watch.notified: now})
        .returning(Ticket.id, Ticket.number, Ticket.assigned_to)
        .execution_options(synchronize_session=False)
    )
    return [row.tuple() for row in claimed.all()]


async def notify_overdue_tickets(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Announce every ticket breach not announced yet (see the module's docstring); returns how many
    breaches were announced. Safe to run from several workers at once."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    breaches = [(watch.breach, *row) for watch in WATCHES for row in await _claim(session, watch, now)]
    if not breaches:
        return 0
    await events.publish_event(
        session,
        TicketsOverdue(
            breaches=tuple(
                TicketBreach(ticket_id=ticket_id, number=number, breach=breach, assignee_id=assignee)
                for breach, ticket_id, number, assignee in breaches
            ),
            at=now,
        ),
    )
    return len(breaches)
