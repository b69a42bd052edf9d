"""An order's receipt figures, computed once (`build_receipt`): the visits with their share of the fee, the
credit lines and the totals every screen and the PDF show.

From the order, its visits and the SPEC's transaction rows (which the ledger keeps equal to its postings):
- each visit's fee share is the ledger's (its `VisitCharge`), or, before the ledger charged the order,
  `split_fee` over the order's visits as checkout does;
- credit lines (credit notes): a refund row → "Refunded to card" (a card refund, "(pending)" until the bank
  confirms it; one that failed is not a line: its money is the wallet refund row the ledger wrote instead)
  or "Refunded as wallet credit" (after a cancellation or a completed visit); a visit cancelled before
  anything was collected (no refund row) → "Cancelled", for its price and fee share;
- paid: the order's total when it was collected at checkout (a confirmed card payment, or a gateway that
  collects at the order), else its settled booking and fee rows (what was collected at the visits);
- wallet credit spent at checkout is part of paid (`credit_applied`, shown as its own line);
- a store order placed with the visits from one checkout (`StoreOrder.visit_order_id`) is on the same
  receipt: its products, shipping, tax and retail fee lines; its total is part of `charged`, its refunds
  (the store's ledger entries: to the card or as wallet credit) credit lines, its payment (by card at
  checkout, or on delivery) part of `paid`, and a pay-on-delivery order canceled before delivery one
  "Cancelled" line: one total;
- total = charged − credits; due = total − (paid − refunded); net paid = paid − refunded.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import NotFound
from app.services.ledger import cents, dollars, split_fee
from app.services.payments import gateway_of
from app.services.providers import display_name
from app.services.shared.accounts import is_admin
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from app.services.store.internal import linked_store_order
from models.account import AccountRead
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    Transaction,
    TransactionStatus,
    TransactionType,
)
from models.catalog import Service
from models.checkout_credit import OrderCredit
from models.identity import as_utc
from models.ledger import VisitCharge
from models.payment import CardPayment, CardPaymentStatus
from models.provider import Provider
from models.receipt import (
    CreditKind,
    ReceiptCreditRead,
    ReceiptProductRead,
    ReceiptRead,
    ReceiptVisitRead,
)
from models.staff import Permission
from models.store import FulfilmentStatus

NO_ORDER = "No order has this number."
CARD = "stripe"  # a refund row's gateway when it went back to the card
COLLECTED = (TransactionType.booking, TransactionType.fee, TransactionType.deposit)
SETTLED = TransactionStatus.completed
MAX_NUMBER = 16


async def readable_order(session: AsyncSession, actor: Principal, number: str) -> tuple[Order, AccountRead]:
    """Order `number` and the reader: its patient, an admin or staff holding process_payments; anyone else
    is told there is no such order (never a hint that it exists)."""
    account = await require_account(session=session, actor=actor)
    order = await session.scalar(select(Order).where(Order.number == (number or "")[:MAX_NUMBER].upper()))
    if order is None:
        raise NotFound(NO_ORDER)
    if (
        order.patient_id != account.id
        and not is_admin(account)
        and Permission.process_payments not in await permissions_of(session=session, account=account)
    ):
        raise NotFound(NO_ORDER)
    return order, account


def _paid_ahead(order: Order, payment: CardPayment | None, charges: Sequence[VisitCharge]) -> bool:
    if charges:
        return any(charge.paid_ahead for charge in charges)
    if payment is not None:
        return payment.status is CardPaymentStatus.paid
    return gateway_of(order).collects_at_order


async def build_receipt(session: AsyncSession, order: Order) -> ReceiptRead:
    """The receipt of `order` (no access check: callers check who reads it)."""
    visits = (
        await session.execute(
            select(Appointment, Service.name, Provider.first_name, Provider.last_name)
            .join(Service, Service.id == Appointment.service_id)
            .join(Provider, Provider.id == Appointment.provider_id)
            .where(Appointment.order_id == order.id)
            .order_by(Appointment.starts_at, Appointment.id)
        )
    ).all()
    charges = (await session.scalars(select(VisitCharge).where(VisitCharge.order_id == order.id))).all()
    transactions = (
        await session.scalars(
            select(Transaction)
            .where(Transaction.order_id == order.id)
            .order_by(Transaction.created_at, Transaction.id)
        )
    ).all()
    payment = await session.get(CardPayment, order.id)
    charged_by_visit = {charge.appointment_id: charge for charge in charges}
    shares = split_fee(cents(order.platform_fee), [(row.id, cents(row.price)) for row, *_ in visits])
    for visit_id, charge in charged_by_visit.items():
        shares[visit_id] = charge.fee
    paid_ahead = _paid_ahead(order, payment, charges)

    lines = [
        ReceiptVisitRead(
            appointment_id=row.id,
            service_name=service,
            provider_name=display_name(first, last),
            starts_at=as_utc(row.starts_at),
            status=row.status,
            price=row.price,
            fee=dollars(shares.get(row.id, 0)),
        )
        for row, service, first, last in visits
    ]
    by_id = {line.appointment_id: line for line in lines}
    cancelled = {row.id: row.cancelled_at for row, *_ in visits}
    # A card refund counts once asked (pending) or confirmed; a failed one is replaced by its wallet refund.
    refunds = [
        t
        for t in transactions
        if t.type is TransactionType.refund
        and (
            t.status is TransactionStatus.completed
            or (t.status is TransactionStatus.pending and t.gateway == CARD)
        )
    ]
    refunded_visits = {t.appointment_id for t in refunds}
    bookings: dict[str, list[Transaction]] = {}
    for t in transactions:
        if t.type is TransactionType.booking and t.appointment_id:
            bookings.setdefault(t.appointment_id, []).append(t)

    def collected(line: ReceiptVisitRead) -> bool:
        rows = bookings.get(line.appointment_id)
        if rows is None:  # written without checkout (older or demo data): completed means collected
            return line.status is AppointmentStatus.completed
        return any(t.status is TransactionStatus.completed for t in rows)

    credits: list[ReceiptCreditRead] = []
    for t in refunds:
        line = by_id.get(t.appointment_id or "")
        credits.append(
            ReceiptCreditRead(
                kind=CreditKind.refund,
                appointment_id=t.appointment_id or "",
                service_name=line.service_name if line else "",
                visit_starts_at=line.starts_at if line else as_utc(t.created_at),
                at=as_utc(t.settled_at or t.created_at),
                amount=t.amount,
                to_card=t.gateway == CARD,
                pending=t.status is TransactionStatus.pending,
            )
        )
    for line in lines:
        if (
            line.status is AppointmentStatus.cancelled
            and line.appointment_id not in refunded_visits
            and not paid_ahead
            and not collected(line)
        ):
            cancelled_at = as_utc(cancelled.get(line.appointment_id)) or line.starts_at
            credits.append(
                ReceiptCreditRead(
                    kind=CreditKind.cancelled,
                    appointment_id=line.appointment_id,
                    service_name=line.service_name,
                    visit_starts_at=line.starts_at,
                    at=cancelled_at,
                    amount=line.price + line.fee,
                )
            )
    credits.sort(key=lambda c: (c.visit_starts_at, c.at, c.kind.value))
    store = await linked_store_order(session, order.id)
    store_paid = 0
    store_fields: dict[str, Any] = {}
    if store is not None:
        read, closed_at, money = store
        store_label = f"Store order {read.number}"
        if read.fulfilment is FulfilmentStatus.canceled and not money.paid:
            credits.append(
                _store_credit(CreditKind.cancelled, store_label, read.created_at, closed_at, read.total_cents)
            )
        for refund in reversed(money.refunds):  # oldest first
            card = refund.to_card and refund.card_status != "failed"
            credits.append(
                ReceiptCreditRead(
                    kind=CreditKind.refund,
                    appointment_id="",
                    service_name=store_label,
                    visit_starts_at=as_utc(read.created_at),
                    at=refund.at,
                    amount=refund.amount,
                    to_card=card,
                    pending=card and refund.card_status == "pending",
                )
            )
        store_paid = read.total_cents if money.paid else 0
        store_fields = {
            "store_number": read.number,
            "products": [
                ReceiptProductRead(
                    name=line.name,
                    quantity=line.quantity,
                    unit_price=dollars(line.unit_price_cents),
                    line_total=dollars(line.unit_price_cents * line.quantity),
                )
                for line in read.lines
            ],
            "store_subtotal": dollars(read.subtotal_cents),
            "shipping": dollars(read.shipping_cents),
            "tax": dollars(read.tax_cents),
            "store_fee": dollars(read.fee_cents),
            "store_total": dollars(read.total_cents),
        }

    charged = cents(order.subtotal) + cents(order.platform_fee) + (store[0].total_cents if store else 0)
    credited = sum(cents(c.amount) for c in credits)
    refunded = sum(cents(c.amount) for c in credits if c.kind is CreditKind.refund)
    if paid_ahead:
        paid = cents(order.subtotal) + cents(order.platform_fee)  # the visits' part; the store's below
    elif bookings:
        # Settled booking and fee rows are what was collected at the visits (the ledger settles them, or a
        # settled part of them, as each collection is recorded).
        paid = sum(cents(t.amount) for t in transactions if t.type in COLLECTED and t.status is SETTLED)
    else:  # written without checkout (older or demo data): a completed visit was collected in full
        paid = sum(cents(line.price) + cents(line.fee) for line in lines if collected(line))
    paid += store_paid
    applied = await _credit_applied(session, order, charges)
    if not paid_ahead:
        # Wallet credit of visits not completed yet (a completed one's credit part is in its settled rows).
        paid += sum(c.credit for c in charges if c.completed_at is None and c.voided_at is None)
        paid += applied if not charges else 0  # a card payment still awaited: the credit is spent
    total = charged - credited
    return ReceiptRead(
        order_id=order.id,
        number=order.number,
        status=order.status,
        payment_method=order.payment_method,
        paid_ahead=paid_ahead,
        created_at=as_utc(order.created_at),
        visits=lines,
        credits=credits,
        subtotal=order.subtotal,
        platform_fee=order.platform_fee,
        charged=dollars(charged),
        credited=dollars(credited),
        total=dollars(total),
        paid=dollars(paid),
        refunded=dollars(refunded),
        due=dollars(total - (paid - refunded)),
        credit_applied=dollars(applied),
        **store_fields,
    )


def _store_credit(
    kind: CreditKind, label: str, placed: datetime, at: datetime | None, amount_cents: int
) -> ReceiptCreditRead:
    return ReceiptCreditRead(
        kind=kind,
        appointment_id="",
        service_name=label,
        visit_starts_at=as_utc(placed),
        at=as_utc(at) or as_utc(placed),
        amount=dollars(amount_cents),
    )


async def _credit_applied(session: AsyncSession, order: Order, charges: Sequence[VisitCharge]) -> int:
    """Cents of the order paid with wallet credit at checkout: all of it when paid ahead (a cancellation
    refunds it with the rest), else the shares of visits not cancelled (theirs went back to the wallet); an
    order not in the ledger yet (a card payment awaited) its credit unless it was returned."""
    if charges:
        return sum(c.credit for c in charges if c.paid_ahead or c.voided_at is None)
    spent = await session.get(OrderCredit, order.id)
    return spent.amount if spent is not None and spent.returned_at is None else 0


async def get_receipt(*, session: AsyncSession, actor: Principal, number: str) -> ReceiptRead:
    """The receipt figures of order `number`, for its patient, an admin or payments staff."""
    order, _reader = await readable_order(session, actor, number)
    return await build_receipt(session, order)
