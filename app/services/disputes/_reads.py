"""The disputes domain's reads: the patient's dispute of a visit (and whether one can be reported now) and
the payments staff's queue (open first, oldest first, paginated)."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.disputes._rules import BAD_FILTER, MAX_PAGE, NO_VISIT, NOT_YOUR_VISIT, PAGE_SIZE
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger.internal import paid_parts
from app.services.shared.accounts import account_of
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_permission
from app.settings import get_settings
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus
from models.catalog import Service
from models.dispute import (
    Dispute,
    DisputeQueueItem,
    DisputeQueueRead,
    DisputeRead,
    DisputeReason,
    DisputeStatus,
    VisitDisputeRead,
)
from models.identity import User, as_utc
from models.ledger import VisitCharge
from models.provider import Provider
from models.staff import Permission


def dispute_read(row: Dispute) -> DisputeRead:
    reason = DisputeReason(row.reason)
    return DisputeRead(
        id=row.id,
        appointment_id=row.appointment_id,
        reason=reason,
        reason_label=reason.label,
        details=row.details,
        status=DisputeStatus(row.status),
        refunded=Decimal(row.refunded_cents) / 100,
        resolution_note=row.resolution_note,
        opened_at=as_utc(row.opened_at),
        resolved_at=as_utc(row.resolved_at),
    )


def window_end(charge: VisitCharge | None) -> datetime | None:
    """When the visit's dispute window closes (None: not completed, not charged, or paid ahead and its
    earning already released). A visit paid at the visit has its window too, though nothing waits in it: the
    provider collected the money in person (its earning is released at completion), and a refund is
    wallet credit the provider's share of is taken back from their balance."""
    if charge is None or charge.completed_at is None:
        return None
    if charge.paid_ahead and charge.released_at is not None:
        return None
    return as_utc(charge.completed_at) + timedelta(hours=get_settings().dispute_window_hours)


def refundable_cents(charge: VisitCharge) -> int:
    """What is left to refund of a visit (refund_visit's own rule: in person, at most what was collected)."""
    price, fee = paid_parts(charge)
    return max(0, price - charge.refunded_earning) + max(0, fee - charge.refunded_fee)


async def get_visit_dispute(
    *, session: AsyncSession, actor: Principal, appointment_id: str, now: datetime | None = None
) -> VisitDisputeRead:
    """The patient's latest reported problem with their visit, and whether one can be reported now (a
    completed visit whose earning is still pending, inside the dispute window, never reported before)."""
    account = await require_account(session=session, actor=actor)
    visit = await session.get(Appointment, (appointment_id or "")[:36])
    if visit is None or visit.status is AppointmentStatus.held:
        raise NotFound(NO_VISIT)
    if visit.patient_id != account.id:
        raise PermissionDenied(NOT_YOUR_VISIT)
    latest = await session.scalar(
        select(Dispute)
        .where(Dispute.appointment_id == visit.id)
        .order_by(Dispute.opened_at.desc(), Dispute.id.desc())
        .limit(1)
    )
    ends = None
    if visit.status is AppointmentStatus.completed:
        ends = window_end(await session.get(VisitCharge, visit.id))
    now = now or utcnow()
    return VisitDisputeRead(
        appointment_id=visit.id,
        can_report=ends is not None and now < ends and latest is None,
        window_ends_at=ends,
        dispute=dispute_read(latest) if latest is not None else None,
    )


async def list_dispute_queue(
    *, session: AsyncSession, actor: Principal, show: str = "open", page: int = 1
) -> DisputeQueueRead:
    """Payments staff's queue of reported problems: `show` open (oldest first) or resolved (most recently
    opened first), PAGE_SIZE a page."""
    await require_permission(session=session, actor=actor, permission=Permission.process_payments)
    if show not in ("open", "resolved"):
        raise ValidationFailed(BAD_FILTER)
    page = max(1, min(int(page), MAX_PAGE))
    open_ = Dispute.status == DisputeStatus.open.value
    where = open_ if show == "open" else Dispute.status != DisputeStatus.open.value
    total = int(await session.scalar(select(func.count()).select_from(Dispute).where(where)) or 0)
    order = (Dispute.opened_at, Dispute.id) if show == "open" else (Dispute.opened_at.desc(), Dispute.id)
    rows = (
        await session.execute(
            select(
                Dispute, Appointment, Service.name, Provider.first_name, Provider.last_name, User, VisitCharge
            )
            .join(Appointment, Appointment.id == Dispute.appointment_id)
            .join(Service, Service.id == Appointment.service_id)
            .join(Provider, Provider.id == Appointment.provider_id)
            .outerjoin(User, User.id == Dispute.patient_id)
            .outerjoin(VisitCharge, VisitCharge.appointment_id == Dispute.appointment_id)
            .where(where)
            .order_by(case((open_, 0), else_=1), *order)
            .limit(PAGE_SIZE)
            .offset((page - 1) * PAGE_SIZE)
        )
    ).all()
    items = [
        DisputeQueueItem(
            dispute=dispute_read(dispute),
            patient_name=account_of(user).name if user is not None else "",
            provider_name=f"{first} {last}".strip(),
            service_name=service_name,
            visit_at=as_utc(visit.starts_at),
            refundable=Decimal(refundable_cents(charge) if charge is not None else 0) / 100,
        )
        for dispute, visit, service_name, first, last, user, charge in rows
    ]
    return DisputeQueueRead(items=items, total=total, page=page, pages=max(1, -(-total // PAGE_SIZE)))
