"""A store order's receipt (app/services/receipts, issue 29 item 4) on SQLite and, with TEST_DATABASE_URL,
PostgreSQL: a delivered order's PDF (read back with pypdf) lists every product with its quantity, unit price
and line total, the same money lines as the order's card in My orders (Subtotal, Shipping, Sales tax,
Platform fee, Total), where it ships and its dates; a returned order carries its wallet credit and a
cancelled one says nothing is owed; only the patient, admins and payments staff read it (anyone else: no such
order), and every download is audited."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from app import db as app_db
from app.services.errors import NotFound
from app.services.features import reset_feature, set_feature
from app.services.receipts import get_store_order_receipt, store_receipt
from app.services.store import move_fulfilment, place_store_order
from components.store_ui import order_money
from models.account import Role
from models.audit import AuditEntry
from models.staff import Permission
from models.store import StoreOrderRead
from tests.factories import Person, person, run
from tests.unit.test_store import HOME, STORE_MONEY, Shop, add, new_product
from tests.unit.test_store import shop as shop  # the store's world: patient, store staff, manager

PLACED = datetime(2030, 1, 7, 15, 0, tzinfo=UTC)  # 10:00 in New York
ZONE = "America/New_York"


async def pdf_text(reader: Person, number: str) -> str:
    document = await run(get_store_order_receipt, actor=reader.actor, number=number, time_zone=ZONE)
    assert document.media_type == "application/pdf"
    assert document.filename == f"medivisit-receipt-{number.upper()}.pdf"
    pages = PdfReader(io.BytesIO(document.content)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def vdom_text(node: Any) -> str:
    """The text a rendered piece of the UI shows, each element's text separated by a space."""
    if isinstance(node, str):
        return node
    if isinstance(node, dict):
        return " ".join(vdom_text(child) for child in node.get("children", ()))
    return ""


async def deliver(shop: Shop, order: StoreOrderRead) -> StoreOrderRead:
    """Processed on Jan 8, shipped on Jan 9, delivered on Jan 10."""
    for days, to in enumerate(("processed", "shipped", "delivered"), start=1):
        order = await run(
            move_fulfilment,
            actor=shop.staff.actor,
            order_id=order.id,
            to=to,
            carrier="UPS",
            tracking_number="1Z999AA10123456784",
            now=PLACED + timedelta(days=days),
        )
    return order


async def test_a_delivered_orders_receipt_has_every_line_and_the_cards_totals(shop) -> None:
    owner = await person(Role.owner, "Olive Owner")
    try:
        for key, value in STORE_MONEY.items():
            await run(set_feature, actor=owner.actor, key=key, value=value)
        gauze = await new_product(shop, price="8.50", stock="9")
        gloves = await new_product(shop, name="Nitrile exam gloves, medium (100 count)", price="12.25")
        await add(shop.patient, gauze, times=2)
        await add(shop.patient, gloves)
        order = await run(place_store_order, actor=shop.patient.actor, address=HOME, now=PLACED)
        # $29.25 of products: $6.95 shipping (free from $75), 8.875 % tax = $2.60, 2.5 % fee = $0.73.
        assert (order.subtotal_cents, order.shipping_cents, order.tax_cents, order.fee_cents) == (
            2925,
            695,
            260,
            73,
        )
        delivered = await deliver(shop, order)
    finally:
        for key in STORE_MONEY:
            await run(reset_feature, actor=owner.actor, key=key)

    text = await pdf_text(shop.patient, order.number)
    assert f"Receipt Store order {order.number} DELIVERED" in text
    assert "Sterile gauze pads, 4 × 4 in, 25 count 2 $8.50 $17.00" in text
    assert "Nitrile exam gloves, medium (100 count) 1 $12.25 $12.25" in text
    money = "Subtotal $29.25 Shipping $6.95 Sales tax $2.60 Platform fee $0.73 Total $39.53"
    assert money in text
    # The card in My orders shows the very same lines, from the same figures.
    card = vdom_text(order_money(delivered))
    assert (
        card
        == money
        == " ".join(
            f"{label} {'Free' if cents is None else f'${cents / 100:,.2f}'}"
            for label, cents in store_receipt(delivered).money
        )
    )
    assert (
        f"BILLED TO Jordan Lee {shop.patient.email} SHIPS TO Jordan Lee 350 Fifth Avenue Apt 5 New York, NY 10118"
        in text
    )
    assert "PLACED Jan 7, 2030 SHIPPED Jan 9, 2030 DELIVERED Jan 10, 2030 PAYMENT Pay on delivery" in text
    assert "Paid on delivery: $39.53." in text
    assert "Shipped with UPS, tracking number 1Z999AA10123456784." in text
    assert "Credit" not in text and "Pay on delivery: " not in text


