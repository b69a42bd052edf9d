"""A store order's receipt (issue 29, item 4): its figures (`store_receipt`) and the PDF
(`get_store_order_receipt`), for the order's patient, an admin or staff holding process_payments; anyone else
is told there is no such order, as the visit receipt does.

The figures are the order's own, as the store recorded them when it was placed (its read is the one My
orders and the staff queue show, `app.services.store.internal.read_store_order`): each product's quantity,
unit price and line total, then the money lines every store order card shows — Subtotal, Shipping (or
"Free"), Sales tax and Platform fee when there are any, Total. Nothing is added up again here.
Each refund (staff's, in full or in part, or a paid order's return or cancellation: the store's ledger
entries, app/services/store/_refunds.py) is a credit note: "Refunded to card" (pending until the bank
confirms it) or "Refunded as wallet credit", its day and amount; an order canceled before it was paid owes
nothing: one "Cancelled — nothing is owed" line. Then Paid, Refunded and Net paid (paid − refunded).
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
from app.services.store.internal import read_store_order, store_money_of
from app.settings import get_settings
from models.account import AccountRead
from models.card_refund import StoreOrderMoneyRead
from models.staff import Permission
from models.store import FulfilmentStatus, StoreOrderRead

NO_STORE_ORDER = "No store order has this number."
FREE = "Free"
CARD = "stripe"  # a store order's payment_method when paid by card
REFUNDED_TO_CARD = "Refunded to card"
REFUNDED_AS_CREDIT = "Refunded as wallet credit"
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


class StoreCreditLine(BaseModel):
    """A credit note: 'Refunded to card' / 'Refunded as wallet credit' / 'Cancelled — nothing is owed'."""

    model_config = ConfigDict(frozen=True)

    label: str
    at: datetime | None
    cents: int  # positive: what it takes off
    refund: bool = True


class StoreReceiptRead(BaseModel):
    """A store order's receipt: its products, its money lines ((label, cents); None for free shipping) with
    Total last, its credit notes, and what was paid, refunded and the net paid."""

    model_config = ConfigDict(frozen=True)

    order: StoreOrderRead
    lines: tuple[StoreReceiptLine, ...]
    money: tuple[tuple[str, int | None], ...]
    credits: tuple[StoreCreditLine, ...] = ()
    paid_cents: int = 0
    refunded_cents: int = 0
    closed_at: datetime | None = None

    @property
    def net_paid_cents(self) -> int:
        return self.paid_cents - self.refunded_cents


def store_receipt(
    order: StoreOrderRead, closed_at: datetime | None = None, money: StoreOrderMoneyRead | None = None
) -> StoreReceiptRead:
    """The receipt of `order` (no access check: callers check who reads it); `closed_at` is when it was
    returned or cancelled, `money` its payment and refunds."""
    lines: list[tuple[str, int | None]] = [
        ("Subtotal", order.subtotal_cents),
        ("Shipping", order.shipping_cents if order.shipping_cents > 0 else None),
    ]
    if order.tax_cents > 0:
        lines.append(("Sales tax", order.tax_cents))
    if order.fee_cents > 0:
        lines.append(("Platform fee", order.fee_cents))
    lines.append(("Total", order.total_cents))
    credits: list[StoreCreditLine] = []
    for refund in reversed(money.refunds if money is not None else []):  # oldest first
        card = refund.to_card and refund.card_status != "failed"  # a failed one went to the wallet
        label = REFUNDED_TO_CARD if card else REFUNDED_AS_CREDIT
        pending = card and refund.card_status == "pending"
        credits.append(
            StoreCreditLine(
                label=f"{label} (pending)" if pending else label,
                at=refund.at,
                cents=int(refund.amount * 100),
            )
        )
    paid = money is not None and money.paid
    if order.fulfilment is FulfilmentStatus.canceled and not paid:
        credits.append(StoreCreditLine(label=CANCELLED, at=closed_at, cents=order.total_cents, refund=False))
    refunded = sum(c.cents for c in credits if c.refund)
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
        money=tuple(lines),
        credits=tuple(credits),
        paid_cents=order.total_cents if paid else 0,
        refunded_cents=refunded,
        closed_at=closed_at,
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
    refunded = money_cents(receipt.refunded_cents)
    by_card = order.payment_method == CARD
    where = "to your card" if all("card" in c.label for c in receipt.credits if c.refund) else ""
    where = where or (
        f"to your {brand} wallet" if not any("card" in c.label for c in receipt.credits) else ""
    )
    went = f" {where}" if where else " (to your card or wallet, as each line says)"
    if order.fulfilment is FulfilmentStatus.returned:
        paid = f"Returned on {receipt_day(receipt.closed_at, zone)}: {refunded} was refunded{went}."
    elif order.fulfilment is FulfilmentStatus.canceled and not receipt.paid_cents:
        paid = f"Cancelled on {receipt_day(receipt.closed_at, zone)}: nothing is owed for this order."
    elif order.fulfilment is FulfilmentStatus.canceled:
        paid = f"Cancelled on {receipt_day(receipt.closed_at, zone)}: {refunded} was refunded{went}."
    elif by_card and receipt.paid_cents:
        paid = f"Paid by card: {total}." + (
            f" {refunded} was refunded{went}." if receipt.refunded_cents else ""
        )
    elif by_card:
        paid = f"To pay by card: {total}."
    elif order.fulfilment is FulfilmentStatus.delivered:
        paid = f"Paid on delivery: {total}." + (
            f" {refunded} was refunded{went}." if receipt.refunded_cents else ""
        )
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
    if receipt.closed_at is not None:
        closed = "Returned" if order.fulfilment is FulfilmentStatus.returned else "Cancelled"
        dates.append((closed, receipt_day(receipt.closed_at, zone)))
    dates.append(("Payment", "Card" if order.payment_method == CARD else "Pay on delivery"))
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
    if receipt.credits:
        tables.append(
            Table(
                "Credit",
                (Column("Credit", 5.1), Column("On", 1.4), Column("Amount", 1.4, "RIGHT")),
                tuple(
                    (credit.label, receipt_day(credit.at, zone), money_cents(-credit.cents))
                    for credit in receipt.credits
                ),
                totals=(
                    ("Paid", money_cents(receipt.paid_cents)),
                    ("Refunded", money_cents(-receipt.refunded_cents)),
                    ("Net paid", money_cents(receipt.net_paid_cents)),
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
    money = await store_money_of(session, order.id)
    return store_receipt(order, closed_at, money), account


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
