"""Payout requests (Dokan-style withdrawals, Stripe payout statuses, maker-checker above a threshold).

A provider requests a payout of their available balance (at least `payout_minimum`; one open request at a
time: the database's partial unique index refuses a second). Fees they collected in hand at pay-at-visit
visits (provider_receivable) are netted first (`fee_netted`: provider_available and provider_receivable −x,
platform_fees and world +x, x = min(receivable, available)), so the payout is for what is left. Requesting moves the amount from
provider_available to provider_payout at once, so it can't be spent twice. Staff with process_payments
approve (above the owners' `payout_second_approval_above` setting two approvals, by different people) or reject it with a
reason; an approved payout is sent (in_transit: by staff with the bank transfer's reference, or by Stripe
transfer for a provider paid through Stripe Connect, `_payout_transfers`), then paid (provider_payout →
world), or failed. Rejected
and failed payouts return the money to available. Every step is audited, notifies the provider and keeps
the `payout` transaction row (pending → completed / cancelled / failed) in step.

Concurrency: the request row is locked (SELECT … FOR UPDATE on PostgreSQL) by every staff step, so two
approvers of one request take turns and the second sees the first's approval; the provider's available
balance is locked before a request reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.domain_events import PayoutStatusChanged
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.features.internal import payout_second_approval_above
from app.services.ledger._journal import (
    FEES,
    WORLD,
    Leg,
    account_id,
    cents,
    dollars,
    lock_balances,
    move,
    post,
)
from app.services.ledger._rules import (
    ABOVE_AVAILABLE,
    BAD_STEP,
    BELOW_MINIMUM,
    MAX_PAGE_SIZE,
    MAX_REASON,
    NETTED_FIRST,
    NO_PAYOUT,
    NO_PROFILE,
    ONE_OPEN,
    OWN_PAYOUT,
    PAGE_SIZE,
    REASON_REQUIRED,
    REFERENCE_REQUIRED,
    REFERENCE_TOO_LONG,
    SAME_APPROVER,
    require_payments_staff,
)
from app.services.providers import display_name
from app.services.shared.locks import write_lock
from app.services.shared.signed_in import require_account
from app.services.validation import amount_cents
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.base import new_id, utcnow
from models.booking import Transaction, TransactionStatus, TransactionType
from models.identity import as_utc
from models.ledger import (
    MAX_TRANSFER_REFERENCE,
    OPEN_PAYOUT,
    AccountKind,
    EntryKind,
    PayoutRead,
    PayoutRequest,
    PayoutStatus,
)
from models.provider import Provider


def _read(row: PayoutRequest, provider: Provider | None) -> PayoutRead:
    return PayoutRead(
        id=row.id,
        provider_id=row.provider_id,
        provider_name=display_name(provider.first_name, provider.last_name) if provider else "",
        amount=dollars(row.amount),
        status=row.status,
        approvals_needed=row.approvals_needed,
        first_approver_id=row.first_approver_id,
        second_approver_id=row.second_approver_id,
        reason=row.reason,
        requested_at=as_utc(row.requested_at),
        approved_at=as_utc(row.approved_at),
        sent_at=as_utc(row.sent_at),
        closed_at=as_utc(row.closed_at),
        transfer_reference=row.transfer_reference,
    )


async def _own_profile(session: AsyncSession, account: AccountRead) -> Provider:
    provider = await session.scalar(select(Provider).where(Provider.user_id == account.id))
    if provider is None:
        raise NotFound(NO_PROFILE)
    return provider


async def _tell(session: AsyncSession, row: PayoutRequest, provider: Provider | None, at: datetime) -> None:
    await events.publish_event(
        session,
        PayoutStatusChanged(
            payout_id=row.id,
            provider_user_id=provider.user_id if provider is not None else None,
            status=row.status.value,
            amount=dollars(row.amount),
            at=at,
        ),
    )


async def _audit(
    session: AsyncSession,
    actor: Principal,
    account: AccountRead,
    action: AuditAction,
    row: PayoutRequest,
    **details: object,
) -> None:
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=action,
        target=f"payout {row.id}",
        details={"amount_cents": row.amount, "provider_id": row.provider_id, **details},
    )


async def request_payout(
    *,
    session: AsyncSession,
    actor: Principal,
    amount: Decimal | None = None,
    now: datetime | None = None,
) -> PayoutRead:
    """The signed-in provider asks for a payout of `amount` (default: the whole available balance)."""
    account = await require_account(session=session, actor=actor)
    provider = await _own_profile(session, account)
    at = now or utcnow()
    available_id = account_id(AccountKind.provider_available, provider.id)
    receivable_id = account_id(AccountKind.provider_receivable, provider.id)
    held = await lock_balances(session, [available_id, receivable_id])
    # Fees the provider collected in hand at pay-at-visit visits are netted first: they keep those fees,
    # the platform keeps as much of their available card earnings (`fee_netted`).
    netted = min(held[receivable_id], held[available_id])
    available = held[available_id] - netted
    wanted = available if amount is None else amount_cents(amount)  # 1e30, NaN, -1, 1e-9: a field error
    minimum = cents(get_settings().payout_minimum)
    if wanted < minimum:
        raise ValidationFailed(BELOW_MINIMUM.format(minimum=f"{dollars(minimum):,.2f}"))
    if wanted > available:
        refusal = ABOVE_AVAILABLE.format(available=f"{dollars(available):,.2f}")
        if netted:
            refusal += NETTED_FIRST.format(netted=f"{dollars(netted):,.2f}")
        raise ValidationFailed(refusal)
    if await session.scalar(
        select(PayoutRequest.id).where(
            PayoutRequest.provider_id == provider.id, PayoutRequest.status.in_(OPEN_PAYOUT)
        )
    ):
        raise ValidationFailed(ONE_OPEN)
    threshold = cents(await payout_second_approval_above(session=session))
    row = PayoutRequest(
        id=new_id(),
        provider_id=provider.id,
        requested_by=account.id,
        amount=wanted,
        status=PayoutStatus.pending,
        approvals_needed=2 if wanted > threshold else 1,
        requested_at=at,
        updated_at=at,
    )
    transaction = Transaction(
        user_id=account.id,
        type=TransactionType.payout,
        status=TransactionStatus.pending,
        amount=dollars(wanted),
        description="Payout to your bank account",
        gateway="payout",
        gateway_reference=row.id,
    )
    session.add(transaction)
    await session.flush()
    row.transaction_id = transaction.id
    session.add(row)
    try:
        # A concurrent request of the same provider: the one-open-request index refuses this insert.
        async with session.begin_nested():
            await session.flush()
    except IntegrityError:
        raise ValidationFailed(ONE_OPEN) from None
    if netted:
        await post(
            session=session,
            kind=EntryKind.fee_netted,
            legs=[
                Leg(AccountKind.provider_available, provider.id, -netted),
                Leg(AccountKind.provider_receivable, provider.id, -netted),
                Leg(FEES[0], FEES[1], netted),
                Leg(WORLD[0], WORLD[1], netted),
            ],
            description="Fees collected at visits, netted",
            payout_id=row.id,
            actor_id=account.id,
            at=at,
        )
    await post(
        session=session,
        kind=EntryKind.payout_requested,
        legs=move(
            wanted, (AccountKind.provider_available, provider.id), (AccountKind.provider_payout, provider.id)
        ),
        description="Payout requested",
        payout_id=row.id,
        actor_id=account.id,
        at=at,
    )
    await _audit(session, actor, account, AuditAction.payout_requested, row)
    await _tell(session, row, provider, at)
    return _read(row, provider)


async def _staff_step(
    session: AsyncSession, actor: Principal, payout_id: str, *allowed: PayoutStatus, action: str
) -> tuple[AccountRead, PayoutRequest, Provider | None]:
    staff = await require_payments_staff(session=session, actor=actor)
    await write_lock(session, PayoutRequest.id, [payout_id])
    row = await session.scalar(
        select(PayoutRequest).where(PayoutRequest.id == payout_id).execution_options(populate_existing=True)
    )
    if row is None:
        raise NotFound(NO_PAYOUT)
    provider = await session.get(Provider, row.provider_id)
    if row.requested_by == staff.id or (provider is not None and provider.user_id == staff.id):
        raise PermissionDenied(OWN_PAYOUT)
    if row.status not in allowed:
        raise ValidationFailed(BAD_STEP.format(status=row.status.value.replace("_", " "), action=action))
    return staff, row, provider


async def _set_transaction(
    session: AsyncSession, row: PayoutRequest, status: TransactionStatus, at: datetime
) -> None:
    transaction = await session.get(Transaction, row.transaction_id) if row.transaction_id else None
    if transaction is not None:
        transaction.status = status
        if status is TransactionStatus.completed:
            transaction.settled_at = at


def _reason(reason: str) -> str:
    reason = (reason or "").strip()[:MAX_REASON]
    if not reason:
        raise ValidationFailed(REASON_REQUIRED)
    return reason


async def approve_payout(
    *, session: AsyncSession, actor: Principal, payout_id: str, now: datetime | None = None
) -> PayoutRead:
    """Staff (process_payments) approve a pending payout; above the threshold the first approval waits for
    a second one by somebody else."""
    staff, row, provider = await _staff_step(
        session, actor, payout_id, PayoutStatus.pending, action="approved"
    )
    at = now or utcnow()
    if row.approvals_needed > 1 and row.first_approver_id is None:
        row.first_approver_id, row.updated_at = staff.id, at
        await _audit(session, actor, staff, AuditAction.payout_approved, row, step="first")
        await session.flush()
        return _read(row, provider)
    if row.first_approver_id == staff.id:
        raise ValidationFailed(SAME_APPROVER)
    if row.first_approver_id is None:
        row.first_approver_id = staff.id
    else:
        row.second_approver_id = staff.id
    row.status, row.approved_at, row.updated_at = PayoutStatus.approved, at, at
    read = await _announced(
        session, actor, staff, AuditAction.payout_approved, row, provider, at, step="final"
    )
    from app.services.ledger._payout_transfers import send_if_connected  # it builds on this module

    return await send_if_connected(session, actor, staff, row, provider, at, read)


async def _return_money(
    session: AsyncSession, row: PayoutRequest, staff: AccountRead | None, reason: str, at: datetime
) -> None:
    """The payout's money back to the provider's available balance (`staff` None: Stripe said it failed)."""
    await post(
        session=session,
        kind=EntryKind.payout_returned,
        legs=move(
            row.amount,
            (AccountKind.provider_payout, row.provider_id),
            (AccountKind.provider_available, row.provider_id),
        ),
        description=f"Payout {row.status.value}: back to available",
        payout_id=row.id,
        actor_id=staff.id if staff is not None else None,
        reason=reason,
        at=at,
    )


async def _closed_with_money_back(
    session: AsyncSession,
    actor: Principal,
    payout_id: str,
    reason: str,
    allowed: tuple[PayoutStatus, ...],
    status: PayoutStatus,
    now: datetime | None,
) -> PayoutRead:
    """Reject or fail a payout, with a reason: the money returns to the provider's available balance."""
    reason = _reason(reason)
    rejected = status is PayoutStatus.rejected
    staff, row, provider = await _staff_step(
        session, actor, payout_id, *allowed, action="rejected" if rejected else "marked failed"
    )
    at = now or utcnow()
    row.status, row.reason, row.decided_by = status, reason, staff.id
    row.closed_at = row.updated_at = at
    await _return_money(session, row, staff, reason, at)
    await _set_transaction(
        session, row, TransactionStatus.cancelled if rejected else TransactionStatus.failed, at
    )
    action = AuditAction.payout_rejected if rejected else AuditAction.payout_failed
    return await _announced(session, actor, staff, action, row, provider, at, reason=reason)


