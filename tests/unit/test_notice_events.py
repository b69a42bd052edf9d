"""What people are told follows the domain events (issue 28, item 3): each command publishes what happened
(app/services/domain_events.py) and the notifications domain words and sends the notice
(medivisit/subscribers.py). One command per domain that tells someone, with the notice it leaves behind
(kind, words, link, recipient) the moment it returns; and no domain but notifications (and the two whose
notices are their own, below) imports the notifications domain any more."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

import app.services.ads._serving as serving
from app import db as app_db
from app.principal import Principal
from app.services.accounts import approve_waitlist_entry, join_waitlist
from app.services.accounts.internal import create_account
from app.services.ads import review_ad_flight, submit_ad_flight
from app.services.ads._rules import today
from app.services.appointments import complete_appointment, confirm_appointment, start_appointment
from app.services.booking import CheckoutLine, hold_slot, place_order
from app.services.careers import apply_for_job, save_posting, stage_cv
from app.services.cart import CartOwner, add_product_to_cart
from app.services.catalog.internal import ensure_reference_catalog
from app.services.corporate import submit_enquiry, update_lead
from app.services.enrollment import open_application, request_information, suspend_provider
from app.services.enrollment.internal import ensure_decision_reasons
from app.services.forum import accept_answer, reply_to_topic, start_topic
from app.services.forum.internal import ensure_forum_categories
from app.services.invoices import create_invoice, send_invoice
from app.services.ledger import request_payout
from app.services.ledger.internal import release_due_earnings
from app.services.service_requests import (
    accept_offer,
    cancel_service_request,
    post_service_request,
    send_offer,
)
from app.services.staff import update_staff
from app.services.store import create_product, move_fulfilment, place_store_order
from app.services.support import assign_ticket, reply_to_ticket
from app.settings import get_settings
from models.account import Role
from models.ads import AdCreative, FlightCreate
from models.booking import AppointmentStatus
from models.careers import ApplicationCreate, PostingWrite
from models.catalog import ServiceLocation
from models.corporate import EnquiryCreate
from models.enrollment import DecisionCreate
from models.forum import ForumMember, ForumTopicWrite
from models.invoice import InvoiceCreate, InvoiceLineInput, RecipientKind
from models.mail import OutboxMessage
from models.notification import Notification, NotificationKind
from models.service_request import ServiceRequestCreate, WindowInput
from models.staff import Permission
from models.store import ProductCreate, ShippingAddress
from tests import factories
from tests.factories import ZIP, Person, person, provider, run

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
NINE = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)  # Monday 9:00 in New York
TUESDAY_NINE = datetime(2030, 1, 8, 14, 0, tzinfo=UTC)  # Tuesday 9:00 in New York
ADDRESS = {"address_line": "1 Request Road", "city": "New York", "state": "NY"}
HOME = ShippingAddress(
    name="Jordan Lee", line1="350 Fifth Avenue", line2="Apt 5", city="New York", state="NY", zip_code="10118"
)
Notice = tuple[str, str, str, str]  # (kind, title, body, link)


async def notices(who: Person | str, kind: NotificationKind | None = None) -> list[Notice]:
    """Everything `who` was told (of `kind`), oldest first, read straight from the inbox table."""
    user_id = who if isinstance(who, str) else who.id
    async with app_db.unit_of_work() as session:
        query = select(Notification).where(Notification.recipient_id == user_id)
        if kind is not None:
            query = query.where(Notification.kind == kind.value)
        rows = await session.scalars(query.order_by(Notification.created_at, Notification.id))
        return [(row.kind, row.title, row.body, row.link) for row in rows]


# ---- service requests ------------------------------------------------------------------------------------
async def provider_account(name: str) -> tuple[Principal, str]:
    """A signed-in provider with a verified profile (blood draws in 10001, a New York licence)."""
    who = await person(Role.provider, name)
    return who.actor, await provider(name, owner=who)


async def post(actor: Principal) -> str:
    request = ServiceRequestCreate(
        service_slug="routine-blood-draw",
        location="home",
        zip_code="10001",
        windows=[WindowInput(day="2030-01-08", start="09:00", end="12:00")],
        notes="Fasting draw.",
    )
    return (await run(post_service_request, actor=actor, request=request, now=NOW)).id


async def offer(actor: Principal, request_id: str, price: str) -> str:
    sent = await run(
        send_offer,
        actor=actor,
        request_id=request_id,
        price=Decimal(price),
        starts_at=TUESDAY_NINE,
        message="I can come first thing.",
        now=NOW,
    )
    return sent.id


async def test_service_requests_tell_the_patient_of_offers_and_the_providers_of_the_outcome(identity) -> None:
    ella, _ = await provider_account("Ella Winner")
    omar, _ = await provider_account("Omar Other")
    patient = await person(name="Pat Accept")
    request_id = await post(patient.actor)
    winning = await offer(ella, request_id, "70")
    assert await notices(patient) == [
        (
            "service_request_offer",
            "New offer on your service request",
            "A provider offered a visit. Compare the offers and choose one.",
            "/service-requests",
        )
    ]
    await offer(omar, request_id, "75")
    await run(accept_offer, actor=patient.actor, offer_id=winning, now=NOW, **ADDRESS)
    decision = NotificationKind.service_request_decision
    assert await notices(present_user(ella), decision) == [
        (
            "service_request_decision",
            "Your offer was accepted",
            "The visit is booked: see Jobs.",
            "/dashboard/jobs",
        )
    ]
    assert await notices(present_user(omar), decision) == [
        (
            "service_request_decision",
            "Your offer wasn't chosen",
            "The patient accepted another offer.",
            "/dashboard/jobs",
        )
    ]

    other = await post(patient.actor)
    await offer(omar, other, "72")
    await run(cancel_service_request, actor=patient.actor, request_id=other, now=NOW)
    assert (
        "service_request_decision",
        "A request you offered on was cancelled",
        "The patient no longer needs this visit.",
        "/dashboard/jobs",
    ) in await notices(present_user(omar), decision)  # told at the same `now`: in no particular order


def present_user(actor: Principal) -> str:
    return factories.present(actor.user_id)


# ---- enrollment ------------------------------------------------------------------------------------------
async def test_enrollment_tells_the_applicant_of_each_review_step_with_the_reasons_by_e_mail(
    identity,
) -> None:
    async with app_db.unit_of_work() as session:
        await ensure_decision_reasons(session=session)
    applicant = await person(Role.patient, "Nia Applicant")
    application_id = await factories.application(applicant)
    management = await person(Role.management, "Mia Reviewer")
    await run(open_application, actor=management.actor, application_id=application_id)
    decision = DecisionCreate(reasons=["document_unreadable"], message="The ID scan is blurry.")
    await run(request_information, actor=management.actor, application_id=application_id, decision=decision)
    told = await notices(applicant, NotificationKind.enrollment_decision)
    assert [(kind, link) for kind, _title, _body, link in told] == [
        ("enrollment_decision", "/provider-enrollment")
    ] * 2
    assert told[0][1] == "Your provider application is being reviewed"
    assert "needs more information" in told[1][1]
    async with app_db.unit_of_work() as session:
        mails = list(await session.scalars(select(OutboxMessage).where(OutboxMessage.subject == told[1][1])))
    assert [applicant.email] in [m.recipients for m in mails]
    assert any("The ID scan is blurry." in m.html and "unreadable" in m.html for m in mails)


async def test_a_suspension_tells_the_patients_ahead_the_staff_and_the_provider(identity) -> None:
    manager = await person(Role.management, "Morgan Hayes")
    colleague = await person(Role.owner, "Olivia Bennett")
    patient = await person(Role.patient, "Jordan Lee")
    nurse = await person(Role.provider, "Ada Nurse")
    pid = await provider("Ada Nurse", owner=nurse, hours=factories.ALL_WEEK)
    ahead = await factories.visit(
        patient, pid, datetime.now(UTC) + timedelta(days=3), AppointmentStatus.confirmed
    )
    await run(suspend_provider, actor=manager.actor, provider_id=pid, reason="Complaint under review")
    [(kind, title, body, link)] = await notices(patient)
    assert kind == "visit_at_risk" and title.endswith("needs a new time or provider") and ahead in link
    assert await notices(colleague, NotificationKind.provider_standing) == [
        (
            "provider_standing",
            "Suspended: Ada Nurse",
            "1 visit(s) ahead to rearrange.",
            f"/staff/providers/{pid}",
        )
    ]
    assert await notices(manager, NotificationKind.provider_standing) == []  # who acted is not told
    assert await notices(nurse, NotificationKind.enrollment_decision) == [
        (
            "enrollment_decision",
            "Your profile is paused",
            "Patients can't find or book you for now. Our team will contact you.",
            "/dashboard",
        )
    ]


# ---- invoices --------------------------------------------------------------------------------------------
async def test_a_sent_invoice_tells_its_patient(identity, smtp) -> None:
    owner = await person(Role.owner, "Olive Owner")
    patient = await person(Role.patient, "Zoë Łukasiewicz")
    data = InvoiceCreate(
        recipient_kind=RecipientKind.patient,
        patient_email=patient.email,
        recipient_name="",
        recipient_email="",
        recipient_address="",
        due_on=datetime.now(UTC).date() + timedelta(days=30),
        notes="",
        lines=[InvoiceLineInput(description="Home visit, no-show fee", quantity=1, unit_price_cents=4_500)],
    )
    draft = await run(create_invoice, actor=owner.actor, data=data)
    await run(send_invoice, actor=owner.actor, invoice_id=draft.id)
    due = draft.due_on
    assert await notices(patient) == [
        (
            "invoice_sent",
            f"Invoice {draft.number}: $45.00 due {due:%b} {due.day}",
            "We e-mailed it to you with its PDF; it is also under Invoices in your wallet.",
            "/dashboard/wallet#invoices",
        )
    ]


# ---- corporate -------------------------------------------------------------------------------------------
def enquiry() -> EnquiryCreate:
    return EnquiryCreate(
        company="Acme Logistics",
        contact_name="Dana Whitfield",
        email="dana@acme-logistics.example",
        phone="(212) 555-0142",
        site_count="2",
        site_location="New York, 10001",
        headcount="180",
        services=["routine-blood-draw"],
        dates_wanted="Any weekday in early December",
        message="Flu season is coming; we'd like one day per site.",
    )


async def test_a_corporate_enquiry_tells_the_desk_and_an_assignment_its_assignee(identity) -> None:
    await run(ensure_reference_catalog)
    desk = await person(Role.owner, "Olive Owner")
    colleague = await person(Role.support, "Sam Rivera", extras=(Permission.manage_services,))
    lead = await run(submit_enquiry, actor=Principal.visitor("visitor-notices"), data=enquiry())
    expected = (
        "corporate_lead",
        "New corporate enquiry",
        "Acme Logistics: about 180 people, 2 site(s).",
        "/staff/leads",
    )
    assert await notices(desk) == [expected]
    assert await notices(colleague) == [expected]
    await run(update_lead, actor=desk.actor, lead_id=lead.id, assigned_to=colleague.id)
    assert (await notices(colleague))[-1] == (
        "corporate_lead",
        "Corporate lead assigned to you",
        "Acme Logistics (new), assigned by Olive Owner.",
        "/staff/leads",
    )


# ---- forum -----------------------------------------------------------------------------------------------
async def test_the_forum_tells_watchers_of_replies_and_authors_of_accepted_answers(identity) -> None:
    async with app_db.unit_of_work() as session:
        await ensure_forum_categories(session=session)
    asker, helper = await person(Role.patient, "Asker One"), await person(Role.patient, "Helper Two")
    async with app_db.unit_of_work() as session:
        session.add_all(
            ForumMember(user_id=p.id, approved_posts=2, silence_reason="") for p in (asker, helper)
        )
    question = ForumTopicWrite(
        category="lab-work", title="Fasting before a home blood draw?", body="Is water fine?"
    )
    topic = await run(start_topic, actor=asker.actor, data=question)
    answer = await run(reply_to_topic, actor=helper.actor, topic_id=topic.topic_id, body="Water is fine.")
    [(kind, title, body, link)] = await notices(asker)
    assert (kind, title) == ("forum_reply", "New reply in a forum topic you watch")
    assert link.startswith(f"/forum/t/{topic.topic_id}/") and "Water" not in body
    await run(accept_answer, actor=asker.actor, post_id=answer.post_id)
    assert await notices(helper) == [
        (
            "forum_answer_accepted",
            "Your forum reply was accepted as the answer",
            "The person who asked marked your reply as the one that helped.",
            link,
        )
    ]


# ---- payouts (ledger) ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class World:
    patient: Person
    provider: Person
    provider_id: str


async def book(world: World) -> str:
    """One visit booked through checkout, on Monday at nine; its id."""
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=world.patient.actor,
            service_slug="routine-blood-draw",
            provider_id=world.provider_id,
            starts_at=NINE,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
    line = CheckoutLine(
        hold_id=held.id, location="home", address_line="12 Main St", city="New York", state="NY", zip_code=ZIP
    )
    order = await run(place_order, actor=world.patient.actor, lines=[line], now=NOW)
    return order.appointments[0].id


async def complete(world: World, visit_id: str) -> None:
    actor = world.provider.actor
    await run(confirm_appointment, actor=actor, appointment_id=visit_id, now=NOW)
    await run(start_appointment, actor=actor, appointment_id=visit_id, now=NINE)
    await run(complete_appointment, actor=actor, appointment_id=visit_id, now=NINE + timedelta(hours=1))


@pytest.fixture
async def world(identity, monkeypatch) -> World:
    """test_ledger's world: a provider who earns by a visit (released by the job, not at once)."""
    monkeypatch.setenv("EARNINGS_RELEASE_ENABLED", "0")
    get_settings.cache_clear()
    nurse = await person(Role.provider, "Ada Nurse")
    return World(
        patient=await person(Role.patient, "Jordan Lee"),
        provider=nurse,
        provider_id=await provider("Ada Nurse", owner=nurse),
    )


