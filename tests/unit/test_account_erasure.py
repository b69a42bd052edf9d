"""Erasure (issue 27, privacy 1): a person with data in every place the product keeps personal data (visits,
service requests, store orders, invoices, the forum, a provider application with its ID scan and photo on
disk, help-desk tickets with files, careers with a CV, ads, drafts, notifications, an organization, the
outbox, the waitlist, bug reports, the assistant) is deleted by the job; afterwards no text column of any
table (the append-only audit log aside) holds their name, e-mail address, phone number or street, every
file of theirs is gone from disk, and what the books need stays without them."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import JSON, String, Text, cast, func, or_, select, update

from app import db as app_db
from app import storage
from app.principal import SYSTEM
from app.services.accounts import delete_due_accounts, request_account_deletion, save_address
from models.ads import AdFlight, AdImage
from models.assistant import AssistantConversation
from models.base import Base, utcnow
from models.booking import Appointment, AppointmentStatus, Transaction
from models.bug_report import BugReport
from models.careers import (
    ApplicationStatus,
    CareerApplication,
    CareerFile,
    CareerPosting,
    EmploymentType,
    PostingStatus,
)
from models.catalog import Service, ServiceLocation
from models.draft import FormDraft
from models.enrollment import CredentialDocument, ProviderApplication
from models.forum import FlagReason, ForumCategory, ForumFlag, ForumPost, ForumTopic, PostStatus
from models.identity import User
from models.invoice import Invoice, RecipientKind
from models.mail import OutboxMessage, OutboxStatus
from models.notification import Notification
from models.organization import MemberRole, Organization, OrganizationKind, OrganizationMember
from models.provider import Review
from models.service_request import RequestStatus, ServiceRequest
from models.store import StoreOrder
from models.support import Ticket, TicketAttachment
from models.waitlist import WaitlistEntry
from tests.factories import application, new_ticket, person, png_bytes, provider, run, visit

NAME = "Quintessa Zebulonova"
PHONE = "+12125550177"
STREET = "77 Quillfeather Lane"
NOTE = "Quintessa's intake: allergic to latex"


async def _everywhere(me, provider_id: str) -> tuple[list[str], str]:
    """Puts the person's data everywhere; answers the storage keys of their files and a visit's id."""
    keys = []
    await run(
        save_address, actor=me.actor, address_line=STREET, city="New York", state="NY", zip_code="10001"
    )
    visit_id = await visit(me, provider_id, utcnow() - timedelta(days=20), status=AppointmentStatus.completed)
    await application(me, name=NAME)  # the ID scan and the other documents are real files
    ticket = await new_ticket(me, "Billing for Quintessa", f"Call me on {PHONE}")
    other = await person(name="Other Member")
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(User)
            .where(User.id == me.id)
            .values(
                phone=PHONE,
                raw_user_meta_data={
                    "first_name": "Quintessa",
                    "last_name": "Zebulonova",
                    "phone_number": PHONE,
                },
            )
        )
        await session.execute(
            update(Appointment).where(Appointment.id == visit_id).values(address_line=STREET, notes=NOTE)
        )
        photo = await storage.save(png_bytes())
        application_row = await session.scalar(
            select(ProviderApplication).where(ProviderApplication.user_id == me.id)
        )
        application_row.photo_key, application_row.phone = photo, PHONE
        keys.append(photo)
        keys += list(
            await session.scalars(
                select(CredentialDocument.storage_key).where(
                    CredentialDocument.application_id == application_row.id
                )
            )
        )
        for ticket_id in (ticket.id, None):  # one sent with the ticket, one staged and never sent
            key = await storage.save(b"my lab results, Quintessa Zebulonova\n")
            keys.append(key)
            session.add(
                TicketAttachment(
                    ticket_id=ticket_id,
                    uploaded_by=me.id,
                    filename="zebulonova-labs.txt",
                    content_type="text/plain",
                    size=10,
                    storage_key=key,
                )
            )
        service = await session.scalar(select(Service).where(Service.slug == "routine-blood-draw"))
        session.add(
            ServiceRequest(
                patient_id=me.id,
                service_id=service.id,
                location=ServiceLocation.home,
                zip_code="10001",
                state="NY",
                time_zone="America/New_York",
                windows=[],
                notes=NOTE,
                expires_at=utcnow() + timedelta(days=2),
            )
        )
        session.add(
            StoreOrder(
                number="MS-ERASE1",
                patient_id=me.id,
                subtotal_cents=1000,
                fee_cents=0,
                total_cents=1000,
                payment_method="pay_on_delivery",
                ship_name=NAME,
                ship_line1=STREET,
                ship_line2="Apt Zebulonova",
                ship_city="New York",
                ship_state="NY",
                ship_zip="10001",
            )
        )
        session.add(
            Invoice(
                number="INV-2026-09901",
                recipient_kind=RecipientKind.patient,
                patient_id=me.id,
                recipient_name=NAME,
                recipient_email=me.email,
                recipient_address=f"{STREET}, New York, NY 10001",
                search_text=f"inv-2026-09901 {NAME.lower()} {me.email}",
                due_on=date.today(),
                total_cents=5000,
            )
        )
        category = ForumCategory(slug="erasure-test", name="Erasure")
        session.add(category)
        await session.flush()
        topic = ForumTopic(
            category_id=category.id,
            author_id=me.id,
            title="Quintessa asks about latex",
            slug="quintessa-asks-about-latex",
            status=PostStatus.published,
        )
        session.add(topic)
        await session.flush()
        mine = ForumPost(topic_id=topic.id, author_id=me.id, number=1, body=NOTE, status=PostStatus.published)
        reply = ForumPost(
            topic_id=topic.id,
            author_id=other.id,
            number=2,
            body="Try nitrile.",
            status=PostStatus.published,
            flag_count=1,
        )
        session.add_all([mine, reply])
        await session.flush()
        session.add(ForumFlag(post_id=reply.id, user_id=me.id, reason=FlagReason.spam, note=f"— {NAME}"))
        session.add(
            FormDraft(
                owner_key=f"user:{me.id}",
                form_key="checkout",
                fields={"notes": NOTE},
                expires_at=utcnow() + timedelta(days=3),
            )
        )
        session.add(Notification(recipient_id=me.id, kind="test", category="account", title=f"Hello {NAME}"))
        organization = Organization(name="Acme", kind=OrganizationKind.company)
        session.add(organization)
        await session.flush()
        session.add(
            OrganizationMember(organization_id=organization.id, user_id=me.id, role=MemberRole.member)
        )
        posting = CareerPosting(
            slug="erasure-nurse",
            title="Nurse",
            team="Care",
            employment_type=EmploymentType.full_time,
            status=PostingStatus.open,
        )
        session.add(posting)
        await session.flush()
        job = CareerApplication(
            posting_id=posting.id,
            name=NAME,
            email=me.email.upper(),
            phone=PHONE,
            status=ApplicationStatus.new,
        )
        session.add(job)
        await session.flush()
        cv = await storage.save(b"%PDF-1.4 Quintessa Zebulonova CV")
        keys.append(cv)
        session.add(
            CareerFile(
                uploader="visitor:x",
                application_id=job.id,
                filename="zebulonova-cv.pdf",
                content_type="application/pdf",
                size=30,
                storage_key=cv,
            )
        )
        ad_key = await storage.save(png_bytes())
        keys.append(ad_key)
        image = AdImage(owner_id=me.id, stored_name=ad_key, content_type="image/png", size_bytes=100)
        session.add(image)
        await session.flush()
        session.add(
            AdFlight(
                advertiser_id=me.id,
                name="Zebulonova Clinic",
                starts_on=date.today(),
                ends_on=date.today(),
                budget_cents=1000,
                headline="Zebulonova Clinic",
                body="Visit us",
                link_url="https://example.com",
                image_id=image.id,
            )
        )
        session.add(
            OutboxMessage(
                sender="care@medivisit.test",
                recipients=[me.email],
                subject=f"Your visit, {NAME}",
                html=f"<p>Dear {NAME}</p>",
                status=OutboxStatus.sent,
            )
        )
        session.add(WaitlistEntry(email=me.email, name=NAME))
        session.add(BugReport(email=me.email, title="Broken", description="The page broke.", user_id=me.id))
        session.add(
            Review(
                provider_id=provider_id, author_id=me.id, author_name="Quintessa Z.", rating=5, comment=NOTE
            )
        )
        session.add(AssistantConversation(user_id=me.id, title=NOTE))
    return keys, visit_id


async def _text_holding(needles: list[str]) -> list[str]:
    """'table.column' for every text or JSON column of every table (the audit log aside) that holds one of
    `needles` (case-insensitive)."""
    found = []
    async with app_db.unit_of_work() as session:
        for table in Base.metadata.sorted_tables:
            if table.name == "audit_log":  # append-only by law and by the database's triggers
                continue
            for column in table.columns:
                if not isinstance(column.type, String | Text | JSON):
                    continue
                text = func.lower(cast(column, String()))
                hit = (
                    select(func.count())
                    .select_from(table)
                    .where(or_(*(text.contains(needle.lower(), autoescape=True) for needle in needles)))
                )
                if await session.scalar(hit):
                    found.append(f"{table.name}.{column.name}")
    return found


async def test_deletion_leaves_nothing_that_identifies_the_person(identity) -> None:
    me = await person(name=NAME)
    provider_id = await provider()
    keys, visit_id = await _everywhere(me, provider_id)
    needles = ["Zebulonova", me.email, PHONE.removeprefix("+"), "Quillfeather", "latex"]
    assert len(await _text_holding(needles)) > 20  # the test itself reaches every place
    assert all(storage.path_of(key).exists() for key in keys)

    now = utcnow()
    await run(request_account_deletion, actor=me.actor, confirm_email=me.email, now=now)
    assert await run(delete_due_accounts, actor=SYSTEM, now=now + timedelta(days=15)) == 1

    assert await _text_holding(needles) == []
    assert [key for key in keys if storage.path_of(key).exists()] == []
    async with app_db.unit_of_work() as session:
        kept = await session.get(Appointment, visit_id)
        money = await session.scalar(select(func.count()).where(Transaction.user_id == me.id))
        order = await session.scalar(select(StoreOrder).where(StoreOrder.number == "MS-ERASE1"))
        invoice = await session.scalar(select(Invoice).where(Invoice.number == "INV-2026-09901"))
        request = await session.scalar(select(ServiceRequest).where(ServiceRequest.patient_id == me.id))
        posts = list(await session.scalars(select(ForumPost).order_by(ForumPost.number)))
        tickets = await session.scalar(select(func.count()).where(Ticket.user_id == me.id))
        attachments = await session.scalar(select(func.count()).select_from(TicketAttachment))
    # The books keep the visit, its money, the store order and the invoice, without the person.
    assert kept.status == AppointmentStatus.completed and kept.price > 0
    assert money == 2
    assert (order.total_cents, order.ship_name, order.ship_line1) == (1000, "Former patient", "")
    assert (invoice.total_cents, invoice.recipient_name, invoice.recipient_email) == (
        5000,
        "Former patient",
        "",
    )
    assert request.status == RequestStatus.cancelled and request.notes == ""
    # The thread still reads: the person's post is there without its words, the reply untouched.
    assert [p.body for p in posts] == [
        "*This post was removed when its author deleted their account.*",
        "Try nitrile.",
    ]
    assert posts[1].flag_count == 0
    assert tickets == 0 and attachments == 0
