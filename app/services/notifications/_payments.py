"""The patient hears that an order's card payment failed (`PaymentFailed`'s subscriber, after the commit)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import PaymentFailed
from app.services.notifications._delivery import notify
from models.notification import NotificationKind


async def tell_payment_failed(session: AsyncSession, failed: PaymentFailed) -> None:
    await notify(
        session=session,
        recipients=[failed.patient_id],
        kind=NotificationKind.payment_failed,
        link=f"/orders/{failed.order_number}",
        title=f"Your payment for order {failed.order_number} did not go through",
        body="Nothing was charged and its visits were released. You can book them again.",
        now=failed.at,
    )
