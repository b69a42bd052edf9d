"""The help desk's services (app/services/support*.py): the list's tabs and search, status transitions with
closed_at, due times and the waiting pause, history and audit, canned responses, who may do what, and that
internal notes never reach a customer (reads, events, downloads)."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update

from app import db as app_db
from app import events
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.staff._audit import list_audit
from app.services.support import (
    announce_presence,
    assign_ticket,
    create_canned_response,
    delete_canned_response,
    due_status,
    get_my_ticket,
    get_ticket,
    list_assignable_staff,
    list_canned_responses,
    list_my_tickets,
    list_tickets,
    open_attachment,
    open_ticket,
    presence_topic,
    render_canned_response,
    reply_as_customer,
    reply_to_ticket,
    set_ticket_category,
    set_ticket_priority,
    set_ticket_status,
    stage_attachment,
    support_topic,
    ticket_topic,
)
from models.account import AccountRead, Role
from models.audit import AuditAction
from models.base import utcnow
from models.staff import Permission
from models.support import Ticket, TicketStatus
from tests.factories import new_ticket, person, run, settle

OWNER = AccountRead(id=str(uuid.uuid4()), email="owner@medivisit.test", role=Role.owner)
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def token() -> str:
    return f"tok{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def desk(identity):  # noqa: ANN201
    """A patient, a support agent, a management member and an HR member."""
    return (
        await person(Role.patient, "Jordan Lee"),
        await person(Role.support, "Sam Rivera"),
        await person(Role.management, "Morgan Hayes"),
        await person(Role.hr, "Harper Quinn"),
    )


# ---- opening, due times, history -------------------------------------------------------------------
async def test_a_customer_opens_a_ticket_with_due_times_and_a_history_line(desk) -> None:
    patient, support, *_ = desk
    before = utcnow()
    ticket = await new_ticket(patient, "  Charged twice  ", "My card was charged twice.")
    assert (ticket.status, ticket.priority, ticket.category) == ("new", "medium", "billing")
    assert ticket.subject == "Charged twice" and ticket.number >= 1001
    assert ticket.customer_name == "Jordan Lee" and ticket.closed_at is None
    assert timedelta(hours=8) <= ticket.first_response_due_at - before < timedelta(hours=8, minutes=1)
    assert timedelta(hours=48) <= ticket.resolution_due_at - before < timedelta(hours=48, minutes=1)
    detail = await run(get_ticket, actor=support.actor, ticket_id=ticket.id)
    assert [(h.field, h.new_value, h.actor_name) for h in detail.history] == [
        ("created", f"#{ticket.number}", "Jordan Lee")
    ]
    second = await new_ticket(patient, "Another one")
    assert second.number > ticket.number


@pytest.mark.parametrize(
    ("priority", "hours"), [("urgent", (1, 4)), ("high", (4, 24)), ("medium", (8, 48)), ("low", (24, 72))]
)
async def test_staff_open_a_ticket_for_a_customer_with_due_times_by_priority(desk, priority, hours) -> None:
    patient, support, *_ = desk
    ticket = await run(
        open_ticket,
        actor=support.actor,
        category="booking",
        subject="Follow-up on your visit",
        description="Checking in.",
        customer_email=patient.account.email.upper(),
        priority=priority,
    )
    assert ticket.user_id == patient.id and ticket.priority == priority
    first, resolution = hours
    assert ticket.first_response_due_at - ticket.created_at == timedelta(hours=first)
    assert ticket.resolution_due_at - ticket.created_at == timedelta(hours=resolution)
    assert any(t.id == ticket.id for t in await run(list_my_tickets, actor=patient.actor))


async def test_opening_is_validated_and_only_staff_choose_a_priority_or_a_customer(desk) -> None:
    patient, support, *_ = desk
    with pytest.raises(ValidationFailed, match="subject"):
        await new_ticket(patient, "   ")
    with pytest.raises(ValidationFailed, match="at most 200"):
        await new_ticket(patient, "x" * 201)
    with pytest.raises(ValidationFailed, match="at most 10,000"):
        await new_ticket(patient, "Long", "y" * 10_001)
    with pytest.raises(ValidationFailed, match="Unknown ticket category"):
        await run(open_ticket, actor=patient.actor, category="gossip", subject="S", description="D")
    with pytest.raises(PermissionDenied):
        await new_ticket(patient, "Make it urgent", priority="urgent")
    with pytest.raises(PermissionDenied):
        await new_ticket(patient, "For someone else", customer_email=support.account.email)
    with pytest.raises(NotFound, match="No account"):
        await new_ticket(support, "Nobody", customer_email="nobody@medivisit.test")
    with pytest.raises(PermissionDenied):
        await run(open_ticket, actor=Principal.visitor("v-1"), category="other", subject="S", description="D")


# ---- the list: tabs and search -----------------------------------------------------------------------
async def test_each_tab_shows_its_tickets_and_the_status_tabs_filter_by_status(desk) -> None:
    patient, support, management, _hr = desk
    mark = token()
    tickets = {name: await new_ticket(patient, f"{mark} {name}") for name in TicketStatus}
    for status, ticket in tickets.items():
        if status != TicketStatus.new:
            await run(set_ticket_status, actor=management.actor, ticket_id=ticket.id, status=status)
    await run(
        assign_ticket, actor=support.actor, ticket_id=tickets[TicketStatus.waiting].id, assignee_id=support.id
    )

    async def tab(name: str) -> set[str]:
        found = await run(list_tickets, actor=support.actor, filter=name, search=mark)
        return {t.subject.split()[1] for t in found}

    assert await tab("all") == set(TicketStatus)
    assert await tab("open") == {"new", "open"}
    assert await tab("mine") == {"waiting"}
    assert await tab("in_progress") == {"in_progress"}
    assert await tab("waiting") == {"waiting"}
    assert await tab("resolved") == {"resolved"}
    with pytest.raises(ValidationFailed):
        await tab("overdue")


async def test_search_is_a_case_insensitive_substring_of_subject_or_description_newest_first(desk) -> None:
    patient, support, *_ = desk
    mark = token()
    by_subject = await new_ticket(patient, f"Refund {mark.upper()} please")
    by_description = await new_ticket(patient, "Question", f"About the x{mark}y visit.")
    await new_ticket(patient, "Unrelated", "Nothing to see.")
    found = await run(list_tickets, actor=support.actor, search=f"  {mark.title()} ")
    assert [t.id for t in found] == [by_description.id, by_subject.id]
    await run(reply_to_ticket, actor=support.actor, ticket_id=by_subject.id, content="On it.")
    found = await run(list_tickets, actor=support.actor, search=mark)
    assert [t.id for t in found] == [by_subject.id, by_description.id]  # newest activity first
    literal = await new_ticket(patient, f"{mark} 100% sure_thing")
    assert [t.id for t in await run(list_tickets, actor=support.actor, search="100% sure_")] == [literal.id]
    assert await run(list_tickets, actor=support.actor, search=f"{mark}%sure") == []
    assert len(await run(list_tickets, actor=support.actor, limit=1000)) <= 100


# ---- replies, notes and transitions ------------------------------------------------------------------
async def test_a_reply_moves_a_new_ticket_in_progress_and_marks_the_first_response(desk) -> None:
    patient, support, *_ = desk
    ticket = await new_ticket(patient, "Cannot log in")
    with pytest.raises(ValidationFailed, match="write a message"):
        await run(reply_to_ticket, actor=support.actor, ticket_id=ticket.id, content=" \n\t ")
    note = await run(
        reply_to_ticket, actor=support.actor, ticket_id=ticket.id, content="Checking logs", internal=True
    )
    assert (note.author_label, note.is_internal, note.sender_name) == ("Internal Note", True, "Sam Rivera")
    detail = await run(get_ticket, actor=support.actor, ticket_id=ticket.id)
    assert detail.ticket.status == "in_progress" and detail.ticket.first_responded_at is None
    assert detail.ticket.updated_at >= note.created_at
    reply = await run(reply_to_ticket, actor=support.actor, ticket_id=ticket.id, content="  Try again now.  ")
    assert (reply.author_label, reply.content) == ("Support Staff", "Try again now.")
    detail = await run(get_ticket, actor=support.actor, ticket_id=ticket.id)
    assert detail.ticket.first_responded_at == reply.created_at
    assert [m.author_label for m in detail.messages] == ["Internal Note", "Support Staff"]
    mine = await run(reply_as_customer, actor=patient.actor, ticket_id=ticket.id, content="Works, thanks!")
    assert mine.author_label == "Customer"
    waiting = await new_ticket(patient, "Waiting stays waiting")
    await run(set_ticket_status, actor=support.actor, ticket_id=waiting.id, status="waiting")
    await run(reply_to_ticket, actor=support.actor, ticket_id=waiting.id, content="Any news?")
    assert (await run(get_ticket, actor=support.actor, ticket_id=waiting.id)).ticket.status == "waiting"


async def test_resolving_or_closing_sets_closed_at_and_reopening_clears_it(desk) -> None:
    patient, support, *_ = desk
    ticket = await new_ticket(patient, "Transitions")
    resolved = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="resolved")
    assert resolved.status == "resolved" and resolved.closed_at is not None
    reopened = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="open")
    assert reopened.status == "open" and reopened.closed_at is None
    closed = await run(
        set_ticket_status, actor=support.actor, ticket_id=ticket.id, status=TicketStatus.closed
    )
    assert closed.closed_at is not None
    with pytest.raises(ValidationFailed, match="Unknown ticket status"):
        await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="archived")
    with pytest.raises(ValidationFailed, match="closed"):
        await run(reply_as_customer, actor=patient.actor, ticket_id=ticket.id, content="Hello?")


async def test_a_customer_reply_reopens_a_waiting_or_resolved_ticket(desk) -> None:
    patient, support, *_ = desk
    for status in ("waiting", "resolved"):
        ticket = await new_ticket(patient, f"Reopen from {status}")
        await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status=status)
        await run(reply_as_customer, actor=patient.actor, ticket_id=ticket.id, content="Still broken.")
        mine = await run(get_my_ticket, actor=patient.actor, ticket_id=ticket.id)
        assert (mine.ticket.status, mine.ticket.closed_at, mine.ticket.paused_at) == ("open", None, None)


async def test_waiting_pauses_the_due_clock_and_leaving_it_pushes_the_due_times_back(desk) -> None:
    patient, support, *_ = desk
    ticket = await new_ticket(patient, "Pause me")
    paused = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="waiting")
    assert paused.paused_at is not None
    # Two hours spent waiting on the customer.
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(Ticket).where(Ticket.id == ticket.id).values(paused_at=utcnow() - timedelta(hours=2))
        )
    resumed = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="in_progress")
    assert resumed.paused_at is None
    pushed = resumed.first_response_due_at - ticket.first_response_due_at
    assert timedelta(hours=2) <= pushed < timedelta(hours=2, minutes=1)
    assert resumed.resolution_due_at - ticket.resolution_due_at == pushed


async def test_overdue_flags_follow_the_due_times_and_stop_while_waiting_or_done(desk) -> None:
    patient, support, *_ = desk
    ticket = await new_ticket(patient, "Due flags")
    now = utcnow()
    assert not due_status(ticket, now).overdue
    late = due_status(ticket, now + timedelta(hours=9))
    assert late.first_response_overdue and not late.resolution_overdue
    assert due_status(ticket, now + timedelta(hours=49)).resolution_overdue
    await run(reply_to_ticket, actor=support.actor, ticket_id=ticket.id, content="Answered.")
    answered = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="in_progress")
    later = due_status(answered, now + timedelta(hours=9))
    assert not later.first_response_overdue and not later.overdue
    waiting = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="waiting")
    assert not due_status(waiting, now + timedelta(days=30)).overdue  # the clock stopped when it paused
    resolved = await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="resolved")
    assert not due_status(resolved, now + timedelta(days=30)).overdue


async def test_priority_moves_the_due_times_and_every_change_is_in_the_history_and_audit(desk) -> None:
    patient, support, _management, hr = desk
    ticket = await new_ticket(patient, "History")
    urgent = await run(set_ticket_priority, actor=support.actor, ticket_id=ticket.id, priority="urgent")
    assert ticket.first_response_due_at - urgent.first_response_due_at == timedelta(hours=7)
    assert ticket.resolution_due_at - urgent.resolution_due_at == timedelta(hours=44)
    await run(set_ticket_category, actor=support.actor, ticket_id=ticket.id, category="technical")
    await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="waiting")
    await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="waiting")  # no change
    await run(assign_ticket, actor=hr.actor, ticket_id=ticket.id, assignee_id=support.id)
    detail = await run(get_ticket, actor=support.actor, ticket_id=ticket.id)
    assert [(h.field, h.old_value, h.new_value, h.actor_name) for h in detail.history] == [
        ("created", "", f"#{ticket.number}", "Jordan Lee"),
        ("priority", "medium", "urgent", "Sam Rivera"),
        ("category", "billing", "technical", "Sam Rivera"),
        ("status", "New", "Waiting", "Sam Rivera"),
        ("assignee", "Unassigned", "Sam Rivera", "Harper Quinn"),
    ]
    assert detail.ticket.assignee_name == "Sam Rivera"
    async with app_db.unit_of_work() as session:
        statuses = await list_audit(session=session, reader=OWNER, action=AuditAction.ticket_status)
        assignments = await list_audit(session=session, reader=OWNER, action=AuditAction.ticket_assign)
    status_entry = next(e for e in statuses if e.details.get("ticket_id") == ticket.id)
    assert (status_entry.actor_id, status_entry.details["from"], status_entry.details["to"]) == (
        support.id,
        "new",
        "waiting",
    )
    assign_entry = next(e for e in assignments if e.details.get("ticket_id") == ticket.id)
    assert (assign_entry.actor_email, assign_entry.target, assign_entry.details["to"]) == (
        hr.account.email,
        f"ticket #{ticket.number}",
        support.id,
    )


# ---- canned responses ----------------------------------------------------------------------------
async def test_canned_responses_fill_in_the_customer_and_ticket(desk) -> None:
    patient, support, management, hr = desk
    ticket = await new_ticket(patient, "Canned")
    title = f"Greeting {token()}"
    canned = await run(
        create_canned_response, actor=support.actor, title=title, body="Hi {customer}, about {ticket}: {x}"
    )
    assert canned.id in {c.id for c in await run(list_canned_responses, actor=management.actor)}
    assert render_canned_response(canned.body, ticket) == f"Hi Jordan Lee, about #{ticket.number}: {{x}}"
    with pytest.raises(ValidationFailed, match="already exists"):
        await run(create_canned_response, actor=management.actor, title=title, body="Other")
    with pytest.raises(ValidationFailed, match="title"):
        await run(create_canned_response, actor=support.actor, title=" ", body="Body")
    with pytest.raises(PermissionDenied):
        await run(delete_canned_response, actor=management.actor, canned_id=canned.id)
    with pytest.raises(PermissionDenied):
        await run(list_canned_responses, actor=patient.actor)
    await run(delete_canned_response, actor=hr.actor, canned_id=canned.id)  # manage_staff
    assert canned.id not in {c.id for c in await run(list_canned_responses, actor=support.actor)}


# ---- permissions -----------------------------------------------------------------------------------
async def test_a_patient_cannot_use_the_desk_nor_see_other_peoples_tickets(desk) -> None:
    patient, support, *_ = desk
    other = await person(Role.patient, "Riley Park")
    theirs = await new_ticket(other, "Private matter")
    for call, kwargs in (
        (list_tickets, {}),
        (get_ticket, {"ticket_id": theirs.id}),
        (reply_to_ticket, {"ticket_id": theirs.id, "content": "Hi"}),
        (set_ticket_status, {"ticket_id": theirs.id, "status": "resolved"}),
        (assign_ticket, {"ticket_id": theirs.id, "assignee_id": patient.id}),
        (list_assignable_staff, {}),
    ):
        with pytest.raises(PermissionDenied, match="staff portal"):
            await run(call, actor=patient.actor, **kwargs)
    with pytest.raises(NotFound):
        await run(get_my_ticket, actor=patient.actor, ticket_id=theirs.id)
    with pytest.raises(NotFound):
        await run(reply_as_customer, actor=patient.actor, ticket_id=theirs.id, content="Me too")
    assert theirs.id not in {t.id for t in await run(list_my_tickets, actor=patient.actor)}
    with pytest.raises(PermissionDenied):
        await run(list_my_tickets, actor=Principal.visitor("v-1"))
    assert (
        await run(reply_to_ticket, actor=support.actor, ticket_id=theirs.id, content="Hi")
    ).content == "Hi"


async def test_assignment_rules(desk) -> None:
    patient, support, management, hr = desk
    lead = await person(Role.support, "Lee Lead", extras=(Permission.manage_support_tickets,))
    ticket = await new_ticket(patient, "Assign me")
    mine = await run(assign_ticket, actor=support.actor, ticket_id=ticket.id, assignee_id=support.id)
    assert (mine.assigned_to, mine.assignee_name) == (support.id, "Sam Rivera")
    assert ticket.id in {t.id for t in await run(list_tickets, actor=support.actor, filter="mine")}
    assert ticket.id not in {t.id for t in await run(list_tickets, actor=management.actor, filter="mine")}
    with pytest.raises(PermissionDenied, match="manager"):
        await run(assign_ticket, actor=support.actor, ticket_id=ticket.id, assignee_id=management.id)
    with pytest.raises(PermissionDenied, match="manager"):  # taking someone else off needs it too
        await run(assign_ticket, actor=management.actor, ticket_id=ticket.id, assignee_id=None)
    taken = await run(assign_ticket, actor=management.actor, ticket_id=ticket.id, assignee_id=management.id)
    assert taken.assignee_name == "Morgan Hayes"
    assert (
        await run(assign_ticket, actor=management.actor, ticket_id=ticket.id, assignee_id=None)
    ).assigned_to is None
    by_hr = await run(assign_ticket, actor=hr.actor, ticket_id=ticket.id, assignee_id=support.id)
    assert by_hr.assigned_to == support.id
    by_lead = await run(assign_ticket, actor=lead.actor, ticket_id=ticket.id, assignee_id=management.id)
    assert by_lead.assigned_to == management.id
    with pytest.raises(ValidationFailed, match="cannot work on help-desk tickets"):
        await run(assign_ticket, actor=hr.actor, ticket_id=ticket.id, assignee_id=patient.id)
    agents = {a.id for a in await run(list_assignable_staff, actor=support.actor)}
    assert {support.id, management.id, hr.id, lead.id} <= agents and patient.id not in agents


# ---- internal notes never reach a customer ------------------------------------------------------------
async def test_internal_notes_never_reach_the_customer(desk) -> None:
    patient, support, *_ = desk
    secret = f"note-{token()}"
    ticket = await new_ticket(patient, "Keep notes private")
    async with (
        events.subscribe(support_topic(patient.id)) as customer_events,
        events.subscribe("helpdesk", ticket_topic(ticket.id)) as staff_events,
    ):
        note_file = await run(stage_attachment, actor=support.actor, filename="notes.png", data=PNG)
        note = await run(
            reply_to_ticket,
            actor=support.actor,
            ticket_id=ticket.id,
            content=secret,
            internal=True,
            attachment_ids=[note_file.id],
        )
        assert [a.id for a in note.attachments] == [note_file.id]
        heard_by_customer = await settle(customer_events, support_topic(patient.id))
        reply_file = await run(
            stage_attachment, actor=support.actor, filename="steps.txt", data=b"1. Retry\n"
        )
        await run(
            reply_to_ticket,
            actor=support.actor,
            ticket_id=ticket.id,
            content="Please retry.",
            attachment_ids=[reply_file.id],
        )
        heard_by_customer += await settle(customer_events, support_topic(patient.id))
        heard_by_staff = await settle(staff_events, ticket_topic(ticket.id))
    # The note moved the ticket in progress: the customer hears of the status, not of the note.
    assert [e["kind"] for e in heard_by_customer] == ["status", "reply"]
    assert {e["kind"] for e in heard_by_staff} == {"note", "reply"}
    for payload in heard_by_customer + heard_by_staff:
        assert set(payload) == {"ticket_id", "kind", "topic"} and payload["ticket_id"] == ticket.id
        assert secret not in json.dumps(payload)

    mine = await run(get_my_ticket, actor=patient.actor, ticket_id=ticket.id)
    assert [m.content for m in mine.messages] == ["Please retry."]
    assert mine.history == [] and mine.ticket.assigned_to is None
    assert [a.filename for a in mine.messages[0].attachments] == ["steps.txt"]
    listed = await run(list_my_tickets, actor=patient.actor)
    assert secret not in mine.model_dump_json() and secret not in json.dumps(
        [t.model_dump_json() for t in listed]
    )
    with pytest.raises(NotFound):
        await run(open_attachment, actor=patient.actor, attachment_id=note_file.id)
    assert (
        await run(open_attachment, actor=patient.actor, attachment_id=reply_file.id)
    ).path.read_bytes() == (b"1. Retry\n")
    staff_file = await run(open_attachment, actor=support.actor, attachment_id=note_file.id)
    assert staff_file.path.read_bytes() == PNG and staff_file.attachment.content_type == "image/png"
    staff_view = await run(get_ticket, actor=support.actor, ticket_id=ticket.id)
    assert [m.content for m in staff_view.messages] == [secret, "Please retry."]


async def test_staged_files_belong_to_their_uploader_until_sent(desk) -> None:
    patient, support, *_ = desk
    other = await person(Role.patient, "Riley Park")
    staged = await run(stage_attachment, actor=patient.actor, filename="../../etc/passwd.txt", data=b"hello")
    assert staged.filename == "passwd.txt" and staged.size == 5
    assert (
        await run(open_attachment, actor=patient.actor, attachment_id=staged.id)
    ).path.read_bytes() == b"hello"
    for someone in (other, support):  # not sent yet: only its uploader sees it
        with pytest.raises(NotFound):
            await run(open_attachment, actor=someone.actor, attachment_id=staged.id)
    with pytest.raises(ValidationFailed, match="attach it again"):
        await new_ticket(other, "Stolen file", attachment_ids=[staged.id])
    ticket = await new_ticket(patient, "With a file", attachment_ids=[staged.id])
    detail = await run(get_my_ticket, actor=patient.actor, ticket_id=ticket.id)
    assert [a.id for a in detail.attachments] == [staged.id]
    with pytest.raises(ValidationFailed, match="attach it again"):  # already sent
        await run(
            reply_as_customer,
            actor=patient.actor,
            ticket_id=ticket.id,
            content="x",
            attachment_ids=[staged.id],
        )
    with pytest.raises(NotFound):
        await run(open_attachment, actor=other.actor, attachment_id=staged.id)
    assert (
        await run(open_attachment, actor=support.actor, attachment_id=staged.id)
    ).attachment.id == staged.id


async def test_presence_reaches_agents_only_and_carries_no_text(desk) -> None:
    patient, support, *_ = desk
    ticket = await new_ticket(patient, "Who is here")
    async with (
        events.subscribe(presence_topic(ticket.id)) as presence,
        events.subscribe(support_topic(patient.id)) as customer_events,
    ):
        await run(announce_presence, actor=support.actor, ticket_id=ticket.id, state="replying")
        with pytest.raises(PermissionDenied):
            await run(announce_presence, actor=patient.actor, ticket_id=ticket.id, state="viewing")
        with pytest.raises(ValidationFailed):
            await run(announce_presence, actor=support.actor, ticket_id=ticket.id, state="typing loudly")
        heard = await settle(presence, presence_topic(ticket.id))
        assert await settle(customer_events, support_topic(patient.id)) == []
    assert heard == [
        {
            "ticket_id": ticket.id,
            "user_id": support.id,
            "name": "Sam Rivera",
            "state": "replying",
            "topic": presence_topic(ticket.id),
        }
    ]


async def test_tickets_opened_at_the_same_moment_get_distinct_numbers(desk) -> None:
    patient, *_ = desk
    opened = await asyncio.gather(*(new_ticket(patient, f"Concurrent {n}") for n in range(6)))
    numbers = [t.number for t in opened]
    assert len(set(numbers)) == len(numbers)
