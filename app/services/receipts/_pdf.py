"""An order's receipt as PDF (app/pdf's layout), from `build_receipt`'s figures only: the visits, the products
of a store order placed with them (with shipping, tax and the retail fee), the credit notes ("Refunded to
card — <service>, <visit date>", "Refunded as wallet credit — …", "Cancelled — …", each with the day and
−$X), the order's total after them, and what was paid, refunded and is still due (net paid = paid −
refunded). Every download is audited (`receipt_download`: who,
from where, which patient's order; someone else's receipt is also a read of the patient's records).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.pdf import Column, Document, Party, PdfFile, Table, format_money, render
from app.principal import Principal
from app.services.payments import GATEWAYS
from app.services.receipts._totals import build_receipt, readable_order
from app.services.shared.accounts import account_of
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.identity import User, as_utc
from models.receipt import ReceiptCreditRead, ReceiptRead

MAX_ZONE = 64


def receipt_day(moment: datetime | None, zone: ZoneInfo) -> str:
    if moment is None:
        return "—"
    local = as_utc(moment).astimezone(zone)
    return f"{local:%b} {local.day}, {local:%Y}"


def zone_of(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name) if name and len(name) < MAX_ZONE else ZoneInfo(get_settings().default_time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(get_settings().default_time_zone)


def credit_text(credit: ReceiptCreditRead, zone: ZoneInfo) -> str:
    """'Refund — Routine blood draw, Jan 7, 2030' (the visit's date)."""
    what = f"{credit.label} — {credit.service_name}" if credit.service_name else credit.label
    return f"{what}, {receipt_day(credit.visit_starts_at, zone)}"


def total_label(receipt: ReceiptRead) -> str:
    return "Total, paid ahead" if receipt.paid_ahead else "Total"


def _products_table(receipt: ReceiptRead) -> tuple[Table, ...]:
    """The store order placed with the visits (one checkout), if any: its products and money lines."""
    if not receipt.store_number:
        return ()
    money = [
        ("Products subtotal", format_money(receipt.store_subtotal)),
        ("Shipping", format_money(receipt.shipping) if receipt.shipping else "Free"),
    ]
    if receipt.tax:
        money.append(("Sales tax", format_money(receipt.tax)))
    if receipt.store_fee:
        money.append(("Store fee", format_money(receipt.store_fee)))
    money.append((f"Store order {receipt.store_number}", format_money(receipt.store_total)))
    return (
        Table(
            "Products",
            (
                Column("Product", 4),
                Column("Quantity", 1.1, "RIGHT"),
                Column("Unit price", 1.4, "RIGHT"),
                Column("Line total", 1.4, "RIGHT"),
            ),
            tuple(
                (p.name, str(p.quantity), format_money(p.unit_price), format_money(p.line_total))
                for p in receipt.products
            ),
            totals=tuple(money),
            empty="This order has no products.",
        ),
    )


def _refund_note(receipt: ReceiptRead, brand: str) -> str:
    if not receipt.refunded:
        return ""
    refunds = [c for c in receipt.credits if c.kind.value == "refund"]
    card = any(c.to_card for c in refunds)
    wallet = any(not c.to_card for c in refunds)
    if card and wallet:
        return f"Refunds went back to your card or to your {brand} wallet, as each line says."
    if card:
        return "Refunds went back to the card you paid with; your bank may take 5-10 business days."
    return f"Refunds are credited to your {brand} wallet."


def receipt_document(receipt: ReceiptRead, billed_to: tuple[str, ...], zone: ZoneInfo) -> Document:
    settings = get_settings()
    gateway = GATEWAYS.get(receipt.payment_method)
    method = gateway.label if gateway is not None else receipt.payment_method.replace("_", " ").capitalize()
    visits_total = "Visits total" if receipt.store_number else "Order total"
    return Document(
        title="Receipt",
        number=f"Order {receipt.number}",
        status=receipt.status.value.replace("_", " "),
        dates=(("Ordered", receipt_day(receipt.created_at, zone)), ("Payment", method)),
        parties=(
            Party("From", (f"{settings.brand_name} Medical Services, LLC", settings.support_email)),
            Party("Billed to", billed_to),
        ),
        tables=(
            Table(
                "Visits",
                (
                    Column("Date", 1.3),
                    Column("Service", 2.6),
                    Column("Provider", 2),
                    Column("Status", 1.2),
                    Column("Price", 1.2, "RIGHT"),
                ),
                tuple(
                    (
                        receipt_day(v.starts_at, zone),
                        v.service_name,
                        v.provider_name,
                        v.status.label,
                        format_money(v.price),
                    )
                    for v in receipt.visits
                ),
                totals=(
                    ("Subtotal", format_money(receipt.subtotal)),
                    ("Platform fee", format_money(receipt.platform_fee)),
                    (visits_total, format_money(receipt.visits_total)),
                ),
                empty="This order has no visits.",
            ),
            *_products_table(receipt),
            Table(
                "Credits",
                (Column("Credit", 5.1), Column("On", 1.4), Column("Amount", 1.4, "RIGHT")),
                tuple(
                    (credit_text(c, zone), receipt_day(c.at, zone), format_money(-c.amount))
                    for c in receipt.credits
                ),
                totals=(
                    ("Order total", format_money(receipt.charged)),
                    ("Credits", format_money(-receipt.credited)),
                    (total_label(receipt), format_money(receipt.total)),
                    *(
                        (("Wallet credit applied", format_money(receipt.credit_applied)),)
                        if receipt.credit_applied
                        else ()
                    ),
                    ("Paid", format_money(receipt.paid)),
                    ("Refunded", format_money(-receipt.refunded)),
                    ("Net paid", format_money(receipt.net_paid)),
                    ("Due" if receipt.paid_ahead else "Due at the visit", format_money(receipt.due)),
                ),
                empty="No credit: nothing was cancelled or refunded.",
            ),
        ),
        notes=tuple(
            note
            for note in (
                f"Still due{'' if receipt.paid_ahead else ' at the visit'}: {format_money(receipt.due)}."
                if receipt.due
                else "",
                _refund_note(receipt, settings.brand_name),
                f"Dates in {zone.key}. Questions about this receipt: {settings.support_email}.",
            )
            if note
        ),
    )


async def billed_to(session: AsyncSession, patient_id: str) -> tuple[str, ...]:
    """The receipt's "Billed to" lines: the patient's name and e-mail (an erased account: "Former patient")."""
    patient = await session.get(User, patient_id)
    who = account_of(patient) if patient is not None else None
    return tuple(line for line in ((who.name, who.email) if who else ("Former patient",)) if line)


async def record_download(
    *,
    session: AsyncSession,
    account: AccountRead,
    actor: Principal,
    patient_id: str,
    kind: str,
    order_id: str,
    number: str,
) -> None:
    """A receipt of an order of `kind` ("order", "store_order") was downloaded (who, from where, which
    patient's); someone else's receipt names the patient and what they bought, so it is also a read of
    patient data, found with the others under their id."""
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.receipt_download,
        target=f"{kind.replace('_', ' ')} {number}",
        details={f"{kind}_id": order_id, "patient_id": patient_id},
    )
    if patient_id != account.id:
        await audit.record_by(
            session=session,
            account=account,
            actor=actor,
            action=AuditAction.patient_records_view,
            target=patient_id,
            details={f"{kind}_id": order_id, kind: number, "via": "receipt"},
        )


async def get_order_receipt(
    *, session: AsyncSession, actor: Principal, number: str, time_zone: str | None = None
) -> PdfFile:
    """The receipt of order `number` as PDF, for its patient, an admin or payments staff (audited)."""
    order, account = await readable_order(session, actor, number)
    receipt = await build_receipt(session, order)
    document = receipt_document(receipt, await billed_to(session, order.patient_id), zone_of(time_zone))
    await record_download(
        session=session,
        account=account,
        actor=actor,
        patient_id=order.patient_id,
        kind="order",
        order_id=order.id,
        number=order.number,
    )
    return PdfFile(filename=f"medivisit-receipt-{order.number}.pdf", content=render(document))
