"""A visit given to another provider before it happens (staff appointments, issue 15): its charge follows
it, so the earning of the completed visit goes to the provider who did it. Nothing is posted: until the
visit is completed no money has reached any provider."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import AppointmentReassigned
from models.ledger import VisitCharge


async def move_visit_charge(*, session: AsyncSession, appointment_id: str, provider_id: str) -> None:
    """Name `provider_id` on the visit's charge, if it has one yet (a charge written later, for an order
    placed before the ledger existed, reads the visit's provider then)."""
    await session.execute(
        update(VisitCharge)
        .where(
            VisitCharge.appointment_id == appointment_id,
            VisitCharge.completed_at.is_(None),
            VisitCharge.voided_at.is_(None),
        )
        .values(provider_id=provider_id)
        .execution_options(synchronize_session=False)
    )


async def follow_reassigned_visit(session: AsyncSession, reassigned: AppointmentReassigned) -> None:
    """`AppointmentReassigned`'s subscriber, in the staff command's transaction."""
    await move_visit_charge(
        session=session, appointment_id=reassigned.appointment_id, provider_id=reassigned.to_provider_id
    )
