"""Staff reading a patient's receipt over HTTP is a read of patient data (issue 27, privacy 4): besides the
download's own `receipt_download`, it writes `patient_records_view` under the patient's id with the
client's address and browser, as opening a visit's details or a service request does; the patient reading
their own writes no such entry. An invoice to a patient, read by invoicing staff, likewise."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import select

from app import db as app_db
from app.services.invoices import create_invoice, send_invoice
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.invoice import InvoiceCreate, InvoiceLineInput, RecipientKind
from models.staff import Permission
from tests.api.test_documents_http import client, get_as, order_number, world  # noqa: F401 - fixtures
from tests.factories import person, run
from tests.unit.test_ledger import book

AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


async def test_staff_reading_a_patients_receipt_is_audited_as_a_read_of_their_records(client, world) -> None:  # noqa: F811
    number = await order_number(await book(world))
    path = f"/api/orders/{number}/receipt.pdf"
    assert (await get_as(client, world.patient.access_token, path)).status_code == 200
    client.cookies.clear()
    client.cookies.set("mv_access", world.owner.access_token)
    assert (await client.get(path, headers={"User-Agent": AGENT})).status_code == 200

    async with app_db.unit_of_work() as session:
        reads = (
            await session.scalars(
                select(AuditEntry).where(AuditEntry.action == AuditAction.patient_records_view.value)
            )
        ).all()
    assert [(entry.actor_id, entry.target) for entry in reads] == [(world.owner.id, world.patient.id)]
    assert reads[0].details["via"] == "receipt" and reads[0].details["order"] == number
    assert (reads[0].ip, reads[0].user_agent) == ("127.0.0.1", AGENT)


async def test_staff_reading_a_patients_invoice_is_audited_the_same_way(client, world) -> None:  # noqa: F811
    biller = await person(Role.support, "Bill Issuer", extras=(Permission.create_invoices,))
    invoice = await run(
        create_invoice,
        actor=biller.actor,
        data=InvoiceCreate(
            recipient_kind=RecipientKind.patient,
            patient_email=world.patient.email,
            due_on=date.today() + timedelta(days=14),
            lines=[InvoiceLineInput(description="Missed visit fee", quantity=1, unit_price_cents=4_500)],
        ),
    )
    await run(send_invoice, actor=biller.actor, invoice_id=invoice.id)
    path = f"/api/invoices/{invoice.number}.pdf"
    assert (await get_as(client, world.patient.access_token, path)).status_code == 200
    assert (await get_as(client, biller.access_token, path)).status_code == 200
    async with app_db.unit_of_work() as session:
        reads = (
            await session.scalars(
                select(AuditEntry).where(AuditEntry.action == AuditAction.patient_records_view.value)
            )
        ).all()
    assert [(entry.actor_id, entry.target, entry.details["via"]) for entry in reads] == [
        (biller.id, world.patient.id, "invoice")
    ]
