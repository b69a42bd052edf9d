"""The PDF documents over HTTP (api/documents.py): an order's receipt and a store order's receipt for its
patient or payments staff only, a provider's own monthly statement; the PDFs are read back with pypdf and
must hold the totals the ledger recorded. On SQLite and, with TEST_DATABASE_URL, PostgreSQL."""

from __future__ import annotations

import io
from datetime import date, timedelta
from decimal import Decimal

import httpx
import pytest
from pypdf import PdfReader
from sqlalchemy import select

from app import db as app_db
from app.pdf import format_money as pdf_money
from app.pdf import printable
from app.services.cart import CartOwner, add_product_to_cart
from app.services.invoices import create_invoice, send_invoice
from app.services.ledger import list_statement_months, refund_visit, request_payout
from app.services.ledger.internal import release_due_earnings
from app.services.store import create_product, place_store_order
from app.settings import get_settings
from components.format import format_money
from medivisit.main import create_app
from models.account import Role
from models.audit import AuditEntry
from models.booking import Appointment, Order
from models.invoice import InvoiceCreate, InvoiceLineInput, RecipientKind
from models.staff import Permission
from models.store import ProductCreate, ShippingAddress
from tests.factories import person, provider, run
from tests.unit.test_booking import NINE
from tests.unit.test_ledger import World, book, complete

STORE_HOME = ShippingAddress(
    name="Zoë Łukasiewicz", line1="350 Fifth Avenue", city="New York", state="NY", zip_code="10118"
)


@pytest.fixture
async def client(identity_env):
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


@pytest.fixture
async def world(identity_env, monkeypatch) -> World:
    monkeypatch.setenv("EARNINGS_RELEASE_ENABLED", "0")
    get_settings.cache_clear()
    nurse = await person(Role.provider, "Ada Nurse")
    return World(
        patient=await person(Role.patient, "Zoë Łukasiewicz"),
        provider=nurse,
        provider_id=await provider("Ada Nurse", owner=nurse),
        owner=await person(Role.owner, "Olive Owner"),
        other_owner=await person(Role.owner, "Otto Owner"),
        manager=await person(Role.management, "Mia Manager"),
    )