async def test_a_payout_request_tells_its_provider(world: World, paid_ahead: None) -> None:
    visit_id = await book(world)
    await complete(world, visit_id)
    await run(release_due_earnings, now=NINE + timedelta(hours=1) + timedelta(hours=72))
    payout = await run(request_payout, actor=world.provider.actor)
    assert await notices(world.provider, NotificationKind.payout_status) == [
        (
            "payout_status",
            "Your payout request of $79.00 was received",
            "Staff will review it shortly.",
            f"/dashboard/payout-requests?payout={payout.id}",
        )
    ]


# ---- staff -----------------------------------------------------------------------------------------------
async def test_a_change_of_staff_access_tells_the_member(identity) -> None:
    owner = await person(Role.owner, "Olive Owner")
    member = await person(Role.support, "Sam Rivera")
    await run(update_staff, actor=owner.actor, user_id=member.id, role="management")
    assert await notices(member) == [
        (
            "staff_access_changed",
            "Your staff access was updated",
            "Your role or permissions changed.",
            "/staff",
        )
    ]


# ---- careers ---------------------------------------------------------------------------------------------
async def test_a_job_application_tells_hr(identity) -> None:
    hr = await person(Role.hr, "Harper Quinn")
    posting = PostingWrite(
        title="Home Care Nurse Coordinator",
        team="Provider operations",
        city="Chicago",
        state="IL",
        employment_type="full_time",
        description="Match nurses with patients.",
        status="open",
    )
    saved = await run(save_posting, actor=hr.actor, data=posting)
    ada = Principal.visitor("visitor-ada-notices").from_client(ip="203.0.113.77", user_agent="t")
    pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    cv = await run(stage_cv, actor=ada, filename="Ada CV.pdf", data=pdf)
    form = ApplicationCreate(
        name="Ada Lovelace", email="ada@example.com", phone="(312) 555-0142", cv_id=cv.id
    )
    await run(apply_for_job, actor=ada, slug=saved.slug, data=form)
    assert await notices(hr) == [
        (
            "career_application",
            "New application for Home Care Nurse Coordinator",
            "",
            f"/staff/careers/{saved.slug}",
        )
    ]