async def _announced(
    session: AsyncSession,
    actor: Principal,
    staff: AccountRead,
    action: AuditAction,
    row: PayoutRequest,
    provider: Provider | None,
    at: datetime,
    **details: object,
) -> PayoutRead:
    """A step done: audited, the provider notified, the row written; its read."""
    await _audit(session, actor, staff, action, row, **details)
    await _tell(session, row, provider, at)
    await session.flush()
    return _read(row, provider)


async def reject_payout(
    *, session: AsyncSession, actor: Principal, payout_id: str, reason: str, now: datetime | None = None
) -> PayoutRead:
    """Staff decline a pending or approved (not yet sent) payout, with a reason: the money returns."""
    allowed = (PayoutStatus.pending, PayoutStatus.approved)
    return await _closed_with_money_back(
        session, actor, payout_id, reason, allowed, PayoutStatus.rejected, now
    )


async def mark_payout_failed(
    *, session: AsyncSession, actor: Principal, payout_id: str, reason: str, now: datetime | None = None
) -> PayoutRead:
    """Staff record that an approved or in-transit payout failed (the bank refused it), with the reason:
    the money returns to the provider's available balance."""
    allowed = (PayoutStatus.approved, PayoutStatus.in_transit)
    return await _closed_with_money_back(session, actor, payout_id, reason, allowed, PayoutStatus.failed, now)


