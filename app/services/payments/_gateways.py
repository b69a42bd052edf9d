"""Payment gateways: how the money of an order is authorised when it is placed, and settled or voided when
its visits are completed or cancelled. The ledger (`app.services.ledger`) records the same money as postings.

A gateway works on the order and transaction rows of the caller's unit of work and never commits. The
embedded default is `PayAtVisit`: the patient pays the provider at the visit, so authorising an order asks
no outside system for anything, and a transaction is settled when its visit is completed. The card gateway,
`StripeCard` (`_stripe`), collects at checkout but only once its processor confirms
(`confirms_later`): placing the order starts the payment (`start_payment`, the address of Stripe's payment
page), and the order awaits payment until the processor's webhook says it was paid or failed.
`get_gateway()` returns the configured one (PAYMENT_GATEWAY).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.payments._stripe import StripeCard
from app.settings import get_settings
from models.account import AccountRead
from models.base import utcnow
from models.booking import Order, Transaction, TransactionStatus


class PaymentGateway(Protocol):
    name: str  # stored on orders (payment_method) and transactions (gateway)
    label: str  # what patients read
    # Whether placing an order collects the money (a card captured at checkout: the ledger records it as
    # paid ahead, and a cancellation refunds it as wallet credit) or only records what is owed at the visit.
    collects_at_order: bool
    # Whether the processor confirms the collection afterwards (a webhook): the order then awaits payment,
    # holding its visits' times, and the ledger records the money only once it is in.
    confirms_later: bool

    async def authorize(self, order: Order, amount: Decimal) -> str:
        """Reserve `amount` for `order` (placed, numbered, not committed); return the gateway's reference."""
        ...

    async def settle(self, transaction: Transaction, *, at: datetime | None = None) -> None:
        """Collect a pending transaction: it becomes `completed` with its settlement time."""
        ...

    async def void(self, transaction: Transaction) -> None:
        """Release a pending transaction that will never be collected: it becomes `cancelled`."""
        ...

    async def start_payment(
        self, *, session: AsyncSession, order: Order, patient: AccountRead, now: datetime
    ) -> str | None:
        """After the order is written: the address of the page the patient pays on (None: nothing to pay
        online now). Only gateways that `confirms_later` are asked."""
        ...


class PayAtVisit:
    """Payment in person at the visit. Nothing is charged online: the order number is the reference the
    provider and the patient share, and completing a visit records that its payment was collected."""

    name = "pay_at_visit"
    label = "Pay at visit"
    collects_at_order = False
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


class WalletCredit(PayAtVisit):
    """An order paid in full with wallet credit at checkout (issue 29, item 3): nothing to charge online or at
    the visit. It collects at the order (the ledger records the order as paid ahead: the credit was moved from
    the patient's wallet when it was placed, app/services/ledger `_credit_spend`), confirms at once, and a
    cancellation refunds it as wallet credit like a card paid ahead. Never the configured gateway: checkout
    chooses it when the credit covers the order's total. Otherwise it works as pay at visit does."""

    name = "wallet_credit"
    label = "Wallet credit"
    collects_at_order = True


# An order paid in full with wallet credit is placed with its own gateway, never configured.
GATEWAYS: dict[str, type[PaymentGateway]] = {
    PayAtVisit.name: PayAtVisit,
    StripeCard.name: StripeCard,
    WalletCredit.name: WalletCredit,
}


def get_gateway() -> PaymentGateway:
    """The configured gateway (default: pay at visit)."""
    return GATEWAYS[get_settings().payment_gateway]()


def gateway_of(order: Order) -> PaymentGateway:
    """The gateway an order was placed with (the configured one when that gateway is no longer known)."""
    kind = GATEWAYS.get(order.payment_method)
    return kind() if kind is not None else get_gateway()
