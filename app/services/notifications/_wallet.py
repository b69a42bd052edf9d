"""The patient hears of wallet credit (subscribers of the ledger's `RefundIssued` and `WalletCreditGranted`,
run after the commit): a notification linking to the wallet (a refund to the card says so instead); and of a
refund their card could not take (payments' `CardRefundFailed`, after the commit): it failed, the money was
credited to their wallet instead, and our staff will follow up; and of a store order refunded
(`StoreOrderRefunded`, after the commit)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import (
    CardRefundFailed,
    RefundIssued,
    StoreOrderRefunded,
    WalletCreditGranted,
)
from app.services.notifications._delivery import notify
from models.notification import NotificationKind

WALLET_PATH = "/dashboard/wallet"


async def _credited(session: AsyncSession, patient_id: str, cents: int, at: datetime, body: str) -> None:
    await notify(
        session=session,
        recipients=[patient_id],
        kind=NotificationKind.wallet_credit,
        link=WALLET_PATH,
        title=f"${Decimal(cents) / 100:,.2f} was added to your wallet",
        body=body,
        now=at,
    )


async def tell_refund_credited(session: AsyncSession, refund: RefundIssued) -> None:
    if refund.to_card:  # back on the card it was paid with, not in the wallet
        await notify(
            session=session,
            recipients=[refund.patient_id],
            kind=NotificationKind.wallet_credit,
            link=WALLET_PATH,
            title=f"${Decimal(refund.amount_cents) / 100:,.2f} was refunded to your card",
            body="Your bank may take 5-10 business days to show it.",
            now=refund.at,
        )
        return
    await _credited(
        session, refund.patient_id, refund.amount_cents, refund.at, "A refund was credited to your wallet."
    )


async def tell_credit_granted(session: AsyncSession, granted: WalletCreditGranted) -> None:
    await _credited(
        session, granted.patient_id, granted.amount_cents, granted.at, "Credit from our support team."
    )


async def tell_card_refund_failed(session: AsyncSession, failed: CardRefundFailed) -> None:
    await notify(
        session=session,
        recipients=[failed.patient_id],
        kind=NotificationKind.wallet_credit,
        link=WALLET_PATH,
        title=f"The refund of ${Decimal(failed.amount_cents) / 100:,.2f} to your card failed",
        body=(
            "Your bank could not take it back, so it was added to your wallet credit instead. "
            "Our staff will follow up with you."
        ),
        now=failed.at,
    )


async def tell_store_order_refunded(session: AsyncSession, refunded: StoreOrderRefunded) -> None:
    if refunded.with_step:  # told with the return or cancellation (StoreOrderProgressed), not twice
        return
    amount = f"${Decimal(refunded.amount_cents) / 100:,.2f}"
    if refunded.to_card:
        title = f"{amount} of store order {refunded.number} was refunded to your card"
        body = "Your bank may take 5-10 business days to show it."
    else:
        title = f"{amount} of store order {refunded.number} was added to your wallet"
        body = "A refund was credited to your wallet."
    await notify(
        session=session,
        recipients=[refunded.patient_id],
        kind=NotificationKind.wallet_credit,
        link=WALLET_PATH,
        title=title,
        body=body,
        now=refunded.at,
    )
