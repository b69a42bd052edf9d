"""Revenue split by service line or by metro (issue 14 item 7), for /staff/revenue and its CSV.

The same postings as the revenue summary (`_reads.get_revenue_summary`), grouped by what the entry's visit
was: its service's category (the service line) or where it took place (the visit's city and state). Entries
that belong to no visit (the store's deliveries and returns) fall in one row of their own, so the groups
always add up to the summary's gross,
fees, refunds and net for the same range (a test proves it). Payouts are paid to providers, not per visit,
so they are not split.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.ledger._journal import dollars, signed_total
from app.services.ledger._reads import COLLECTED, FEE_KINDS, REFUNDED_TO
from app.services.ledger._rules import BAD_RANGE, BAD_SPLIT
from app.services.shared.staff_access import require_permission
from models.booking import Appointment
from models.catalog import Service, ServiceCategory
from models.ledger import (
    AccountKind,
    EntryKind,
    JournalEntry,
    Posting,
    RevenueBreakdownRead,
    RevenueGroupRead,
)
from models.staff import Permission

SPLITS = ("service_line", "metro")
NOT_A_VISIT = "Store orders and other"  # money tied to no visit: the store's sales and returns


async def get_revenue_breakdown(
    *,
    session: AsyncSession,
    actor: Principal,
    split: str = "service_line",
    since: datetime | None = None,
    until: datetime | None = None,
) -> RevenueBreakdownRead:
    """Staff (view_revenue): gross bookings, fees, refunds and net per service line or per metro, largest
    gross first; `since` / `until` a half-open range (UTC)."""
    await require_permission(session=session, actor=actor, permission=Permission.view_revenue)
    if split not in SPLITS:
        raise ValidationFailed(BAD_SPLIT)
    if since is not None and until is not None and until <= since:
        raise ValidationFailed(BAD_RANGE)

    kind, entry = Posting.account_kind, JournalEntry.kind
    keys = (ServiceCategory.name,) if split == "service_line" else (Appointment.city, Appointment.state)
    query = (
        select(
            *keys,
            signed_total(and_(kind == AccountKind.patient_booked, entry.in_(COLLECTED)), -1),
            signed_total(and_(kind.in_(FEE_KINDS), entry.in_(COLLECTED))),
            signed_total(and_(kind.in_(REFUNDED_TO), entry == EntryKind.refund)),
            signed_total(kind.in_(FEE_KINDS)),
        )
        .select_from(Posting)
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .outerjoin(Appointment, Appointment.id == JournalEntry.appointment_id)
        .where(
            kind.in_((AccountKind.patient_booked, *FEE_KINDS, *REFUNDED_TO)),
            entry.in_((*COLLECTED, EntryKind.refund)),
        )
        .group_by(*keys)
    )
    if split == "service_line":
        query = query.outerjoin(Service, Service.id == Appointment.service_id).outerjoin(
            ServiceCategory, ServiceCategory.id == Service.category_id
        )
    if since is not None:
        query = query.where(Posting.created_at >= since.astimezone(UTC))
    if until is not None:
        query = query.where(Posting.created_at < until.astimezone(UTC))
    rows = (await session.execute(query)).all()
    groups = [
        RevenueGroupRead(
            label=_label(row[: len(keys)]),
            gross=dollars(gross),
            fees=dollars(fees),
            refunds=dollars(refunds),
            net=dollars(net),
        )
        for row in rows
        for gross, fees, refunds, net in [row[len(keys) :]]
    ]
    groups.sort(key=lambda g: (g.label == NOT_A_VISIT, -g.gross, g.label))
    return RevenueBreakdownRead(
        split=split,
        groups=groups,
        totals=RevenueGroupRead(
            label="Total",
            gross=sum((g.gross for g in groups), dollars(0)),
            fees=sum((g.fees for g in groups), dollars(0)),
            refunds=sum((g.refunds for g in groups), dollars(0)),
            net=sum((g.net for g in groups), dollars(0)),
        ),
    )


def _label(key: tuple[str | None, ...]) -> str:
    if len(key) == 1:  # a service line
        return key[0] or NOT_A_VISIT
    city, state = key
    if city is None and state is None:
        return NOT_A_VISIT
    return ", ".join(part for part in (city, state) if part) or "Address not recorded"