# ---- support ---------------------------------------------------------------------------------------------
async def test_the_help_desk_tells_the_customer_of_replies_and_a_member_of_assignments(identity) -> None:
    customer = await person(Role.patient, "Casey Customer")
    lead = await person(Role.owner, "Olive Owner")
    agent = await person(Role.support, "Sam Rivera")
    ticket = await factories.new_ticket(customer)
    await run(assign_ticket, actor=lead.actor, ticket_id=ticket.id, assignee_id=agent.id)
    assert await notices(agent, NotificationKind.ticket_assigned) == [
        (
            "ticket_assigned",
            f"Ticket #{ticket.number} was assigned to you",
            "Open it in the help desk.",
            f"/staff/help-desk?ticket={ticket.id}",
        )
    ]
    await run(
        reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="We refunded the second charge."
    )
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="Note", internal=True)
    assert await notices(customer, NotificationKind.ticket_reply) == [
        (
            "ticket_reply",
            f"Support replied to your request #{ticket.number}",
            "Open the request to read the reply.",
            f"/dashboard/support?ticket={ticket.id}",
        )
    ]


# ---- store -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shop:
    patient: Person
    staff: Person  # manage_services


@pytest.fixture
async def shop(identity) -> Shop:
    return Shop(
        patient=await person(Role.patient, "Jordan Lee"),
        staff=await person(Role.support, "Sam Rivera", extras=(Permission.manage_services,)),
    )


