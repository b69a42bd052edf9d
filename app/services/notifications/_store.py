"""The store (app/services/store): the patient hears of each step of a store order."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import StoreOrderProgressed
from app.services.notifications._delivery import notify
from models.notification import NotificationKind
from models.store import FulfilmentStatus as F

ORDERS_PATH = "/dashboard/store?tab=orders"
TOLD = {
    F.pending: ("Store order {number} placed", "We'll e-mail you as it is processed and shipped."),
    F.processed: ("Store order {number} is being prepared", "Your order is processed and will ship soon."),
    F.shipped: ("Store order {number} has shipped", "Shipped with {carrier}, tracking number {tracking}."),
    F.delivered: ("Store order {number} was delivered", "Delivered; it was paid on delivery."),
    F.returned: ("Store order {number} was returned", "What you paid for it was refunded."),
    F.canceled: ("Store order {number} was canceled", "Nothing is owed for it; anything paid was refunded."),
}


async def tell_store_order(session: AsyncSession, progressed: StoreOrderProgressed) -> None:
    title, body = TOLD[F(progressed.step)]
    await notify(
        session=session,
        recipients=[progressed.patient_id],
        kind=NotificationKind.store_order,
        link=ORDERS_PATH,
        title=title.format(number=progressed.number),
        body=body.format(carrier=progressed.carrier, tracking=progressed.tracking_number),
        now=progressed.at,
    )
