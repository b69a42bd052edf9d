"""A store order's receipt (issue 29, item 4): its figures (`store_receipt`) and the PDF
(`get_store_order_receipt`), for the order's patient, an admin or staff holding process_payments; anyone else
is told there is no such order, as the visit receipt does.

The figures are the order's own, as the store recorded them when it was placed (its read is the one My
orders and the staff queue show, `app.services.store.internal.read_store_order`): each product's quantity,
unit price and line total, then the money lines every store order card shows — Subtotal, Shipping (or
"Free"), Sales tax and Platform fee when there are any, Total. Nothing is added up again here.
A returned order was refunded as wallet credit for its whole total and a cancelled one owes nothing (the
store's ledger rules, app/services/store/_ledger.py): either is one credit line for the order's total.
Every download is audited (`receipt_download`, and for someone else's order a read of the patient's records).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict
from sqlalchemy.ext.asyncio import AsyncSession

from app.pdf import Column, Document, Party, PdfFile, Table, money_cents, render
from app.principal import Principal
from app.services.errors import NotFound
from app.services.receipts._pdf import billed_to, receipt_day, record_download, zone_of
from app.services.shared.accounts import is_admin
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from app.services.store.internal import read_store_order
from app.settings import get_settings
from models.account import AccountRead
from models.staff import Permission
from models.store import FulfilmentStatus, StoreOrderRead

NO_STORE_ORDER = "No store order has this number."
FREE = "Free"
RETURNED = "Returned — refunded as wallet credit"
CANCELLED = "Cancelled — nothing is owed"
STATUS = {
    "pending": "Pending",
    "processing": "Processing",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Cancelled",
    "refunded": "Refunded",
}


class StoreReceiptLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    quantity: int
    unit_price_cents: int
    line_total_cents: int


class StoreReceiptRead(BaseModel):
    """A store order's receipt: its products, its money lines ((label, cents); None for free shipping) with
    Total last, and the credit when it was returned or cancelled."""

    model_config = ConfigDict(frozen=True)

    order: StoreOrderRead
    lines: tuple[StoreReceiptLine, ...]
    money: tuple[tuple[str, int | None], ...]
    credit_label: str = ""
    credit_cents: int = 0
    credited_at: datetime | None = None


def store_receipt(order: StoreOrderRead, closed_at: datetime | None = None) -> StoreReceiptRead:
    """The receipt of `order` (no access check: callers check who reads it); `closed_at` is when it was
    returned or cancelled."""
    money: list[tuple[str, int | None]] = [
        ("Subtotal", order.subtotal_cents),
        ("Shipping", order.shipping_cents if order.shipping_cents > 0 else None),
    ]
    if order.tax_cents > 0:
        money.append(("Sales tax", order.tax_cents))
    if order.fee_cents > 0:
        money.append(("Platform fee", order.fee_cents))
    money.append(("Total", order.total_cents))
    credit = {FulfilmentStatus.returned: RETURNED, FulfilmentStatus.canceled: CANCELLED}.get(
        order.fulfilment, ""
    )
    return StoreReceiptRead(
        order=order,
        lines=tuple(
            StoreReceiptLine(
                name=line.name,
                quantity=line.quantity,
                unit_price_cents=line.unit_price_cents,
                line_total_cents=line.unit_price_cents * line.quantity,
            )
            for line in order.lines
        ),
        money=tuple(money),
        credit_label=credit,
        credit_cents=order.total_cents if credit else 0,
        credited_at=closed_at if credit else None,
    )


def _amount(cents: int | None) -> str:
    return FREE if cents is None else money_cents(cents)


def ship_to(order: StoreOrderRead) -> tuple[str, ...]:
    return tuple(
        line
        for line in (
            order.ship_name,
            order.ship_line1,
            order.ship_line2,
            f"{order.ship_city}, {order.ship_state} {order.ship_zip}",
        )
        if line
    )


def _notes(receipt: StoreReceiptRead, zone: ZoneInfo, brand: str, support: str) -> tuple[str, ...]:
    order = receipt.order
    total = money_cents(order.total_cents)
    if order.fulfilment is FulfilmentStatus.returned:
        paid = f"Returned on {receipt_day(receipt.credited_at, zone)}: {total} was refunded to your {brand} wallet."
    elif order.fulfilment is FulfilmentStatus.canceled:
        paid = f"Cancelled on {receipt_day(receipt.credited_at, zone)}: nothing is owed for this order."
    elif order.fulfilment is FulfilmentStatus.delivered:
        paid = f"Paid on delivery: {total}."
    else:
        paid = f"Pay on delivery: {total} is due when the order is delivered."
    tracking = (
        f"Shipped with {order.carrier}, tracking number {order.tracking_number}."
        if order.tracking_number
        else ""
    )
    return tuple(
        note
        for note in (paid, tracking, f"Dates in {zone.key}. Questions about this receipt: {support}.")
        if note
    )


def store_receipt_document(receipt: StoreReceiptRead, billed_to: tuple[str, ...], zone: ZoneInfo) -> Document:
    settings = get_settings()
    order = receipt.order
    dates = [
        ("Placed", receipt_day(order.created_at, zone)),
        ("Shipped", receipt_day(order.shipped_at, zone)),
        ("Delivered", receipt_day(order.delivered_at, zone)),
    ]
    if receipt.credit_label:
        closed = "Returned" if order.fulfilment is FulfilmentStatus.returned else "Cancelled"
        dates.append((closed, receipt_day(receipt.credited_at, zone)))
    dates.append(("Payment", "Pay on delivery"))
    tables = [
        Table(
            "Products",
            (
                Column("Product", 4),
                Column("Quantity", 1.1, "RIGHT"),
                Column("Unit price", 1.4, "RIGHT"),
                Column("Line total", 1.4, "RIGHT"),
            ),
            tuple(
                (
                    line.name,
                    str(line.quantity),
                    money_cents(line.unit_price_cents),
                    money_cents(line.line_total_cents),
                )
                for line in receipt.lines
            ),
            totals=tuple((label, _amount(cents)) for label, cents in receipt.money),
            empty="This order has no products.",
        )
    ]
    if receipt.credit_label:
        tables.append(
            Table(
                "Credit",
                (Column("Credit", 5.1), Column("On", 1.4), Column("Amount", 1.4, "RIGHT")),
                (
                    (
                        receipt.credit_label,
                        receipt_day(receipt.credited_at, zone),
                        money_cents(-receipt.credit_cents),
                    ),
                ),
            )
        )
    return Document(
        title="Receipt",
        number=f"Store order {order.number}",
        status=STATUS.get(order.status, order.status.capitalize()),
        dates=tuple(dates),
        # Two parties, so an e-mail address fits on its line; the seller is the header's and the footer's.
        parties=(
            Party("Billed to", billed_to),
            Party("Ships to", ship_to(order)),
        ),
        tables=tuple(tables),
        notes=_notes(receipt, zone, settings.brand_name, settings.support_email),
    )


async def _readable(
    session: AsyncSession, actor: Principal, number: str
) -> tuple[StoreReceiptRead, AccountRead]:
    account = await require_account(session=session, actor=actor)
    found = await read_store_order(session, number)
    if found is None:
        raise NotFound(NO_STORE_ORDER)
    order, closed_at = found
    if (
        order.patient_id != account.id
        and not is_admin(account)
        and Permission.process_payments not in await permissions_of(session=session, account=account)
    ):
        raise NotFound(NO_STORE_ORDER)
    return store_receipt(order, closed_at), account


async def get_store_order_receipt(
    *, session: AsyncSession, actor: Principal, number: str, time_zone: str | None = None
) -> PdfFile:
    """The receipt of store order `number` as PDF, for its patient, an admin or payments staff (audited)."""
    receipt, account = await _readable(session, actor, number)
    order = receipt.order
    document = store_receipt_document(receipt, await billed_to(session, order.patient_id), zone_of(time_zone))
    await record_download(
        session=session,
        account=account,
        actor=actor,
        patient_id=order.patient_id,
        kind="store_order",
        order_id=order.id,
        number=order.number,
    )
    return PdfFile(filename=f"medivisit-receipt-{order.number}.pdf", content=render(document))
