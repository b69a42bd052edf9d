"""The demo marketplace's money, recorded by the ledger as it records real use, so Revenue, Analytics, the
provider wallets and `python -m medivisit ledger check` agree on a fresh demo.

Every demo order was paid by card at checkout (`_visits`): the ledger books it as a captured card payment
(`post_booked_order`: each visit's charge and its `order_placed` entry, paid ahead, at the order's time).
Its flash-sale visits (the sale runs every day unless FLASH_SALE_DAY says otherwise) were funded by their
providers, the setting's other choice: five months of a 30 % sale paid out of a 5 % fee would show the
demo's owner a loss no marketplace runs. New bookings follow the setting (the platform by default).
Each completed visit is then settled by the ledger's own command at its completion time
(`settle_completed_visit`: `visit_completed`, the order paid); each earning is released by the ledger's job
once its dispute window is over (`release_due_earnings`, run at the moment the window ends, as the
every-minute job would have). A cancelled visit (always at least two days before it started, by the
patient) is refunded in full as wallet credit, the entry and rows `settle_cancelled_visit` writes for a paid
visit cancelled in time; the demo writes them itself because that command announces the refund
(`RefundIssued`: a notification and an e-mail now), and a seed tells nobody of history.

A few providers were paid out (`PAYOUTS`): requests of their available balance at the time, approved,
sent and paid by the demo owner, with the postings, request rows and `payout` transactions `_payouts`
writes; the newest are still in transit, approved or waiting, so the payout queue has work. Those steps
are the demo's own writing for the same reason and one more: the ledger's payout commands act for a
signed-in provider and staff member, and the generated providers have no account (their requests name the
provider's profile). The demo provider (Priya) has none: her payout screen starts empty.

Everything runs in the seed's unit of work; the per-visit commands are the ledger's (a few statements
each), the rest is written in bulk.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import BookedVisit, PaymentCaptured
from app.services.ledger import WORLD, cents, dollars, move
from app.services.ledger.internal import (
    post,
    post_booked_order,
    release_due_earnings,
    settle_completed_visit,
)
from app.settings import get_settings
from models.base import new_id
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    OrderStatus,
    Transaction,
    TransactionStatus,
    TransactionType,
)
from models.identity import as_utc
from models.ledger import AccountKind, DiscountFunding, EntryKind, PayoutRequest, PayoutStatus, VisitCharge
from models.provider import Provider

S = AppointmentStatus
P = PayoutStatus
# (days before now the request was made, the status it reached); each to a different provider, the busiest
# first. Paid payouts took a day to approve, a day to send and three to arrive.
PAYOUTS: tuple[tuple[float, PayoutStatus], ...] = (
    (60, P.paid),
    (45, P.paid),
    (32, P.paid),
    (20, P.paid),
    (4, P.in_transit),
    (2, P.approved),
    (0.25, P.pending),
)
APPROVED_AFTER, SENT_AFTER, PAID_AFTER = timedelta(days=1), timedelta(days=2), timedelta(days=5)


@dataclass
class DemoMoney:
    """What the demo recorded in the ledger (counts), for the seed's report."""

    orders: int = 0
    completed: int = 0
    refunded: int = 0
    released: int = 0
    payouts: dict[PayoutStatus, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        paid = self.payouts.get(P.paid, 0)
        open_ = sum(count for status, count in self.payouts.items() if status != P.paid)
        return [
            f"ledger: {self.orders} orders paid by card, {self.completed} visits settled, {self.refunded} "
            f"cancelled visits refunded as credit, {self.released} earnings released, {paid} payouts paid "
            f"and {open_} in progress"
        ]


async def seed_demo_ledger(
    *,
    session: AsyncSession,
    orders: Sequence[Order],
    visits: Sequence[Appointment],
    keep_out: str,
    approver_id: str | None,
    now: datetime,
) -> DemoMoney:
    """Record the demo's orders and visits in the ledger (see the module docstring). `keep_out`: the provider
    who gets no payouts (the demo provider); `approver_id`: the staff member who handled the payouts (none:
    no payouts)."""
    done = DemoMoney()
    # Written already; the ledger changes an order's status with an UPDATE statement, which would search
    # the session's every order for it (synchronize_session) if they stayed in it.
    await session.flush()
    for order in orders:
        session.expunge(order)
    by_order: dict[str, list[Appointment]] = defaultdict(list)
    for visit in visits:
        if visit.order_id is not None:  # every demo visit was booked through an order
            by_order[visit.order_id].append(visit)
    for order in orders:
        booked = tuple(BookedVisit(v.id, v.provider_id, v.price) for v in by_order[order.id])
        at = as_utc(order.created_at)
        await post_booked_order(
            session,
            PaymentCaptured(order.id, order.patient_id, booked, order.platform_fee, at),
            funding=DiscountFunding.provider,
        )
        done.orders += 1
    completed = sorted((v for v in visits if v.status == S.completed), key=lambda v: as_utc(v.ends_at))
    for visit in completed:
        await settle_completed_visit(session=session, row=visit, at=as_utc(visit.ends_at))
        done.completed += 1
    done.refunded = await _refund_cancelled(session, [v for v in visits if v.status == S.cancelled])
    done.released = await _release(session, completed, now)
    if approver_id is not None:
        done.payouts = await _pay_out(session, completed, keep_out, approver_id, now)
    return done


async def _refund_cancelled(session: AsyncSession, cancelled: Sequence[Appointment]) -> int:
    """Each cancelled visit's payment back as wallet credit, as `settle_cancelled_visit` books a paid visit
    cancelled at least REFUND_NOTICE_HOURS ahead: a `refund` entry, the charge refunded and voided, a
    `refund` transaction; the order (one visit each) is cancelled."""
    if not cancelled:
        return 0
    charges = {
        c.appointment_id: c
        for c in await session.scalars(
            select(VisitCharge).where(VisitCharge.appointment_id.in_([v.id for v in cancelled]))
        )
    }
    refunds: list[dict[str, object]] = []
    for visit in cancelled:
        charge = charges[visit.id]
        at = as_utc(visit.cancelled_at) if visit.cancelled_at else as_utc(visit.updated_at)
        amount = charge.price + charge.fee
        await post(
            session=session,
            kind=EntryKind.refund,
            legs=move(
                amount,
                (AccountKind.patient_booked, charge.patient_id),
                (AccountKind.patient_credit, charge.patient_id),
            ),
            description="Cancelled visit refunded as wallet credit",
            order_id=charge.order_id,
            appointment_id=visit.id,
            actor_id=visit.patient_id,
            at=at,
        )
        charge.refunded_earning, charge.refunded_fee, charge.voided_at = charge.price, charge.fee, at
        refunds.append(
            {
                "id": new_id(),
                "order_id": charge.order_id,
                "appointment_id": visit.id,
                "user_id": charge.patient_id,
                "type": TransactionType.refund,
                "status": TransactionStatus.completed,
                "amount": dollars(amount),
                "description": "Refund as wallet credit (cancelled visit)",
                "gateway": "wallet",
                "created_at": at,
                "settled_at": at,
            }
        )
    await session.execute(insert(Transaction), refunds)
    await session.execute(
        update(Order)
        .where(Order.id.in_({v.order_id for v in cancelled}))
        .values(status=OrderStatus.cancelled)
        .execution_options(synchronize_session=False)
    )
    return len(cancelled)


async def _release(session: AsyncSession, completed: Sequence[Appointment], now: datetime) -> int:
    """Run the release job at each moment a dispute window ended (the job runs every minute); how many
    earnings it released."""
    window = timedelta(hours=get_settings().dispute_window_hours)
    released = 0
    for at in sorted({as_utc(v.ends_at) + window for v in completed if as_utc(v.ends_at) + window <= now}):
        released += await release_due_earnings(session=session, now=at)
    return released


async def _pay_out(
    session: AsyncSession,
    completed: Sequence[Appointment],
    keep_out: str,
    approver_id: str,
    now: datetime,
) -> dict[PayoutStatus, int]:
    """`PAYOUTS`, each asking for the provider's whole available balance at the time it was made (the
    request form's default) or, above the single-approval limit, a round sum below it; how many reached
    each status."""
    settings = get_settings()
    window = timedelta(hours=settings.dispute_window_hours)
    minimum, ceiling = cents(settings.payout_minimum), cents(settings.payout_second_approval_above)
    earned: dict[str, int] = defaultdict(int)
    for visit in completed:
        earned[visit.provider_id] += cents(visit.price)
    busiest = [p for p, _ in sorted(earned.items(), key=lambda item: (-item[1], item[0])) if p != keep_out]
    providers = dict(
        (await session.execute(select(Provider.id, Provider.user_id).where(Provider.id.in_(busiest)))).all()
    )
    counts: dict[PayoutStatus, int] = {}
    requests: list[dict[str, object]] = []
    transactions: list[dict[str, object]] = []
    for index, ((days, reaches), provider_id) in enumerate(zip(PAYOUTS, busiest, strict=False)):
        requested = now - timedelta(days=days)
        # Released by then: each earning was released the moment its dispute window ended (`_release`).
        available = sum(
            cents(v.price)
            for v in completed
            if v.provider_id == provider_id and as_utc(v.ends_at) + window <= requested
        )
        # Above the limit a payout waits for a second approver; these were for a round sum below it.
        amount = available if available <= ceiling else ceiling - 10_000 * (index + 1)
        if amount < minimum:
            continue
        payout_id, transaction_id = new_id(), new_id()
        steps = {P.approved: requested + APPROVED_AFTER, P.in_transit: requested + SENT_AFTER}
        steps[P.paid] = requested + PAID_AFTER
        reached = [status for status in (P.approved, P.in_transit, P.paid) if _at_least(reaches, status)]
        last = steps[reached[-1]] if reached else requested
        await post(
            session=session,
            kind=EntryKind.payout_requested,
            legs=move(
                amount,
                (AccountKind.provider_available, provider_id),
                (AccountKind.provider_payout, provider_id),
            ),
            description="Payout requested",
            payout_id=payout_id,
            actor_id=providers.get(provider_id),
            at=requested,
        )
        if reaches == P.paid:
            await post(
                session=session,
                kind=EntryKind.payout_paid,
                legs=move(amount, (AccountKind.provider_payout, provider_id), WORLD),
                description="Payout paid",
                payout_id=payout_id,
                actor_id=approver_id,
                at=steps[P.paid],
            )
        requests.append(
            {
                "id": payout_id,
                "provider_id": provider_id,
                "requested_by": providers.get(provider_id) or provider_id,
                "amount": amount,
                "status": reaches,
                "approvals_needed": 1,
                "first_approver_id": approver_id if reached else None,
                "decided_by": approver_id if _at_least(reaches, P.in_transit) else None,
                "transaction_id": transaction_id,
                "requested_at": requested,
                "approved_at": steps[P.approved] if reached else None,
                "sent_at": steps[P.in_transit] if _at_least(reaches, P.in_transit) else None,
                "closed_at": steps[P.paid] if reaches == P.paid else None,
                "updated_at": last,
            }
        )
        transactions.append(
            {
                "id": transaction_id,
                "user_id": providers.get(provider_id),
                "type": TransactionType.payout,
                "status": TransactionStatus.completed if reaches == P.paid else TransactionStatus.pending,
                "amount": dollars(amount),
                "description": "Payout to your bank account",
                "gateway": "payout",
                "gateway_reference": payout_id,
                "created_at": requested,
                "settled_at": steps[P.paid] if reaches == P.paid else None,
            }
        )
        counts[reaches] = counts.get(reaches, 0) + 1
    if requests:
        await session.execute(insert(Transaction), transactions)
        await session.execute(insert(PayoutRequest), requests)
    return counts


def _at_least(reached: PayoutStatus, status: PayoutStatus) -> bool:
    order = (P.pending, P.approved, P.in_transit, P.paid)
    return order.index(reached) >= order.index(status)
