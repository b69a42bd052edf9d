"""PHI reads by staff are audited with the client's address and browser (hardening issue, finding 11; HIPAA
§164.312(b)): opening a ticket, downloading a customer's file, opening a visit's details. Reloading an open
ticket writes nothing more; a customer reading their own writes nothing; owners filter by target."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app.services.errors import PermissionDenied
from app.services.staff import add_staff, open_visit, read_audit_log
from app.services.staff._audit import list_audit
from app.services.support import get_ticket, open_attachment, record_ticket_view, stage_attachment
from models.account import AccountRead, Role
from models.audit import AuditAction
from models.booking import AppointmentStatus
from tests.factories import Person, new_ticket, person, run
from tests.unit.test_staff import clinic, visit

OWNER = AccountRead(id=str(uuid.uuid4()), email="owner@medivisit.test", role=Role.owner)
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"


def at_desk(someone: Person, ip: str = "203.0.113.7") -> Person:
    """The same person, acting from a browser tab (the websocket's address and User-Agent)."""
    return replace(someone, actor=someone.actor.from_client(ip=ip, user_agent=BROWSER))


async def entries(action: AuditAction) -> list:
    return await run(list_audit, reader=OWNER, action=action)


@pytest.fixture
async def people(identity):  # noqa: ANN201
    return await person(Role.patient, "Jordan Lee"), at_desk(await person(Role.support, "Sam Rivera"))


async def test_opening_a_ticket_writes_one_entry_with_the_address_and_browser(people) -> None:
    patient, support = people
    ticket = await new_ticket(patient, "Lab results question")
    # Reading (and re-reading, as a live refresh does) is not an open: nothing is written.
    for _ in range(3):
        await run(get_ticket, actor=support.actor, ticket_id=ticket.id)
    assert await entries(AuditAction.ticket_view) == []

    await run(record_ticket_view, actor=support.actor, ticket_id=ticket.id)
    [entry] = await entries(AuditAction.ticket_view)
    assert (entry.actor_email, entry.target) == (support.email, f"ticket #{ticket.number}")
    assert (entry.ip, entry.user_agent) == ("203.0.113.7", BROWSER)
    assert entry.details == {"customer": "Jordan Lee", "customer_id": patient.id}

    with pytest.raises(PermissionDenied):
        await run(record_ticket_view, actor=patient.actor, ticket_id=ticket.id)
    assert len(await entries(AuditAction.ticket_view)) == 1


async def test_staff_downloading_a_customers_file_is_audited_the_customer_is_not(people) -> None:
    patient, support = people
    staged = await run(stage_attachment, actor=patient.actor, filename="lab-results.pdf", data=b"%PDF-1.7\n")
    ticket = await new_ticket(patient, "My results", attachment_ids=[staged.id])

    await run(open_attachment, actor=patient.actor, attachment_id=staged.id)  # their own file
    assert await entries(AuditAction.attachment_download) == []

    found = await run(open_attachment, actor=support.actor, attachment_id=staged.id)
    assert found.attachment.id == staged.id
    [entry] = await entries(AuditAction.attachment_download)
    assert (entry.actor_email, entry.target, entry.ip) == (support.email, "lab-results.pdf", "203.0.113.7")
    assert entry.user_agent == BROWSER
    assert entry.details == {
        "ticket_id": ticket.id,
        "ticket": f"#{ticket.number}",
        "attachment_id": staged.id,
    }
    await run(open_attachment, actor=support.actor, attachment_id=staged.id)
    assert len(await entries(AuditAction.attachment_download)) == 2  # one per download


async def test_opening_a_visit_names_the_address_and_browser(people) -> None:
    patient, _support = people
    manager = at_desk(await person(Role.management))  # view_patient_logs: the address and notes are read
    place = await clinic()
    visit_id = await visit(place, patient, datetime(2033, 7, 6, 14, tzinfo=UTC), AppointmentStatus.pending)
    await run(open_visit, actor=manager.actor, appointment_id=visit_id)
    [entry] = await entries(AuditAction.patient_records_view)
    assert (entry.target, entry.ip, entry.user_agent) == (patient.id, "203.0.113.7", BROWSER)


async def test_owners_filter_the_log_by_target(people) -> None:
    patient, support = people
    owner = await person(Role.owner)
    first, second = await new_ticket(patient, "One"), await new_ticket(patient, "Two")
    for ticket in (first, second, second):
        await run(record_ticket_view, actor=support.actor, ticket_id=ticket.id)
    page = await run(
        read_audit_log,
        actor=owner.actor,
        time_zone="America/New_York",
        action="ticket_view",
        target_query=f"#{second.number}",
    )
    assert [e.target for e in page.entries] == [f"ticket #{second.number}"] * 2


async def test_staff_changes_name_the_address_and_browser_too(people) -> None:
    patient, _support = people
    hr = at_desk(await person(Role.hr), ip="198.51.100.4")
    await run(add_staff, actor=hr.actor, email=patient.email, role=Role.support)
    [entry] = await entries(AuditAction.staff_add)
    assert (entry.target, entry.ip, entry.user_agent) == (patient.email, "198.51.100.4", BROWSER)