async def test_a_store_order_tells_its_patient_of_each_step(shop: Shop) -> None:
    gauze = ProductCreate(
        name="Sterile gauze pads, 4 × 4 in, 25 count",
        description="Individually wrapped cotton gauze pads for dressing minor cuts.",
        category="Medical Supplies",
        price="8.50",
        stock="5",
    )
    product = await run(create_product, actor=shop.staff.actor, data=gauze)
    await run(
        add_product_to_cart,
        owner=CartOwner(user_id=shop.patient.id),
        actor=shop.patient.actor,
        product_id=product.id,
    )
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME)
    await run(move_fulfilment, actor=shop.staff.actor, order_id=order.id, to="processed")
    assert await notices(shop.patient, NotificationKind.store_order) == [
        (
            "store_order",
            f"Store order {order.number} placed",
            "We'll e-mail you as it is processed and shipped.",
            "/dashboard/store?tab=orders",
        ),
        (
            "store_order",
            f"Store order {order.number} is being prepared",
            "Your order is processed and will ship soon.",
            "/dashboard/store?tab=orders",
        ),
    ]


# ---- accounts: the waitlist ------------------------------------------------------------------------------
async def test_a_waitlist_approval_welcomes_the_person(identity) -> None:
    admin = await person(Role.admin, "Adam Admin")
    email = factories.unique_email("waitlisted")
    async with app_db.unit_of_work() as session:
        member = await create_account(session=session, email=email, password="member-pass-1", role="patient")
    async with app_db.unit_of_work() as session:
        entry = await join_waitlist(session=session, email=email, name=None)
    await run(approve_waitlist_entry, actor=admin.actor, entry_id=entry.id)
    assert await notices(member.id) == [
        (
            "waitlist_approved",
            "Welcome! Your access was approved",
            "We're glad to have you. Start with your dashboard.",
            "/dashboard",
        )
    ]


