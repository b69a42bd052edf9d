"""Wallet credit spent at checkout (issue 29, item 3): refunds and goodwill land in the patient's
`patient_credit` account; checkout may pay part or all of an order with it.

- **Placed**: `wallet_credit` locks the patient's credit balance (`lock_balances`: a second checkout of the
  same patient waits for this unit of work, so the same credit is never spent twice; the balance's CHECK
  constraint refuses an overdraft whoever writes) and `spend_wallet_credit` moves what is applied,
  patient_credit → patient_booked (`credit_spent`), recording the order's `OrderCredit`. The order's own
  entry (`record_order_placed`) then brings only the rest in from the world, and splits the credit over the
  visits by their totals (`VisitCharge.credit`), so patient_booked holds each visit's whole total as always.
- **Paid ahead** (card, or an order credit covers in full): completion, cancellation and refunds work on the
  visit's whole total as before (a cancellation refunds it all as wallet credit, the spent credit with it).
- **Pay at visit**: the credit part is not due at the visit (`due_of`). When the visit is completed it is
  settled like a collection the platform holds (`settle_visit_credit`, `credit_settled`): patient_booked →
  provider_available (the price first, as collections count it, plus a platform-funded discount when the
  credit covers the price) + platform_fees (the rest), and the visit's booking and fee transactions settle
  for that part. A visit cancelled before completion gives its credit back (`return_visit_credit`).
- **A card payment that failed or expired** gives the order's whole credit back (`return_order_credit`,
  `PaymentFailed`'s subscriber in the payment's transaction).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import PaymentFailed
from app.services.ledger._collections import _settle_part
from app.services.ledger._journal import FEES, Leg, account_id, balances, cents, lock_balances, move, post
from app.services.ledger._visits import _transactions
from models.base import utcnow
from models.booking import TransactionStatus, TransactionType
from models.checkout_credit import OrderCredit
from models.ledger import AccountKind, EntryKind, VisitCharge


def _credit(patient_id: str) -> tuple[AccountKind, str]:
    return (AccountKind.patient_credit, patient_id)


def _booked(patient_id: str) -> tuple[AccountKind, str]:
    return (AccountKind.patient_booked, patient_id)


async def credit_available(session: AsyncSession, patient_id: str) -> int:
    """Cents of wallet credit the patient has now (a read: checkout's offer, not its decision)."""
    key = account_id(AccountKind.patient_credit, patient_id)
    return (await balances(session, [key]))[key]


async def wallet_credit(session: AsyncSession, patient_id: str) -> int:
    """Cents of wallet credit the patient has, write-locked until the unit of work ends: what checkout
    decides from (a concurrent checkout of the same patient waits, then sees what is left)."""
    key = account_id(AccountKind.patient_credit, patient_id)
    return (await lock_balances(session, [key]))[key]


async def spend_wallet_credit(
    *, session: AsyncSession, order_id: str, patient_id: str, amount: int, at: datetime
) -> int:
    """Pay `amount` cents of order `order_id` (placed, not committed) from the patient's wallet credit, read
    with `wallet_credit` in this unit of work; returns the cents spent."""
    if amount <= 0:
        return 0
    await post(
        session=session,
        kind=EntryKind.credit_spent,
        legs=move(amount, _credit(patient_id), _booked(patient_id)),
        description="Wallet credit applied at checkout",
        order_id=order_id,
        actor_id=patient_id,
        at=at,
    )
    session.add(OrderCredit(order_id=order_id, patient_id=patient_id, amount=amount, created_at=at))
    await session.flush()
    return amount


async def order_credit(session: AsyncSession, order_id: str) -> int:
    """Cents of the order's total paid from wallet credit at checkout (0: none)."""
    return (await session.scalar(select(OrderCredit.amount).where(OrderCredit.order_id == order_id))) or 0


async def return_order_credit(session: AsyncSession, failed: PaymentFailed) -> None:
    """`PaymentFailed`'s subscriber: the credit an order whose card payment failed or expired had spent goes
    back to the wallet, once (nothing else of the order entered the ledger)."""
    row = await session.get(OrderCredit, failed.order_id, with_for_update=True)
    if row is None or row.returned_at is not None:
        return
    await post(
        session=session,
        kind=EntryKind.credit_returned,
        legs=move(row.amount, _booked(row.patient_id), _credit(row.patient_id)),
        description="Wallet credit returned (card payment not completed)",
        order_id=row.order_id,
        at=failed.at,
    )
    row.returned_at = failed.at


async def return_visit_credit(session: AsyncSession, charge: VisitCharge, at: datetime | None = None) -> int:
    """A pay-at-visit visit cancelled before completion: its share of the credit goes back to the wallet;
    returns the cents returned."""
    if not charge.credit:
        return 0
    await post(
        session=session,
        kind=EntryKind.credit_returned,
        legs=move(charge.credit, _booked(charge.patient_id), _credit(charge.patient_id)),
        description="Wallet credit returned (cancelled visit)",
        order_id=charge.order_id,
        appointment_id=charge.appointment_id,
        at=at or utcnow(),
    )
    return charge.credit


async def settle_visit_credit(session: AsyncSession, charge: VisitCharge, at: datetime) -> None:
    """A pay-at-visit visit paid in part by credit was completed: the credit part is the platform's to
    pass on: the provider's price first (to available: no dispute window at a pay-at-visit visit), plus a
    discount the platform funds when the credit covers the price; the rest is the platform's fee."""
    if not charge.credit:
        return
    price_part = min(charge.credit, charge.price)
    fee_part = charge.credit - price_part
    discount = charge.platform_discount if price_part == charge.price else 0
    await post(
        session=session,
        kind=EntryKind.credit_settled,
        legs=[
            Leg(AccountKind.patient_booked, charge.patient_id, -charge.credit),
            Leg(AccountKind.provider_available, charge.provider_id, price_part + discount),
            Leg(FEES[0], FEES[1], fee_part - discount),
        ],
        description="Visit completed: the part paid with wallet credit",
        order_id=charge.order_id,
        appointment_id=charge.appointment_id,
        at=at,
    )
    note = "paid with wallet credit"
    added = []
    for kind, part in ((TransactionType.booking, price_part), (TransactionType.fee, fee_part)):
        rows = await _transactions(
            session,
            kind,
            appointment_id=charge.appointment_id if kind is TransactionType.booking else None,
            order_id=charge.order_id,
        )
        for row in rows:
            if row.status is TransactionStatus.pending and part > 0:
                share = min(part, cents(row.amount))
                if (extra := await _settle_part(row, share, at, note)) is not None:
                    added.append(extra)
                part -= share
    session.add_all(added)
