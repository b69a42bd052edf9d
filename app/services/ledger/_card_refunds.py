"""Refunds to the card (issue 29, item 3): the ledger's side of a visit refunded to the card it was paid with.

- **Where a refund goes** (`card_destination`): to the card only when the visit's order was paid by card
  (PAYMENT_GATEWAY=stripe, its payment confirmed); a pay-at-visit or wallet-paid visit is refunded as wallet
  credit. Asked for the card otherwise, the refund is refused before anything is booked.
- **Booked** by `refund_visit` (`_visits`) as a wallet refund is, but its other leg leaves the platform for
  the world (the account card payments came in from) instead of entering the patient's credit; the refund
  row is a `refund` transaction with gateway stripe, and `send_to_card` asks Stripe last (payments'
  `send_card_refund`): a refusal raises, so the unit of work, rolled back, books nothing.
- **A refund the card could not take** (`credit_failed_card_refund`, `CardRefundFailed`'s subscriber, in the
  webhook's transaction): the money came back to the platform, so it is credited to the patient's wallet
  instead (world → patient_credit, a `refund` entry of the same visit, and a wallet refund row), audited by
  the webhook. The revenue figures count the refund once: the entry's two legs cancel out.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import CardRefundFailed
from app.services.errors import ValidationFailed
from app.services.ledger._journal import WORLD, dollars, move, post
from app.services.payments.internal import card_refundable, send_card_refund
from models.booking import Transaction, TransactionStatus, TransactionType
from models.ledger import AccountKind, EntryKind, VisitCharge

NOT_BY_CARD = "This visit was not paid by card: it can be refunded as wallet credit only."


async def card_destination(session: AsyncSession, charge: VisitCharge, to_card: bool | None) -> bool:
    """Whether this refund goes to the card: as asked (None: when the visit was paid by card). Raises
    ValidationFailed when the card is asked for and the visit was not paid by card."""
    by_card = charge.paid_ahead and await card_refundable(session, charge.order_id) is not None
    if to_card and not by_card:
        raise ValidationFailed(NOT_BY_CARD, code="not_paid_by_card")
    return by_card if to_card is None else bool(to_card)


async def send_to_card(
    session: AsyncSession, refund: Transaction, charge: VisitCharge, amount: int, at: datetime
) -> None:
    """Ask Stripe to return `amount` cents of the visit to the card (the refund row follows its answer)."""
    await send_card_refund(
        session, refund=refund, appointment_id=charge.appointment_id, amount_cents=amount, at=at
    )


async def credit_failed_card_refund(session: AsyncSession, failed: CardRefundFailed) -> None:
    """A refund the card could not take: credited to the patient's wallet instead (see the module's notes). A
    store order's: its entry names the store order (as the store's own entries do), its wallet row no order."""
    store = failed.store_order_id
    await post(
        session=session,
        kind=EntryKind.refund,
        legs=move(failed.amount_cents, WORLD, (AccountKind.patient_credit, failed.patient_id)),
        description="Card refund failed: refunded as wallet credit",
        order_id=store or failed.order_id,
        appointment_id=failed.appointment_id,
        reason=failed.reason,
        at=failed.at,
    )
    session.add(
        Transaction(
            order_id=None if store else failed.order_id,
            appointment_id=failed.appointment_id,
            user_id=failed.patient_id,
            type=TransactionType.refund,
            status=TransactionStatus.completed,
            amount=dollars(failed.amount_cents),
            description="Refund as wallet credit (the card refund failed)",
            gateway="wallet",
            settled_at=failed.at,
        )
    )
