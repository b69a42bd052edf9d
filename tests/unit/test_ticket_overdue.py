"""Overdue-ticket notices (`notify_overdue_tickets`, the help desk's periodic job) on SQLite and, with
TEST_DATABASE_URL, PostgreSQL: each breach (first response, resolution) announced once, to the assignee or,
unassigned, to the members who may work the help desk; `due_status`'s rules (a pause that began in time holds
the notice back, a first response sent in time stops that breach, resolved and closed tickets never); PHI-free
words. Time is the job's `now=`: a medium ticket is due a first response in 8 hours and resolved in 48.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from app.services.notifications import list_notifications
from app.services.support import assign_ticket, reply_to_ticket, set_ticket_status
from app.services.support.internal import notify_overdue_tickets
from models.account import Role
from models.notification import NotificationKind
from tests import factories
from tests.factories import person, run


async def overdue(hours: float) -> int:
    """Run the job once, `hours` after now (the tickets were opened just now)."""
    return await run(notify_overdue_tickets, now=datetime.now(UTC) + timedelta(hours=hours))


async def titles(who) -> list[str]:  # noqa: ANN001 - a Person
    page = await run(list_notifications, actor=who.actor, tab="all")
    return [item.title for item in page.items if item.kind == NotificationKind.ticket_overdue]


async def assigned_ticket():  # noqa: ANN201 - (a Person, a TicketRead)
    """A support agent and a ticket just opened by a customer and assigned to the agent."""
    customer, agent = await person(Role.patient), await person(Role.support)
    ticket = await factories.new_ticket(customer)
    await run(assign_ticket, actor=agent.actor, ticket_id=ticket.id, assignee_id=agent.id)
    return agent, ticket


async def test_each_breach_is_announced_once_to_the_assignee(identity) -> None:
    customer = await person(Role.patient, "Jordan Lee")
    agent, colleague = await person(Role.support, "Sam Rivera"), await person(Role.support, "Kim Park")
    ticket = await factories.new_ticket(customer, "Refund for my blood test", "Jordan Lee, DOB 1980-01-01")
    await run(assign_ticket, actor=agent.actor, ticket_id=ticket.id, assignee_id=agent.id)

    assert await overdue(7.9) == 0
    assert await overdue(9) == 1
    assert await overdue(10) == 0
    first = f"Ticket #{ticket.number} is past its first-response time"
    assert await titles(agent) == [first]
    assert await overdue(49) == 1
    assert await overdue(50) == 0
    assert await titles(agent) == [f"Ticket #{ticket.number} is past its resolution time", first]
    assert await titles(colleague) == []

    [item, _] = (await run(list_notifications, actor=agent.actor, tab="all")).items
    assert item.link == f"/staff/help-desk?ticket={ticket.id}"
    # PHI-free: the number only, never the subject, the customer or what they wrote.
    for detail in ("blood", "Refund", "Jordan", "Lee", "1980"):
        assert detail not in item.title + item.body


async def test_unassigned_tickets_go_to_the_help_desk_members_only(identity) -> None:
    customer = await person(Role.patient, "Jordan Lee")
    desk = [await person(Role.support, "Sam Rivera"), await person(Role.hr, "Harper Quinn")]
    others = [
        await person(Role.support, "Off Duty", active=False),
        await person(Role.admin, "Adrian Cole"),
        await person(Role.provider, "Ada Nurse"),
    ]
    ticket = await factories.new_ticket(customer)

    assert await overdue(9) == 1
    for member in desk:
        assert await titles(member) == [f"Ticket #{ticket.number} is past its first-response time"]
    for someone in (*others, customer):
        assert await titles(someone) == []


async def test_a_first_response_in_time_leaves_only_the_resolution_due(identity) -> None:
    agent, ticket = await assigned_ticket()
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="Looking into it.")

    assert await overdue(47) == 0
    assert await overdue(49) == 1
    assert await titles(agent) == [f"Ticket #{ticket.number} is past its resolution time"]


async def test_a_pause_that_began_in_time_holds_the_notice_back(identity) -> None:
    agent, ticket = await assigned_ticket()
    await run(set_ticket_status, actor=agent.actor, ticket_id=ticket.id, status="waiting")

    assert await overdue(100) == 0
    assert await titles(agent) == []
    # The customer answered: the clock runs again, and a run past both due times announces both.
    await run(set_ticket_status, actor=agent.actor, ticket_id=ticket.id, status="open")
    assert await overdue(100) == 2


async def test_resolved_and_closed_tickets_are_never_announced(identity) -> None:
    customer, agent = await person(Role.patient), await person(Role.support)
    for status in ("resolved", "closed"):
        ticket = await factories.new_ticket(customer)
        await run(set_ticket_status, actor=agent.actor, ticket_id=ticket.id, status=status)
    assert await overdue(1000) == 0
    assert await titles(agent) == []


async def test_workers_running_at_once_announce_a_breach_once(identity) -> None:
    agent, ticket = await assigned_ticket()

    counts = await asyncio.gather(*(overdue(9) for _ in range(4)))
    assert sorted(counts) == [0, 0, 0, 1]
    assert await titles(agent) == [f"Ticket #{ticket.number} is past its first-response time"]
