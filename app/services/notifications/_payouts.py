"""Payouts (app/services/ledger): the provider hears of each step of their payout request."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import PayoutStatusChanged
from app.services.notifications._delivery import notify
from models.ledger import PayoutStatus
from models.notification import NotificationKind

PAYOUTS_PATH = "/dashboard/payout-requests"
_COPY = {
    PayoutStatus.pending: ("Your payout request of {amount} was received", "Staff will review it shortly."),
    PayoutStatus.approved: ("Your payout of {amount} was approved", "It will be sent shortly."),
    PayoutStatus.in_transit: ("Your payout of {amount} is on its way", "It usually arrives in 1–3 days."),
    PayoutStatus.paid: ("Your payout of {amount} was paid", "Open your payouts for the details."),
    PayoutStatus.rejected: (
        "Your payout request of {amount} was declined",
        "The amount is back in your available balance.",
    ),
    PayoutStatus.failed: (
        "Your payout of {amount} failed",
        "The amount is back in your available balance.",
    ),
}


async def tell_payout_status(session: AsyncSession, changed: PayoutStatusChanged) -> None:
    if not changed.provider_user_id:
        return
    title, body = _COPY[PayoutStatus(changed.status)]
    await notify(
        session=session,
        recipients=[changed.provider_user_id],
        kind=NotificationKind.payout_status,
        link=f"{PAYOUTS_PATH}?payout={changed.payout_id}",
        title=title.format(amount=f"${changed.amount:,.2f}"),
        body=body,
        now=changed.at,
    )
