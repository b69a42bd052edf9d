"""The data export (issue 27, privacy 2): besides visits, orders and tickets it holds everything the person
can see of themselves — store orders with lines and shipping address, invoices sent to them, notifications
and preferences, service requests with their notes and offers, the wallet's balances and movements — and
every time in it is ISO 8601 in UTC with its offset."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from app import db as app_db
from app.services.accounts import export_my_data
from models.base import utcnow
from models.booking import AppointmentStatus
from models.dispute import Dispute
from models.invoice import Invoice, InvoiceLine, InvoiceStatus, RecipientKind
from models.ledger import AccountKind, EntryKind, JournalEntry, LedgerAccount, Posting
from models.notification import Notification, NotificationPreference
from models.store import StoreOrder, StoreOrderLine
from tests.factories import new_ticket, person, provider, run, visit
from tests.unit.test_service_requests import NOTES, offer, post, provider_account

ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _times(value, path: str = "") -> list[tuple[str, str]]:  # noqa: ANN001
    """(where, text) of every ISO 8601 date-time string in the export."""
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in _times(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [found for index, item in enumerate(value) for found in _times(item, f"{path}[{index}]")]
    return [(path, value)] if isinstance(value, str) and ISO_TIME.match(value) else []


async def _store_order(patient_id: str, number: str) -> None:
    async with app_db.unit_of_work() as session:
        order = StoreOrder(
            number=number,
            patient_id=patient_id,
            subtotal_cents=1200,
            fee_cents=0,
            total_cents=1200,
            payment_method="pay_on_delivery",
            ship_name="Pat Export",
            ship_line1="5 Export Ave",
            ship_city="New York",
            ship_state="NY",
            ship_zip="10001",
        )
        session.add(order)
        await session.flush()
        session.add(StoreOrderLine(order_id=order.id, name="Thermometer", unit_price_cents=1200, quantity=1))


async def test_the_export_holds_everything_the_person_sees_with_utc_times(identity) -> None:
    me = await person(name="Pat Export")
    stranger = await person(name="Sam Stranger")
    nurse = await provider()
    done = await visit(me, nurse, utcnow() - timedelta(days=3), status=AppointmentStatus.completed)
    await new_ticket(me, "A question")
    await _store_order(me.id, "MS-EXPORT")
    await _store_order(stranger.id, "MS-STRANGE")
    ella, _ = await provider_account("Ella Offer")
    request_id = await post(me.actor)
    await offer(ella, request_id, "75")
    async with app_db.unit_of_work() as session:
        for number, status in (
            ("INV-2026-07001", InvoiceStatus.sent),
            ("INV-2026-07002", InvoiceStatus.draft),
        ):
            invoice = Invoice(
                number=number,
                status=status,
                recipient_kind=RecipientKind.patient,
                patient_id=me.id,
                recipient_name="Pat Export",
                recipient_email=me.email,
                due_on=date(2026, 12, 15),
                total_cents=4500,
                sent_at=utcnow() if status is InvoiceStatus.sent else None,
            )
            session.add(invoice)
            await session.flush()
            session.add(
                InvoiceLine(
                    invoice_id=invoice.id,
                    position=0,
                    description="Missed visit fee",
                    quantity=1,
                    unit_price_cents=4500,
                    amount_cents=4500,
                )
            )
        session.add(
            Notification(recipient_id=me.id, kind="visit_reminder", category="visits", title="Tomorrow")
        )
        session.add(
            Notification(recipient_id=stranger.id, kind="visit_reminder", category="visits", title="Not mine")
        )
        session.add(NotificationPreference(user_id=me.id, category="marketing", email=False))
        session.add(
            Dispute(
                appointment_id=done,
                patient_id=me.id,
                provider_id=nurse,
                reason="cut_short",
                details="Came at 6",
            )
        )
        credit = f"{AccountKind.patient_credit.value}:{me.id}"
        session.add(LedgerAccount(id=credit, kind=AccountKind.patient_credit, owner_id=me.id, balance=1000))
        entry = JournalEntry(kind=EntryKind.refund, description="Refund as wallet credit")
        session.add(entry)
        await session.flush()
        session.add(
            Posting(
                entry_id=entry.id, account_id=credit, account_kind=AccountKind.patient_credit, amount=1000
            )
        )

    data = await run(export_my_data, actor=me.actor)

    [problem] = data["reported_problems"]
    assert (problem["appointment_id"], problem["details"], problem["status"]) == (done, "Came at 6", "open")
    [store] = data["store_orders"]
    assert (store["shipping_cents"], store["tax_cents"]) == (0, 0)
    assert (store["number"], store["ship_line1"], store["total_cents"]) == ("MS-EXPORT", "5 Export Ave", 1200)
    assert store["lines"] == [{"name": "Thermometer", "unit_price_cents": 1200, "quantity": 1}]
    [invoice] = data["invoices"]  # the draft is still staff's
    assert (invoice["number"], invoice["due_on"], invoice["lines"][0]["amount_cents"]) == (
        "INV-2026-07001",
        "2026-12-15",
        4500,
    )
    titles = [n["title"] for n in data["notifications"]]
    assert "Tomorrow" in titles and "New offer on your service request" in titles and "Not mine" not in titles
    assert data["notification_preferences"][0] | {"updated_at": ""} == {
        "category": "marketing",
        "in_app": True,
        "email": False,
        "digest": False,
        "updated_at": "",
    }
    [request] = data["service_requests"]
    assert request["notes"] == NOTES and request["service"] == "Routine blood draw"
    assert [(o["provider"], o["price"]) for o in request["offers"]] == [("Ella Offer", "75.00")]
    wallet = data["wallet"]
    assert (wallet["credit_cents"], wallet["booked_cents"]) == (1000, 0)
    assert [(e["kind"], e["amount_cents"]) for e in wallet["entries"]] == [("refund", 1000)]
    assert "Sam Stranger" not in repr(data) and "MS-STRANGE" not in repr(data)

    times = _times(data)
    assert len(times) > 10
    for where, text in times:
        moment = datetime.fromisoformat(text)
        assert moment.utcoffset() == timedelta(0), f"{where}: {text}"
    assert data["visits"][0]["starts_at"].endswith("+00:00")
