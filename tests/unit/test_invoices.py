"""Invoices (app/services/invoices, issue 14 part 8) on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
who may do what, the draft → sent → paid / void transitions, totals in cents, the e-mail with its PDF
caught by a real SMTP server (aiosmtpd), the ledger summing to zero after a payment, and numbers that stay
unique when two staff create invoices at the same moment."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from email import message_from_bytes, policy
from email.message import EmailMessage, Message

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from app import db as app_db
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.invoices import (
    create_invoice,
    get_invoice,
    get_invoice_pdf,
    list_invoices,
    list_my_invoices,
    mark_invoice_paid,
    send_invoice,
    update_invoice,
    void_invoice,
)
from app.services.invoices._rules import today
from app.services.ledger import get_revenue_summary
from models.account import Role
from models.audit import AuditEntry
from models.invoice import InvoiceCreate, InvoiceLineInput, InvoiceStatus, RecipientKind
from models.ledger import Posting
from models.notification import Notification, NotificationKind
from models.staff import Permission
from tests.factories import Person, blocked_writers, person, run


def org(**changes) -> InvoiceCreate:  # noqa: ANN003
    values = {
        "recipient_kind": RecipientKind.organization,
        "recipient_name": "Acme Logistics, Inc.",
        "recipient_email": "Billing@Acme.example",
        "recipient_address": "100 Harbor Way\nBrooklyn, NY 11201",
        "due_on": today() + timedelta(days=30),
        "notes": "On-site flu shots, November.",
        "lines": [
            InvoiceLineInput(description="Flu shots on site", quantity=40, unit_price_cents=3500),
            InvoiceLineInput(description="Nurse travel", quantity=1, unit_price_cents=12_050),
        ],
    }
    return InvoiceCreate(**{**values, **changes})


@dataclass(frozen=True)
class Staff:
    owner: Person
    biller: Person  # create_invoices
    payments: Person  # process_payments
    manager: Person  # neither
    patient: Person


async def build_staff() -> Staff:
    return Staff(
        owner=await person(Role.owner, "Olive Owner"),
        biller=await person(Role.support, "Bill Issuer", extras=(Permission.create_invoices,)),
        payments=await person(Role.support, "Pat Payments", extras=(Permission.process_payments,)),
        manager=await person(Role.management, "Mia Manager"),
        patient=await person(Role.patient, "Zoë Łukasiewicz"),
    )


@pytest.fixture
async def staff(identity, world_once) -> Staff:
    return await world_once(build_staff)


def attachments_of(message: Message) -> list[EmailMessage]:
    """The attachments of a message as the SMTP server received it."""
    parsed = message_from_bytes(message.as_bytes(), policy=policy.default)
    return list(parsed.iter_attachments())


async def ledger_sum() -> int:
    async with app_db.unit_of_work() as session:
        return int(await session.scalar(select(func.coalesce(func.sum(Posting.amount), 0))))


async def test_an_organization_invoice_from_draft_to_paid(staff, smtp) -> None:
    draft = await run(create_invoice, actor=staff.biller.actor, data=org())
    assert draft.status is InvoiceStatus.draft and draft.number == f"INV-{today().year}-00001"
    assert draft.total_cents == 40 * 3500 + 12_050 and [line.amount_cents for line in draft.lines] == [
        140_000,
        12_050,
    ]
    assert draft.recipient_email == "billing@acme.example"

    edited = await run(
        update_invoice,
        actor=staff.biller.actor,
        invoice_id=draft.id,
        data=org(
            lines=[InvoiceLineInput(description="Flu shots on site", quantity=50, unit_price_cents=3500)]
        ),
    )
    assert edited.total_cents == 175_000 and len(edited.lines) == 1 and edited.number == draft.number

    sent = await run(send_invoice, actor=staff.biller.actor, invoice_id=draft.id)
    assert sent.status is InvoiceStatus.sent and sent.sent_at is not None
    [message] = [m for m in smtp.wait_for(1) if m["To"] == "billing@acme.example"]
    assert message["Subject"] == f"Invoice {draft.number} from MediVisit"
    [attachment] = attachments_of(message)
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_filename() == f"medivisit-invoice-{draft.number}.pdf"
    text = PdfReader(io.BytesIO(attachment.get_content())).pages[0].extract_text()
    assert draft.number in text and "Acme Logistics, Inc." in text and "Amount due $1,750.00" in text

    with pytest.raises(ValidationFailed, match="only a draft can be edited"):
        await run(update_invoice, actor=staff.biller.actor, invoice_id=draft.id, data=org())
    with pytest.raises(ValidationFailed, match="only a draft can be sent"):
        await run(send_invoice, actor=staff.biller.actor, invoice_id=draft.id)
    with pytest.raises(PermissionDenied):  # issuing invoices is not recording payments
        await run(mark_invoice_paid, actor=staff.biller.actor, invoice_id=draft.id, method="bank_transfer")
    with pytest.raises(ValidationFailed, match="how it was paid"):
        await run(mark_invoice_paid, actor=staff.payments.actor, invoice_id=draft.id, method="barter")

    before = await ledger_sum()
    paid = await run(
        mark_invoice_paid,
        actor=staff.payments.actor,
        invoice_id=draft.id,
        method="bank_transfer",
        reference="ACH 884120",
    )
    assert paid.status is InvoiceStatus.paid and paid.payment_reference == "ACH 884120"
    assert before == 0 and await ledger_sum() == 0
    async with app_db.unit_of_work() as session:
        legs = dict(
            (await session.execute(select(Posting.account_id, Posting.amount).order_by(Posting.amount))).all()
        )
        actions = (
            await session.scalars(select(AuditEntry.action).where(AuditEntry.action.like("invoice_%")))
        ).all()
    assert legs == {"world": -175_000, "platform_invoices": 175_000}
    revenue = (
        await run(get_revenue_summary, actor=staff.owner.actor)
    ).totals  # the report follows the ledger
    assert (revenue.invoiced, revenue.net, revenue.gross) == (Decimal("1750.00"), Decimal("1750.00"), 0)
    assert sorted(actions) == ["invoice_created", "invoice_paid", "invoice_sent", "invoice_updated"]
    with pytest.raises(ValidationFailed, match="only a draft or a sent invoice can be voided"):
        await run(void_invoice, actor=staff.owner.actor, invoice_id=draft.id, reason="Duplicate")
    with pytest.raises(ValidationFailed, match="only a sent invoice can be marked paid"):
        await run(mark_invoice_paid, actor=staff.owner.actor, invoice_id=draft.id, method="card")
    assert await ledger_sum() == 0


async def test_a_patient_invoice_notifies_the_patient_and_is_theirs_to_read(staff, smtp) -> None:
    draft = await run(
        create_invoice,
        actor=staff.owner.actor,
        data=org(
            recipient_kind=RecipientKind.patient,
            patient_email=staff.patient.email.upper(),
            recipient_name="",
            recipient_email="",
            lines=[
                InvoiceLineInput(description="Home visit, no-show fee", quantity=1, unit_price_cents=4_500)
            ],
        ),
    )
    assert (draft.patient_id, draft.recipient_name, draft.recipient_email) == (
        staff.patient.id,
        "Zoë Łukasiewicz",
        staff.patient.email,
    )
    assert (await run(list_my_invoices, actor=staff.patient.actor)).total == 0  # drafts are staff's only
    with pytest.raises(NotFound):
        await run(get_invoice_pdf, actor=staff.patient.actor, number=draft.number)

    await run(send_invoice, actor=staff.owner.actor, invoice_id=draft.id)
    assert [m for m in smtp.wait_for(1) if m["To"] == staff.patient.email]
    mine = await run(list_my_invoices, actor=staff.patient.actor)
    assert [i.number for i in mine.items] == [draft.number]
    pdf = await run(get_invoice_pdf, actor=staff.patient.actor, number=draft.number.lower())
    assert "Zoë Łukasiewicz" in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    async with app_db.unit_of_work() as session:
        [notice] = (
            await session.scalars(
                select(Notification).where(
                    Notification.recipient_id == staff.patient.id,
                    Notification.kind == NotificationKind.invoice_sent,
                )
            )
        ).all()
    assert (
        notice.title.startswith(f"Invoice {draft.number}: $45.00 due")
        and notice.link == "/dashboard/wallet#invoices"
    )

    other = await person(Role.patient, "Someone Else")
    assert (await run(list_my_invoices, actor=other.actor)).total == 0
    with pytest.raises(NotFound):
        await run(get_invoice_pdf, actor=other.actor, number=draft.number)

    voided = await run(
        void_invoice, actor=staff.biller.actor, invoice_id=draft.id, reason="Waived as goodwill"
    )
    assert voided.status is InvoiceStatus.void and voided.void_reason == "Waived as goodwill"
    assert (
        "voided: Waived as goodwill"
        in PdfReader(
            io.BytesIO((await run(get_invoice_pdf, actor=staff.patient.actor, number=draft.number)).content)
        )
        .pages[0]
        .extract_text()
    )


async def test_others_are_refused_and_bad_input_is_explained(staff) -> None:
    for who in (staff.manager, staff.patient, staff.payments):
        with pytest.raises(PermissionDenied):
            await run(create_invoice, actor=who.actor, data=org())
        with pytest.raises(PermissionDenied):
            await run(list_invoices, actor=who.actor)
    draft = await run(create_invoice, actor=staff.biller.actor, data=org())
    with pytest.raises(PermissionDenied):
        await run(void_invoice, actor=staff.manager.actor, invoice_id=draft.id, reason="x")
    with pytest.raises(NotFound):
        await run(get_invoice_pdf, actor=staff.manager.actor, number=draft.number)

    refusals = {
        "Enter the organization's name.": org(recipient_name="  "),
        "Enter a billing e-mail address": org(recipient_email="acme"),
        "No account has this e-mail address": org(
            recipient_kind=RecipientKind.patient, patient_email="x@y.z"
        ),
        "Add at least one line.": org(lines=[]),
        "at most 50 lines": org(lines=[InvoiceLineInput(description="x", unit_price_cents=1)] * 51),
        "Line 2: describe what is billed": org(
            lines=[
                InvoiceLineInput(description="ok", unit_price_cents=1),
                InvoiceLineInput(description="y" * 201),
            ]
        ),
        "Line 1: the quantity": org(lines=[InvoiceLineInput(description="x", quantity=0)]),
        "Line 1: the unit price": org(lines=[InvoiceLineInput(description="x", unit_price_cents=-1)]),
        "The due date cannot be in the past.": org(due_on=today() - timedelta(days=5)),
        "at most a year ahead": org(due_on=today() + timedelta(days=400)),
        "The notes can be at most": org(notes="n" * 1001),
    }
    for message, data in refusals.items():
        with pytest.raises(ValidationFailed, match=message.replace(".", r"\.").replace("(", r"\(")):
            await run(create_invoice, actor=staff.biller.actor, data=data)

    free = await run(
        create_invoice,
        actor=staff.biller.actor,
        data=org(lines=[InvoiceLineInput(description="Courtesy visit", unit_price_cents=0)]),
    )
    with pytest.raises(ValidationFailed, match=r"\$0\.00 cannot be sent"):
        await run(send_invoice, actor=staff.biller.actor, invoice_id=free.id)
    with pytest.raises(ValidationFailed, match="reason"):
        await run(void_invoice, actor=staff.biller.actor, invoice_id=free.id, reason="   ")


async def test_the_list_filters_searches_and_pages(staff) -> None:
    first = await run(create_invoice, actor=staff.biller.actor, data=org(recipient_name="Harbor Clinic"))
    await run(create_invoice, actor=staff.biller.actor, data=org(recipient_name="Northwind Schools"))
    await run(send_invoice, actor=staff.biller.actor, invoice_id=first.id)
    every = await run(list_invoices, actor=staff.biller.actor)
    assert every.total == 2 and every.items[0].recipient_name == "Northwind Schools"  # newest first
    assert [
        i.recipient_name for i in (await run(list_invoices, actor=staff.biller.actor, status="sent")).items
    ] == ["Harbor Clinic"]
    assert (await run(list_invoices, actor=staff.biller.actor, search="harbor")).total == 1
    assert (await run(list_invoices, actor=staff.biller.actor, search=first.number[-5:])).total == 1
    assert (await run(list_invoices, actor=staff.biller.actor, search="%")).total == 0
    page = await run(list_invoices, actor=staff.biller.actor, page=2, page_size=1)
    assert page.total == 2 and len(page.items) == 1 and page.items[0].number == first.number
    with pytest.raises(ValidationFailed):
        await run(list_invoices, actor=staff.biller.actor, status="lost")
    assert (await run(get_invoice, actor=staff.biller.actor, number=first.number)).id == first.id


async def test_two_staff_creating_at_once_get_different_numbers(staff) -> None:
    async with app_db.unit_of_work() as session:
        first = await create_invoice(session=session, actor=staff.biller.actor, data=org())
        async with blocked_writers("invoice_counters") as blocked:
            racing = asyncio.create_task(run(create_invoice, actor=staff.owner.actor, data=org()))
            await blocked(1)
        assert not racing.done()
    second = await racing
    year = today().year
    assert (first.number, second.number) == (f"INV-{year}-00001", f"INV-{year}-00002")
    more = await asyncio.gather(
        *(run(create_invoice, actor=staff.biller.actor, data=org()) for _ in range(4))
    )
    numbers = {first.number, second.number, *(i.number for i in more)}
    assert len(numbers) == 6