async def mark_payout_sent(
    *,
    session: AsyncSession,
    actor: Principal,
    payout_id: str,
    reference: str,
    now: datetime | None = None,
) -> PayoutRead:
    """Staff record that an approved payout was sent to the provider's bank (in transit), with the bank
    transfer's reference (the provider sees it, to find the money on their statement)."""
    reference = " ".join((reference or "").split())
    if not reference:
        raise ValidationFailed(REFERENCE_REQUIRED)
    if len(reference) > MAX_TRANSFER_REFERENCE:
        raise ValidationFailed(REFERENCE_TOO_LONG)
    staff, row, provider = await _staff_step(session, actor, payout_id, PayoutStatus.approved, action="sent")
    from app.services.ledger._payout_transfers import refuse_manual_send  # it builds on this module

    await refuse_manual_send(session, row)
    at = now or utcnow()
    row.status, row.sent_at, row.updated_at, row.decided_by = PayoutStatus.in_transit, at, at, staff.id
    row.transfer_reference = reference
    return await _announced(
        session, actor, staff, AuditAction.payout_sent, row, provider, at, reference=reference
    )


async def mark_payout_paid(
    *, session: AsyncSession, actor: Principal, payout_id: str, now: datetime | None = None
) -> PayoutRead:
    """Staff record that a payout in transit arrived: the money leaves the platform."""
    staff, row, provider = await _staff_step(
        session, actor, payout_id, PayoutStatus.in_transit, action="marked paid"
    )
    at = now or utcnow()
    row.status, row.decided_by, row.closed_at, row.updated_at = PayoutStatus.paid, staff.id, at, at
    await post(
        session=session,
        kind=EntryKind.payout_paid,
        legs=move(row.amount, (AccountKind.provider_payout, row.provider_id), WORLD),
        description="Payout paid",
        payout_id=row.id,
        actor_id=staff.id,
        at=at,
    )
    await _set_transaction(session, row, TransactionStatus.completed, at)
    return await _announced(session, actor, staff, AuditAction.payout_paid, row, provider, at)


