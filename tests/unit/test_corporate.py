"""Organizations and the corporate desk (issue 17) on SQLite and, with TEST_DATABASE_URL, PostgreSQL: an
enquiry becomes a lead, the lead a contract with its organization, an event day two providers' visits (in
each one's schedule; a busy provider is named) and an invoice; an organization admin invites a colleague
who accepts with the invited address and then reads the contract; who may not invite, leave or read."""

from __future__ import annotations

import re
from datetime import date, time, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from app.principal import Principal
from app.services.accounts.internal import get_account
from app.services.appointments import list_provider_schedule
from app.services.catalog.internal import ensure_reference_catalog
from app.services.corporate import (
    EnquiryInvalid,
    add_lead_note,
    book_event_day,
    create_contract,
    get_contract,
    invoice_event_day,
    list_leads,
    list_my_contracts,
    offered_services,
    set_contract_status,
    submit_enquiry,
    update_contract,
    update_lead,
)
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.notifications import list_notifications
from app.services.organizations import (
    accept_invitation,
    create_organization_for,
    get_my_team,
    invite_member,
    leave_organization,
    remove_member,
)
from models.account import Role
from models.audit import AuditEntry
from models.catalog import ServiceLocation
from models.corporate import ContractCreate, ContractServiceInput, EnquiryCreate, LeadStatus
from models.staff import Permission
from tests.factories import person, present, provider, run

SLUG = "routine-blood-draw"
EVENT_DAY = date.today() + timedelta(days=9)


def enquiry(**changes: object) -> EnquiryCreate:
    values = {
        "company": "Acme Logistics",
        "contact_name": "Dana Whitfield",
        "email": "dana@acme-logistics.example",
        "phone": "(212) 555-0142",
        "site_count": "2",
        "site_location": "New York, 10001",
        "headcount": "180",
        "services": [SLUG],
        "dates_wanted": "Any weekday in early December",
        "message": "Flu season is coming; we'd like one day per site.",
    }
    return EnquiryCreate(**{**values, **changes})


def join_token(message: EmailMessage) -> str:
    body = present(message.get_body(("html",))).get_content()
    return present(re.search(r"/join-team\?token=([\w-]+)", body)).group(1)


async def contract_for(desk: Principal, contact_email: str) -> str:
    """A lead from the enquiry form taken to an active contract (the contact becomes the org's admin)."""
    lead = await run(submit_enquiry, actor=Principal.visitor("visitor-1"), data=enquiry(email=contact_email))
    for step in (LeadStatus.contacted, LeadStatus.proposal):
        await run(update_lead, actor=desk, lead_id=lead.id, status=step.value)
    contract = await run(
        create_contract,
        actor=desk,
        lead_id=lead.id,
        data=ContractCreate(
            title="Flu shots, winter",
            sites="450 W 33rd St, New York, NY 10001",
            starts_on=EVENT_DAY - timedelta(days=5),
            ends_on=EVENT_DAY + timedelta(days=60),
            services=[ContractServiceInput(service_slug=SLUG, price="950")],
        ),
    )
    await run(set_contract_status, actor=desk, contract_id=contract.id, status="active")
    return contract.id


@pytest.fixture
async def catalog(identity) -> None:
    await run(ensure_reference_catalog)