async def test_a_returned_order_shows_its_wallet_credit_and_a_cancelled_one_owes_nothing(shop) -> None:
    product = await new_product(shop, price="8.50", stock="5")
    await add(shop.patient, product, times=2)
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME, now=PLACED)
    pending = await pdf_text(shop.patient, order.number)
    assert "Shipping Free" in pending and "Sales tax" not in pending and "Platform fee" not in pending
    assert "Pay on delivery: $17.00 is due when the order is delivered." in pending
    assert "PLACED Jan 7, 2030 SHIPPED — DELIVERED — PAYMENT Pay on delivery" in pending
    await deliver(shop, order)
    await run(
        move_fulfilment,
        actor=shop.staff.actor,
        order_id=order.id,
        to="returned",
        reason="Box arrived crushed",
        now=PLACED + timedelta(days=12),
    )
    text = await pdf_text(shop.patient, order.number)
    assert f"Store order {order.number} REFUNDED" in text and "Total $17.00" in text
    assert "Refunded as wallet credit Jan 19, 2030 -$17.00" in text and "Net paid $0.00" in text
    assert "Returned on Jan 19, 2030: $17.00 was refunded to your MediVisit wallet." in text

    await add(shop.patient, product)
    second = await run(place_store_order, actor=shop.patient.actor, address=HOME, now=PLACED)
    await run(
        move_fulfilment,
        actor=shop.staff.actor,
        order_id=second.id,
        to="canceled",
        now=PLACED + timedelta(hours=2),
    )
    cancelled = await pdf_text(shop.patient, second.number.lower())  # any case, as typed
    assert f"Store order {second.number} CANCELLED" in cancelled
    assert "Cancelled — nothing is owed Jan 7, 2030 -$8.50" in cancelled
    assert "Cancelled on Jan 7, 2030: nothing is owed for this order." in cancelled


async def test_only_the_patient_admins_and_payments_staff_read_it_and_each_download_is_audited(shop) -> None:
    product = await new_product(shop)
    await add(shop.patient, product)
    order = await run(place_store_order, actor=shop.patient.actor, address=HOME, now=PLACED)
    other = await person(Role.patient, "Someone Else")
    # Another patient, management without process_payments, the store staff who ship it: no such order.
    for who in (other, shop.manager, shop.staff):
        with pytest.raises(NotFound, match="No store order has this number."):
            await run(get_store_order_receipt, actor=who.actor, number=order.number)
    with pytest.raises(NotFound):
        await run(get_store_order_receipt, actor=shop.patient.actor, number="MS-NOPE99")
    payments = await person(Role.support, "Pay Staff", extras=(Permission.process_payments,))
    admin = await person(Role.admin, "Ada Admin")
    for reader in (shop.patient, payments, admin):
        assert f"Store order {order.number}" in await pdf_text(reader, order.number)

    async with app_db.unit_of_work() as session:
        entries = (
            await session.scalars(
                select(AuditEntry)
                .where(AuditEntry.action.in_(("receipt_download", "patient_records_view")))
                .order_by(AuditEntry.created_at, AuditEntry.id)
            )
        ).all()
    downloads = [e for e in entries if e.action == "receipt_download"]
    assert sorted(e.actor_id for e in downloads) == sorted([shop.patient.id, payments.id, admin.id])
    assert {e.target for e in downloads} == {f"store order {order.number}"}
    assert all(e.details == {"store_order_id": order.id, "patient_id": shop.patient.id} for e in downloads)
    # Staff reading it is a read of the patient's records; the patient's own download is not.
    views = [e for e in entries if e.action == "patient_records_view"]
    assert sorted(e.actor_id for e in views) == sorted([payments.id, admin.id])
    assert {e.target for e in views} == {shop.patient.id}
