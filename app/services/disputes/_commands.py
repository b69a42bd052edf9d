"""The disputes domain's commands: the patient reports a problem with a completed visit whose earning is still
pending; payments staff resolve it (a full or partial refund through the ledger's `refund_visit`, in the
same unit of work, or a rejection with a note). Both are audited and publish their domain event.

A report locks the visit's charge row first (on PostgreSQL; SQLite serialises writers anyway) and refuses once
the earning is released; the release job re-checks for an open dispute after claiming a charge, so a
report and a release at the same moment never both succeed. A resolution claims the open dispute with a
conditional UPDATE: two staff resolving at once cannot both refund.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.events import publish_event
from app.principal import Principal
from app.services.disputes._reads import dispute_read, window_end
from app.services.disputes._rules import (
    ALREADY_OPEN,
    ALREADY_RESOLVED,
    ALREADY_RESOLVED_FOR_PATIENT,
    AMOUNT_REQUIRED,
    BAD_OUTCOME,
    BAD_REASON,
    DETAILS_REQUIRED,
    DETAILS_TOO_LONG,
    MAX_DETAILS,
    MAX_NOTE,
    NO_DISPUTE,
    NO_VISIT,
    NOT_COMPLETED,
    NOT_PENDING,
    NOT_YOUR_VISIT,
    NOTE_REQUIRED,
    NOTE_TOO_LONG,
    WINDOW_CLOSED,
)
from app.services.domain_events import DisputeOpened, DisputeResolved
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger import cents, refund_visit
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_permission
from app.settings import get_settings
from models.audit import AuditAction
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus
from models.catalog import Service
from models.dispute import (
    OUTCOME_STATUS,
    Dispute,
    DisputeOutcome,
    DisputeRead,
    DisputeReason,
    DisputeStatus,
)
from models.ledger import VisitCharge
from models.staff import Permission


async def _service_name(session: AsyncSession, visit: Appointment) -> str:
    return str(await session.scalar(select(Service.name).where(Service.id == visit.service_id)) or "")


async def report_visit_problem(
    *,
    session: AsyncSession,
    actor: Principal,
    appointment_id: str,
    reason: str,
    details: str,
    now: datetime | None = None,
) -> DisputeRead:
    """The patient of a completed visit reports a problem with it inside the dispute window (paid ahead:
    while its earning is pending, not yet released; paid at the visit: within the window's hours of its
    completion): a reason from DisputeReason and details (required, at most
    MAX_DETAILS characters). One report per visit (open, or resolved: then support takes it). The earning then waits for payments staff."""
    account = await require_account(session=session, actor=actor)
    at = now or utcnow()
    visit = await session.get(Appointment, (appointment_id or "")[:36])
    if visit is None or visit.status is AppointmentStatus.held:
        raise NotFound(NO_VISIT)
    if visit.patient_id != account.id:
        raise PermissionDenied(NOT_YOUR_VISIT)
    if visit.status is not AppointmentStatus.completed:
        raise ValidationFailed(NOT_COMPLETED)
    if reason not in DisputeReason.__members__:
        raise ValidationFailed(BAD_REASON)
    text = (details or "").strip()
    if not text:
        raise ValidationFailed(DETAILS_REQUIRED)
    if len(text) > MAX_DETAILS:
        raise ValidationFailed(DETAILS_TOO_LONG)
    # One report per visit: a second while it is open, or once staff resolved it, goes to support instead.
    earlier = await session.scalar(select(Dispute.status).where(Dispute.appointment_id == visit.id).limit(1))
    if earlier == DisputeStatus.open.value:
        raise ValidationFailed(ALREADY_OPEN)
    if earlier is not None:
        raise ValidationFailed(ALREADY_RESOLVED_FOR_PATIENT)
    charge = await session.scalar(
        select(VisitCharge).where(VisitCharge.appointment_id == visit.id).with_for_update()
    )
    ends = window_end(charge)
    if charge is None or ends is None:
        raise ValidationFailed(NOT_PENDING)
    if at >= ends:
        raise ValidationFailed(WINDOW_CLOSED.format(hours=get_settings().dispute_window_hours))
    row = Dispute(
        appointment_id=visit.id,
        patient_id=visit.patient_id,
        provider_id=visit.provider_id,
        reason=DisputeReason(reason).value,
        details=text,
        status=DisputeStatus.open.value,
        refunded_cents=0,
        resolution_note="",
        opened_at=at,
    )
    try:
        async with session.begin_nested():  # two reports at once: the partial unique index refuses one
            session.add(row)
            await session.flush()
    except IntegrityError:
        raise ValidationFailed(ALREADY_OPEN) from None
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.dispute_opened,
        target=visit.id,
        details={"dispute_id": row.id, "reason": row.reason},
    )
    label = DisputeReason(reason).label
    await publish_event(
        session,
        DisputeOpened(
            dispute_id=row.id,
            appointment_id=visit.id,
            patient_id=visit.patient_id,
            provider_id=visit.provider_id,
            service_name=await _service_name(session, visit),
            reason_label=label,
            at=at,
        ),
    )
    return dispute_read(row)


async def resolve_dispute(
    *,
    session: AsyncSession,
    actor: Principal,
    dispute_id: str,
    outcome: str,
    amount: Decimal | None = None,
    note: str = "",
    now: datetime | None = None,
) -> DisputeRead:
    """Payments staff (process_payments) resolve an open report: `refund` (what is left of the visit),
    `partial_refund` (`amount`, dollars) or `reject` (a `note` to the patient required). A refund goes through
    the ledger's `refund_visit`, to the card when the visit was paid by card, else as wallet credit, in this
    unit of work; its refusals (too much, already paid out, Stripe refusing …) undo the resolution too."""
    staff = await require_permission(session=session, actor=actor, permission=Permission.process_payments)
    at = now or utcnow()
    if outcome not in DisputeOutcome.__members__:
        raise ValidationFailed(BAD_OUTCOME)
    decided = DisputeOutcome(outcome)
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise ValidationFailed(NOTE_TOO_LONG)
    if decided is DisputeOutcome.reject and not note:
        raise ValidationFailed(NOTE_REQUIRED)
    if decided is DisputeOutcome.partial_refund and amount is None:
        raise ValidationFailed(AMOUNT_REQUIRED)
    row = await session.get(Dispute, (dispute_id or "")[:36])
    if row is None:
        raise NotFound(NO_DISPUTE)
    claimed = (
        await session.execute(
            update(Dispute)
            .where(Dispute.id == row.id, Dispute.status == DisputeStatus.open.value)
            .values(
                status=OUTCOME_STATUS[decided].value,
                resolution_note=note,
                resolved_by=staff.id,
                resolved_at=at,
            )
            .returning(Dispute.id)
            .execution_options(synchronize_session=False)
        )
    ).first()
    if claimed is None:
        raise ValidationFailed(ALREADY_RESOLVED)
    refunded = 0
    visit = await session.get_one(Appointment, row.appointment_id)
    label = DisputeReason(row.reason).label
    if decided is not DisputeOutcome.reject:
        given = await refund_visit(
            session=session,
            actor=actor,
            appointment_id=row.appointment_id,
            reason=f"Reported problem: {label}" + (f". {note}" if note else ""),
            amount=None if decided is DisputeOutcome.refund else amount,
            now=at,
            to_card=None,  # back to the card when the visit was paid by card, else wallet credit
        )
        refunded = cents(given)
        await session.execute(
            update(Dispute)
            .where(Dispute.id == row.id)
            .values(refunded_cents=refunded)
            .execution_options(synchronize_session=False)
        )
    await session.refresh(row)
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.dispute_resolved,
        target=row.appointment_id,
        details={"dispute_id": row.id, "outcome": decided.value, "amount_cents": refunded, "note": note},
    )
    await publish_event(
        session,
        DisputeResolved(
            dispute_id=row.id,
            appointment_id=row.appointment_id,
            patient_id=row.patient_id,
            provider_id=row.provider_id,
            service_name=await _service_name(session, visit),
            outcome=decided.value,
            refunded_cents=refunded,
            note=note,
            at=at,
        ),
    )
    return dispute_read(row)
