"""The gateway of an order paid in full with wallet credit at checkout (issue 29, item 3): nothing to charge
online or at the visit. It collects at the order (the ledger records the order as paid ahead: the credit was
moved from the patient's wallet when it was placed, app/services/ledger `_credit_spend`), confirms at once,
and a cancellation refunds it as wallet credit like a card paid ahead. Never the configured gateway: checkout
chooses it when the credit covers the order's total."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncSession

from models.account import AccountRead
from models.base import utcnow
from models.booking import Order, Transaction, TransactionStatus


class WalletCredit:
    name = "wallet_credit"
    label = "Wallet credit"
    collects_at_order = True
    confirms_later = False

    async def authorize(self, order: Order, amount: Decimal) -> str:
        return order.number

    async def settle(self, transaction: Transaction, *, at: datetime | None = None) -> None:
        transaction.status = TransactionStatus.completed
        transaction.settled_at = at or utcnow()

    async def void(self, transaction: Transaction) -> None:
        transaction.status = TransactionStatus.cancelled

    async def start_payment(
        self, *, session: AsyncSession, order: Order, patient: AccountRead, now: datetime
    ) -> str | None:
        return None
