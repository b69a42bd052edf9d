"""The demo accounts' money in the ledger: every visit of Jordan (the demo patient) and of Priya (the demo
provider) as the ledger would have recorded it — booked (owed at the visit), completed (the earning pending,
then available once the dispute window passed, the fee to the platform) or cancelled (nothing owed any
more) — so the wallet, provider wallet, payout requests and revenue screens of a demo show real figures.

Written with the ledger's own `post` (balanced entries, balances kept) as history: the Transaction rows the
demo writes stay what they are (the ledger's visit commands would write their own). The other demo patients'
and providers' visits predate the ledger and stay out of it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.ledger import FEES, WORLD, cents, move, split_fee
from app.services.ledger.internal import post
from app.settings import get_settings
from models.booking import Appointment, AppointmentStatus, Order
from models.identity import as_utc
from models.ledger import AccountKind, EntryKind, VisitCharge

S = AppointmentStatus


async def seed_demo_ledger(
    *,
    session: AsyncSession,
    orders: Sequence[Order],
    visits: Sequence[Appointment],
    patient_id: str,
    provider_id: str,
    now: datetime,
) -> int:
    """Post the demo patient's and provider's visits; returns how many visits were posted."""
    window = timedelta(hours=get_settings().dispute_window_hours)
    by_order: dict[str, list[Appointment]] = defaultdict(list)
    for visit in visits:
        if visit.order_id is not None:  # every demo visit was booked through an order
            by_order[visit.order_id].append(visit)
    placed = {order.id: order for order in orders}
    posted = 0
    for order_id, order_visits in by_order.items():
        if not any(v.patient_id == patient_id or v.provider_id == provider_id for v in order_visits):
            continue
        order = placed[order_id]
        shares = split_fee(cents(order.platform_fee), [(v.id, cents(v.price)) for v in order_visits])
        for visit in order_visits:
            posted += await _post_visit(
                session, visit, order.id, shares[visit.id], as_utc(order.created_at), now, window
            )
    return posted


async def _post_visit(
    session: AsyncSession,
    visit: Appointment,
    order_id: str,
    fee: int,
    booked_at: datetime,
    now: datetime,
    window: timedelta,
) -> int:
    price = cents(visit.price)
    owed = (AccountKind.patient_booked, visit.patient_id)
    pending = (AccountKind.provider_pending, visit.provider_id)
    charge = VisitCharge(
        appointment_id=visit.id,
        order_id=order_id,
        patient_id=visit.patient_id,
        provider_id=visit.provider_id,
        price=price,
        fee=fee,
        created_at=booked_at,
    )
    session.add(charge)
    ids = {"order_id": order_id, "appointment_id": visit.id}
    await post(
        session=session, kind=EntryKind.order_placed, legs=move(price + fee, WORLD, owed), at=booked_at, **ids
    )
    if visit.status == S.cancelled:
        charge.voided_at = min(now, as_utc(visit.starts_at))
        await post(
            session=session,
            kind=EntryKind.booking_voided,
            legs=move(price + fee, owed, WORLD),
            at=charge.voided_at,
            **ids,
        )
    elif visit.status == S.completed:
        charge.completed_at = as_utc(visit.ends_at)
        await post(
            session=session,
            kind=EntryKind.visit_completed,
            legs=move(price, owed, pending) + move(fee, owed, FEES),
            at=charge.completed_at,
            **ids,
        )
        if charge.completed_at + window <= now:
            charge.released_at = charge.completed_at + window
            await post(
                session=session,
                kind=EntryKind.earning_released,
                legs=move(price, pending, (AccountKind.provider_available, visit.provider_id)),
                at=charge.released_at,
                **ids,
            )
    return 1