async def test_an_enquiry_becomes_a_lead_a_contract_an_event_day_and_an_invoice(catalog, smtp) -> None:
    desk = await person(
        Role.support, "Cora Desk", extras=(Permission.manage_services, Permission.create_invoices)
    )
    contact = await person(Role.patient, "Dana Whitfield", email="dana@acme-logistics.example")

    with pytest.raises(EnquiryInvalid) as refused:
        await run(
            submit_enquiry, actor=Principal.visitor("v"), data=enquiry(email="dana@gmail.com", phone="12")
        )
    assert set(refused.value.errors) == {"email", "phone"}

    lead = await run(submit_enquiry, actor=Principal.visitor("v"), data=enquiry())
    assert (
        lead.status is LeadStatus.new
        and lead.phone == "+12125550142"
        and lead.services == ["Routine blood draw"]
    )
    desk_inbox = (await run(list_notifications, actor=desk.actor)).items
    assert [n.title for n in desk_inbox] == ["New corporate enquiry"]  # the corporate desk hears of it
    with pytest.raises(ValidationFailed, match="won by creating its contract"):
        await run(update_lead, actor=desk.actor, lead_id=lead.id, status="won")
    await run(update_lead, actor=desk.actor, lead_id=lead.id, status="contacted", assigned_to=desk.id)
    noted = await run(add_lead_note, actor=desk.actor, lead_id=lead.id, body="Called Dana; wants Dec 5.")
    assert noted.assigned_name == "Cora Desk" and noted.notes[0].body == "Called Dana; wants Dec 5."
    assert (await run(list_leads, actor=desk.actor, status="contacted", mine=True)).total == 1

    contract_id = await contract_for(desk.actor, contact.email)
    team = present(await run(get_my_team, actor=contact.actor))
    assert team.organization.name == "Acme Logistics" and team.my_role == "admin"

    nurse, tech, busy = [await person(Role.provider, n) for n in ("Ada Nurse", "Ben Tech", "Cal Busy")]
    ids = [await provider(p.account.name, owner=p) for p in (nurse, tech, busy)]
    booked = await run(
        book_event_day,
        actor=desk.actor,
        contract_id=contract_id,
        service_slug=SLUG,
        day=EVENT_DAY,
        starts=time(9),
        ends=time(13),
        address_line="450 W 33rd St",
        zip_code="10001",
        provider_ids=ids[:2],
    )
    (day,) = booked.event_days
    assert sorted(v.provider_name for v in day.visits) == ["Ada Nurse", "Ben Tech"]
    for someone in (nurse, tech):  # in each provider's own schedule, at the venue
        (visit,) = await run(list_provider_schedule, actor=someone.actor, when="upcoming")
        assert visit.location is ServiceLocation.corporate_venue and visit.address_line == "450 W 33rd St"
        (notice,) = (await run(list_notifications, actor=someone.actor)).items
        assert notice.title == "New on-site event day"

    # The no-overlap rule holds per provider: Ben is busy from 9 to 13, so nothing of this day is kept.
    with pytest.raises(ValidationFailed, match="Ben Tech already has a visit at that time"):
        await run(
            book_event_day,
            actor=desk.actor,
            contract_id=contract_id,
            service_slug=SLUG,
            day=EVENT_DAY,
            starts=time(12),
            ends=time(15),
            address_line="1 Other Pl",
            zip_code="10001",
            provider_ids=[ids[2], ids[1]],
        )
    assert await run(list_provider_schedule, actor=busy.actor, when="upcoming") == []
    chicago = await provider("Dee Chicago", zip_codes=("60614",))  # licensed in Illinois only
    with pytest.raises(ValidationFailed, match="hold a licence in NY on that day"):
        await run(
            book_event_day,
            actor=desk.actor,
            contract_id=contract_id,
            service_slug=SLUG,
            day=EVENT_DAY,
            starts=time(14),
            ends=time(16),
            address_line="450 W 33rd St",
            zip_code="10001",
            provider_ids=[chicago],
        )

    invoice = await run(invoice_event_day, actor=desk.actor, event_day_id=day.id)
    assert invoice.recipient_name == "Acme Logistics" and invoice.total_cents == 2 * 95_000
    assert (await run(get_contract, actor=contact.actor, contract_id=contract_id)).event_days[
        0
    ].invoice_number == invoice.number
    with pytest.raises(ValidationFailed, match="already invoiced"):
        await run(invoice_event_day, actor=desk.actor, event_day_id=day.id)

    def terms(*services: ContractServiceInput) -> ContractCreate:
        return ContractCreate(
            title="Flu shots, winter",
            billing_email="ap@acme-logistics.example",
            starts_on=EVENT_DAY - timedelta(days=5),
            ends_on=EVENT_DAY + timedelta(days=90),
            services=list(services),
        )

    edited = await run(
        update_contract,
        actor=desk.actor,
        contract_id=contract_id,
        data=terms(ContractServiceInput(service_slug=SLUG, price="1,000")),
    )
    assert edited.services[0].price_cents == 100_000 and edited.billing_email == "ap@acme-logistics.example"
    assert edited.event_days[0].price_cents == 95_000  # a day keeps the price it was booked at
    other = next(slug for slug, _name in await run(offered_services) if slug != SLUG)
    with pytest.raises(ValidationFailed, match="has event days booked"):
        await run(
            update_contract,
            actor=desk.actor,
            contract_id=contract_id,
            data=terms(ContractServiceInput(service_slug=other, price="10")),
        )

    async def actions() -> set[str]:
        from app import db as app_db

        async with app_db.unit_of_work() as session:
            return set(await session.scalars(select(AuditEntry.action).where(AuditEntry.actor_id == desk.id)))

    assert {
        "lead_update",
        "contract_create",
        "contract_update",
        "event_day_book",
        "event_day_invoice",
    } <= await actions()


