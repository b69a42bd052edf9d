"""The dispute window: `release_due_earnings` (a periodic job) moves each completed visit's earning from the
provider's pending balance to available once `dispute_window_hours` have passed since its completion.

Each visit is released once, whichever worker runs the job: it is claimed by a conditional UPDATE
(`released_at IS NULL`) that returns what to release, and only the run whose UPDATE changed the row posts the
entry (on PostgreSQL a competing run waits for the row and then finds it taken). What a refund already
reversed is not released. A visit with an open dispute (models/dispute.py) is not released until payments
staff resolve it: it is left out of the due list, and checked again after the claim (a report committed in
between is seen by that later statement, and the claim is undone).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.expression import Exists

from app.services.ledger._journal import move, post
from app.services.ledger._rules import RELEASE_BATCH
from app.settings import get_settings
from models.base import utcnow
from models.dispute import Dispute, DisputeStatus
from models.ledger import AccountKind, DiscountFunding, EntryKind, VisitCharge


def _disputed(appointment_id: Any) -> Exists:
    """Whether the visit has an open dispute (the release waits for staff to resolve it)."""
    return exists().where(
        Dispute.appointment_id == appointment_id, Dispute.status == DisputeStatus.open.value
    )


async def release_due_earnings(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Release the earnings whose dispute window is over (at most RELEASE_BATCH a run); returns how many."""
    now = now or utcnow()
    cutoff = now - timedelta(hours=get_settings().dispute_window_hours)
    due = (
        await session.scalars(
            select(VisitCharge.appointment_id)
            .where(
                VisitCharge.released_at.is_(None),
                VisitCharge.completed_at.is_not(None),
                VisitCharge.completed_at <= cutoff,
                ~_disputed(VisitCharge.appointment_id),
            )
            .order_by(VisitCharge.completed_at, VisitCharge.appointment_id)
            .limit(RELEASE_BATCH)
        )
    ).all()
    released = 0
    for appointment_id in due:
        claimed = (
            await session.execute(
                update(VisitCharge)
                .where(VisitCharge.appointment_id == appointment_id, VisitCharge.released_at.is_(None))
                .values(released_at=now)
                .returning(
                    VisitCharge.provider_id,
                    VisitCharge.order_id,
                    VisitCharge.price,
                    VisitCharge.refunded_earning,
                    VisitCharge.discount,
                    VisitCharge.discount_funded_by,
                    VisitCharge.refunded_discount,
                )
                .execution_options(synchronize_session=False)
            )
        ).first()
        if claimed is None:
            continue
        if await session.scalar(select(_disputed(appointment_id))):  # reported after the due list was read
            await session.execute(
                update(VisitCharge)
                .where(VisitCharge.appointment_id == appointment_id)
                .values(released_at=None)
                .execution_options(synchronize_session=False)
            )
            continue
        provider_id, order_id, price, refunded, discount, funded_by, refunded_discount = claimed
        # A discount the platform funded is part of the earning (`_visits.earning_of`).
        funded = discount - refunded_discount if funded_by == DiscountFunding.platform else 0
        await post(
            session=session,
            kind=EntryKind.earning_released,
            legs=move(
                price - refunded + funded,
                (AccountKind.provider_pending, provider_id),
                (AccountKind.provider_available, provider_id),
            ),
            description="Dispute window over: earning available",
            order_id=order_id,
            appointment_id=appointment_id,
            at=now,
        )
        released += 1
    return released