def text_of(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


async def get_as(client: httpx.AsyncClient, token: str | None, path: str) -> httpx.Response:
    client.cookies.clear()
    if token:
        client.cookies.set("mv_access", token)
    return await client.get(path)


async def order_number(visit_id: str) -> str:
    async with app_db.unit_of_work() as session:
        return await session.scalar(
            select(Order.number)
            .join(Appointment, Appointment.order_id == Order.id)
            .where(Appointment.id == visit_id)
        )


def test_pdf_money_matches_the_screens_and_unknown_characters_print_as_question_marks() -> None:
    for amount in (Decimal("0"), Decimal("89.5"), Decimal("-5"), Decimal("1234567.891"), 3):
        assert pdf_money(amount) == format_money(amount)
    assert printable("Zoë Łukasiewicz, Дмитрий") == "Zoë Łukasiewicz, Дмитрий"
    assert printable("Ｊｏ 王") == "Jo ?"


async def test_a_receipt_is_its_patients_and_payments_staffs_only(client, world, paid_ahead) -> None:
    visit_id = await book(world)
    await complete(world, visit_id)
    await run(
        refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", amount=Decimal("10")
    )
    number = await order_number(visit_id)
    path = f"/api/orders/{number}/receipt.pdf"

    answer = await get_as(client, world.patient.access_token, path)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    assert answer.headers["content-disposition"] == f'attachment; filename="medivisit-receipt-{number}.pdf"'
    assert answer.headers["cache-control"] == "private, no-store"
    text = text_of(answer.content)
    assert f"Order {number}" in text and "Zoë Łukasiewicz" in text
    assert "Routine blood draw" in text and "Ada Nurse" in text
    # $79 + 5 % fee paid at the visit; $10 refunded as wallet credit.
    for figure in ("Subtotal $79.00", "Platform fee $3.95", "Order total $82.95", "Paid $82.95"):
        assert figure in text, figure
    assert "Refunded -$10.00" in text and "Net paid $72.95" in text

    other = await person(Role.patient, "Someone Else")
    payments = await person(Role.support, "Pay Staff", extras=(Permission.process_payments,))
    assert (await get_as(client, other.access_token, path)).json()["code"] == "not_found"
    assert (await get_as(client, world.manager.access_token, path)).status_code == 404  # no process_payments
    assert (await get_as(client, payments.access_token, path)).status_code == 200
    assert (
        await get_as(client, world.patient.access_token, "/api/orders/MV-NOPE99/receipt.pdf")
    ).status_code == 404
    assert (await get_as(client, None, path)).json()["code"] == "not_signed_in"

    async with app_db.unit_of_work() as session:
        reads = (
            await session.scalars(select(AuditEntry).where(AuditEntry.action == "receipt_download"))
        ).all()
    assert sorted(entry.actor_id for entry in reads) == sorted([world.patient.id, payments.id])
    assert {entry.target for entry in reads} == {f"order {number}"}
    assert all(entry.details["patient_id"] == world.patient.id for entry in reads)


async def test_a_pending_visit_shows_what_is_due_at_the_visit(client, world) -> None:
    visit_id = await book(world)
    number = await order_number(visit_id)
    text = text_of(
        (await get_as(client, world.patient.access_token, f"/api/orders/{number}/receipt.pdf")).content
    )
    assert "Due at the visit" in text and "Still due at the visit: $82.95." in text and "Paid $0.00" in text


async def test_the_monthly_statement_is_the_providers_own_and_sums_the_ledger(
    client, world, paid_ahead
) -> None:
    visit_id = await book(world)
    await complete(world, visit_id)
    done = NINE + timedelta(hours=1)
    await run(release_due_earnings, now=done + timedelta(hours=72))
    await run(request_payout, actor=world.provider.actor, now=done + timedelta(days=5))
    second = await book(world, starts_at=NINE + timedelta(days=2))
    await complete(world, second, starts_at=NINE + timedelta(days=2))

    assert await run(list_statement_months, actor=world.provider.actor) == ["2030-01"]
    answer = await get_as(client, world.provider.access_token, "/api/provider-wallet/statement/2030-01.pdf")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="medivisit-statement-2030-01.pdf"'
    text = text_of(answer.content)
    assert "January 2030" in text and "Ada Nurse" in text
    assert "Opening available balance $0.00" in text
    assert "Earnings released after the dispute window $79.00" in text
    assert "Payouts requested -$79.00" in text
    assert "Closing available balance $0.00" in text
    assert "Earnings from visits this month $158.00" in text
    assert text.count("Routine blood draw") == 2 and "Pending" in text

    # An earlier month with nothing in it opens and closes at zero; a later one opens where January closed.
    empty = text_of(
        (
            await get_as(client, world.provider.access_token, "/api/provider-wallet/statement/2029-12.pdf")
        ).content
    )
    assert "No visits were completed this month." in empty and "Closing available balance $0.00" in empty

    for bad in ("2030-13", "January", "2030-1"):
        refused = await get_as(
            client, world.provider.access_token, f"/api/provider-wallet/statement/{bad}.pdf"
        )
        assert refused.status_code == 422 and refused.json()["code"] == "validation_failed"
    patient = await get_as(client, world.patient.access_token, "/api/provider-wallet/statement/2030-01.pdf")
    assert patient.status_code == 404  # no provider profile: nobody else's statement can be asked for


async def test_an_invoice_pdf_is_for_invoicing_staff_and_its_patient_once_sent(client, world) -> None:
    biller = await person(Role.support, "Bill Issuer", extras=(Permission.create_invoices,))
    draft = await run(
        create_invoice,
        actor=biller.actor,
        data=InvoiceCreate(
            recipient_kind=RecipientKind.patient,
            patient_email=world.patient.email,
            due_on=date.today() + timedelta(days=14),
            lines=[
                InvoiceLineInput(description="Missed visit fee", quantity=1, unit_price_cents=4_500),
                InvoiceLineInput(description="Extra travel", quantity=3, unit_price_cents=1_250),
            ],
        ),
    )
    path = f"/api/invoices/{draft.number}.pdf"
    assert (await get_as(client, world.patient.access_token, path)).status_code == 404  # a draft is staff's
    staff_copy = await get_as(client, biller.access_token, path)
    assert staff_copy.status_code == 200
    assert "Amount due $82.50" in text_of(staff_copy.content) and "DRAFT" in text_of(staff_copy.content)

    await run(send_invoice, actor=biller.actor, invoice_id=draft.id)
    mine = await get_as(client, world.patient.access_token, path)
    assert mine.status_code == 200
    assert (
        mine.headers["content-disposition"] == f'attachment; filename="medivisit-invoice-{draft.number}.pdf"'
    )
    text = text_of(mine.content)
    assert "Zoë Łukasiewicz" in text and "Missed visit fee" in text and "Extra travel 3 $12.50 $37.50" in text
    assert "Subtotal $82.50" in text and "Amount due $82.50" in text

    other = await person(Role.patient, "Someone Else")
    for token in (other.access_token, world.manager.access_token, world.provider.access_token):
        refused = await get_as(client, token, path)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert (await get_as(client, None, path)).status_code == 401


async def test_a_store_orders_receipt_is_its_patients_only(client, world) -> None:
    staff = await person(Role.support, "Sam Rivera", extras=(Permission.manage_services,))
    product = await run(
        create_product,
        actor=staff.actor,
        data=ProductCreate(name="Digital oral thermometer", category="Health Tech", price="14.99", stock="3"),
    )
    await run(
        add_product_to_cart,
        owner=CartOwner(user_id=world.patient.id),
        actor=world.patient.actor,
        product_id=product.id,
    )
    order = await run(place_store_order, actor=world.patient.actor, address=STORE_HOME)
    path = f"/api/store-orders/{order.number}/receipt.pdf"

    answer = await get_as(client, world.patient.access_token, path)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    assert (
        answer.headers["content-disposition"]
        == f'attachment; filename="medivisit-receipt-{order.number}.pdf"'
    )
    assert answer.headers["cache-control"] == "private, no-store"
    text = text_of(answer.content)
    assert f"Store order {order.number}" in text and "Zoë Łukasiewicz" in text
    assert "Digital oral thermometer 1 $14.99 $14.99" in text and "Total $14.99" in text

    other = await person(Role.patient, "Someone Else")
    for token in (other.access_token, staff.access_token):  # store staff hold no process_payments
        refused = await get_as(client, token, path)
        assert refused.status_code == 404 and refused.json() == {
            "code": "not_found",
            "message": "No store order has this number.",
        }
    signed_out = await get_as(client, None, path)
    assert signed_out.status_code == 401 and signed_out.json()["code"] == "not_signed_in"