async def test_an_admin_invites_a_colleague_who_accepts_and_reads_the_contract(catalog, smtp) -> None:
    desk = await person(Role.owner, "Olive Owner")
    admin = await person(Role.patient, "Dana Whitfield", email="dana@acme-logistics.example")
    contract_id = await contract_for(desk.actor, admin.email)
    colleague = await person(Role.patient, "Eli Colleague", email="eli@acme-logistics.example")
    stranger = await person(Role.patient, "Sam Stranger")
    assigned, unassigned = await person(Role.provider, "Ada Nurse"), await person(Role.provider, "Cal Other")
    ids = [await provider("Ada Nurse", owner=assigned), await provider("Cal Other", owner=unassigned)]
    await run(
        book_event_day,
        actor=desk.actor,
        contract_id=contract_id,
        service_slug=SLUG,
        day=EVENT_DAY,
        starts=time(9),
        ends=time(12),
        address_line="450 W 33rd St",
        zip_code="10001",
        provider_ids=ids[:1],
    )

    smtp.clear()
    await run(invite_member, actor=admin.actor, email="Eli@Acme-Logistics.example", role="admin")
    token = join_token(invitation_to(smtp, 1, "eli@acme-logistics.example"))
    with pytest.raises(PermissionDenied, match="This invitation is for eli@acme-logistics.example"):
        await run(accept_invitation, actor=stranger.actor, token=token)
    team = await run(accept_invitation, actor=colleague.actor, token=token)
    assert [m.name for m in team.members] == ["Dana Whitfield", "Eli Colleague"]
    assert (
        present(await run(get_account, user_id=colleague.id)).organization == "Acme Logistics"
    )  # User.organization
    assert [c.id for c in await run(list_my_contracts, actor=colleague.actor)] == [contract_id]
    assert [c.id for c in await run(list_my_contracts, actor=assigned.actor)] == [contract_id]

    member = await person(Role.patient, "Max Member", email="max@acme-logistics.example")
    await run(invite_member, actor=admin.actor, email=member.email)
    token = join_token(invitation_to(smtp, 2, member.email))
    await run(accept_invitation, actor=member.actor, token=token)
    with pytest.raises(PermissionDenied, match="Only your organization's admins"):
        await run(invite_member, actor=member.actor, email="new@acme-logistics.example")
    for outsider in (member, stranger, unassigned):  # a plain member, another person, a provider not booked
        with pytest.raises(PermissionDenied, match="don't have access to this contract"):
            await run(get_contract, actor=outsider.actor, contract_id=contract_id)
        assert await run(list_my_contracts, actor=outsider.actor) == []

    await run(remove_member, actor=colleague.actor, user_id=admin.id)
    with pytest.raises(ValidationFailed, match="only admin"):
        await run(leave_organization, actor=colleague.actor)
    await run(leave_organization, actor=member.actor)
    assert [m.name for m in present(await run(get_my_team, actor=colleague.actor)).members] == [
        "Eli Colleague"
    ]
    assert present(await run(get_account, user_id=member.id)).organization == ""
    with pytest.raises(NotFound, match="not valid any more"):  # an invitation is used once
        await run(accept_invitation, actor=member.actor, token=token)

    # Staff set up a provider agency for someone with an account and no organization: they are its admin.
    agency = await run(
        create_organization_for,
        actor=desk.actor,
        name="Bright Care",
        kind="agency",
        admin_email=stranger.email,
    )
    assert agency.organization.kind == "agency" and [(m.name, m.role) for m in agency.members] == [
        ("Sam Stranger", "admin")
    ]
    with pytest.raises(PermissionDenied):
        await run(
            create_organization_for, actor=admin.actor, name="X", kind="agency", admin_email=admin.email
        )


def invitation_to(smtp, count: int, address: str) -> EmailMessage:  # noqa: ANN001 - the SMTP inbox
    """The invitation e-mail the SMTP server received for `address` (once `count` e-mails arrived)."""
    (message,) = [m for m in smtp.wait_for(count) if m["To"] == address]
    return message_from_bytes(message.as_bytes(), policy=policy.default)