async def _reads(session: AsyncSession, rows: Sequence[PayoutRequest]) -> list[PayoutRead]:
    ids = {row.provider_id for row in rows}
    providers = (
        {p.id: p for p in await session.scalars(select(Provider).where(Provider.id.in_(ids)))} if ids else {}
    )
    return [_read(row, providers.get(row.provider_id)) for row in rows]


def _page(page: int, page_size: int) -> tuple[int, int]:
    return max(int(page), 1), min(max(int(page_size), 1), MAX_PAGE_SIZE)


async def list_my_payouts(
    *, session: AsyncSession, actor: Principal, page: int = 1, page_size: int = PAGE_SIZE
) -> list[PayoutRead]:
    """The signed-in provider's payout requests, newest first."""
    account = await require_account(session=session, actor=actor)
    provider = await _own_profile(session, account)
    page, page_size = _page(page, page_size)
    rows = await session.scalars(
        select(PayoutRequest)
        .where(PayoutRequest.provider_id == provider.id)
        .order_by(PayoutRequest.requested_at.desc(), PayoutRequest.id)
        .offset((page - 1) * page_size)
        .limit(page_size)
    )
    return await _reads(session, rows.all())


async def list_payout_queue(
    *,
    session: AsyncSession,
    actor: Principal,
    statuses: Sequence[PayoutStatus] = OPEN_PAYOUT,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> tuple[list[PayoutRead], int]:
    """Staff (process_payments): payout requests in `statuses` (default: the open ones), oldest first,
    and how many there are."""
    await require_payments_staff(session=session, actor=actor)
    page, page_size = _page(page, page_size)
    condition = PayoutRequest.status.in_(list(statuses))
    total = await session.scalar(select(func.count()).select_from(PayoutRequest).where(condition)) or 0
    rows = await session.scalars(
        select(PayoutRequest)
        .where(condition)
        .order_by(PayoutRequest.requested_at, PayoutRequest.id)
        .offset((page - 1) * page_size)
        .limit(page_size)
    )
    from app.services.ledger._payout_transfers import with_transfer_flags  # it builds on this module

    return await with_transfer_flags(session, await _reads(session, rows.all())), total