# ---- ads -------------------------------------------------------------------------------------------------
@pytest.fixture
def own_snapshot(monkeypatch) -> None:
    """This process's live-ads snapshot is the test's own (as test_ads keeps it)."""
    monkeypatch.setattr(serving, "_snapshot", {})


def flight() -> FlightCreate:
    creative = AdCreative(
        headline="Mobile IV therapy in Brooklyn",
        body="Licensed nurses come to you. Results vary.",
        link_url="https://example.com/iv",
    )
    return FlightCreate(
        name="Spring clinic",
        placements=["SERVICES_TOP"],
        starts_on=today().isoformat(),
        ends_on=(today() + timedelta(days=6)).isoformat(),
        budget="50",
        creative=creative,
    )


async def test_a_review_of_an_ad_flight_tells_its_advertiser(identity, own_snapshot) -> None:
    advertiser = await person(Role.provider, "Ada Advertiser")
    manager = await person(Role.management, "Mia Manager")
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight())
    await run(
        review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=False, reason="Too many claims."
    )
    assert await notices(advertiser, NotificationKind.ad_flight) == [
        (
            "ad_flight",
            "Your ad “Spring clinic” needs changes",
            "Our reviewer said: Too many claims.",
            "/dashboard/ad-analytics",
        )
    ]


# ---- the import rule -------------------------------------------------------------------------------------
SERVICES = Path(__file__).resolve().parents[2] / "app" / "services"
# Domains that still import the notifications domain, and why (none may join them):
STILL_IMPORTING = {
    "appointments": "its own notice modules subscribe to its events and word visits with notify_visits",
    "demo": "the seeder words the demo inbox with the public copy (visit_copy, visit_link)",
}


def _imports_notifications(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        if any(
            name == "app.services.notifications" or name.startswith("app.services.notifications.")
            for name in names
        ):
            return True
    return False


def test_no_domain_but_notifications_imports_the_notifications_domain() -> None:
    importers = {
        path.relative_to(SERVICES).parts[0]
        for path in SERVICES.rglob("*.py")
        if path.relative_to(SERVICES).parts[0] != "notifications" and _imports_notifications(path)
    }
    assert importers <= set(STILL_IMPORTING), sorted(importers - set(STILL_IMPORTING))
    assert not _imports_notifications(SERVICES / "domain_events.py")
