"""Payouts sent by Stripe transfer (issue 29, item 2; Stripe Connect, only when PAYMENT_GATEWAY=stripe).

For a provider whose connected account has payouts enabled (`payments.internal.payout_account_of`), the
payout's final approval sends it at once (`send_if_connected`, called by `approve_payout`): a transfer of its
amount to that account, the payout's id as the idempotency key, and the payout is in transit ("sent") with
the transfer's id as its reference; staff do not "Mark sent" it (`refuse_manual_send`). When Stripe refuses
the transfer or cannot be reached, the approval stands and the payout stays approved, nothing else written,
with the reason in the read's `notice` for staff; "Send transfer" (`send_payout_transfer`) tries again.
Then Stripe says how it ended (`ConnectedPayoutSettled`, from the payments webhook: `transfer.reversed`,
`payout.paid`, `payout.failed`): `settle_connected_payout` moves it to paid (provider_payout → world) or
failed, its money back in the provider's available balance as the manual "failed" step does (`_return_money`).
Without a connected account with payouts enabled, payouts stay bank transfers recorded by staff (`_payouts`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.domain_events import ConnectedPayoutSettled
from app.services.errors import Unavailable, ValidationFailed
from app.services.ledger._journal import WORLD, move, post
from app.services.ledger._payouts import (
    _announced,
    _return_money,
    _set_transaction,
    _staff_step,
    _tell,
)
from app.services.payments import internal as payments
from app.services.shared.locks import write_lock
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.booking import TransactionStatus
from models.ledger import AccountKind, EntryKind, PayoutRead, PayoutRequest, PayoutStatus
from models.provider import Provider

logger = logging.getLogger(__name__)

BY_TRANSFER = (
    "This provider is paid through Stripe: the payout is sent by Stripe transfer (Send transfer), "
    "not recorded by hand."
)
NO_CONNECTED_ACCOUNT = (
    "This provider has no Stripe payout account with payouts enabled: send it from the bank and record "
    "its reference (Mark sent)."
)


async def _sent_by_transfer(
    session: AsyncSession,
    actor: Principal,
    staff: AccountRead,
    row: PayoutRequest,
    provider: Provider | None,
    account_id: str,
    at: datetime,
) -> PayoutRead:
    """Transfer the approved payout to the connected account; in transit with the transfer's id. Raises
    `Unavailable` (nothing changed) when Stripe does not make the transfer."""
    transfer_id = await payments.transfer_payout(
        account_id=account_id, payout_id=row.id, amount_cents=row.amount
    )
    row.status, row.sent_at, row.updated_at, row.decided_by = PayoutStatus.in_transit, at, at, staff.id
    row.transfer_id, row.transfer_reference = transfer_id, transfer_id[:64]
    read = await _announced(
        session, actor, staff, AuditAction.payout_sent, row, provider, at, reference=transfer_id, by="stripe"
    )
    return read.model_copy(update={"by_transfer": True})


async def send_if_connected(
    session: AsyncSession,
    actor: Principal,
    staff: AccountRead,
    row: PayoutRequest,
    provider: Provider | None,
    at: datetime,
    read: PayoutRead,
) -> PayoutRead:
    """After a payout's final approval (`read`): send it by transfer when its provider is paid through
    Stripe. A transfer Stripe refuses leaves it approved, with the reason in `notice`."""
    account_id = await payments.payout_account_of(session, row.provider_id)
    if account_id is None:
        return read
    try:
        return await _sent_by_transfer(session, actor, staff, row, provider, account_id, at)
    except Unavailable as refused:
        return read.model_copy(update={"by_transfer": True, "notice": refused.message})


async def send_payout_transfer(
    *, session: AsyncSession, actor: Principal, payout_id: str, now: datetime | None = None
) -> PayoutRead:
    """Staff (process_payments) send an approved payout by Stripe transfer (again, after Stripe refused it
    at the approval). Raises `Unavailable` (503, the payout stays approved) when Stripe refuses again."""
    staff, row, provider = await _staff_step(session, actor, payout_id, PayoutStatus.approved, action="sent")
    account_id = await payments.payout_account_of(session, row.provider_id)
    if account_id is None:
        raise ValidationFailed(NO_CONNECTED_ACCOUNT)
    return await _sent_by_transfer(session, actor, staff, row, provider, account_id, now or utcnow())


async def refuse_manual_send(session: AsyncSession, row: PayoutRequest) -> None:
    """ "Mark sent" is for bank transfers: a provider paid through Stripe is sent by transfer."""
    if await payments.payout_account_of(session, row.provider_id) is not None:
        raise ValidationFailed(BY_TRANSFER)


async def with_transfer_flags(session: AsyncSession, reads: Sequence[PayoutRead]) -> list[PayoutRead]:
    """The reads, each marked `by_transfer` when its provider is paid through Stripe."""
    connected = await payments.payout_accounts_of(session, {read.provider_id for read in reads})
    return [
        read.model_copy(update={"by_transfer": True}) if read.provider_id in connected else read
        for read in reads
    ]


async def _payout_of(session: AsyncSession, settled: ConnectedPayoutSettled) -> PayoutRequest | None:
    """The payout an event is about, row-locked: by its transfer, else by the payout id in the event's
    metadata, else the provider's payout in transit by transfer (there is at most one open payout)."""
    sent = PayoutRequest.transfer_id.is_not(None)
    if settled.transfer_id:
        where = [PayoutRequest.transfer_id == settled.transfer_id]
    elif settled.payout_id:
        where = [
            PayoutRequest.id == settled.payout_id,
            PayoutRequest.provider_id == settled.provider_id,
            sent,
        ]
    else:
        where = [
            PayoutRequest.provider_id == settled.provider_id,
            PayoutRequest.status == PayoutStatus.in_transit,
            sent,
        ]
    found = await session.scalar(select(PayoutRequest.id).where(*where).limit(1))
    if found is None:
        return None
    await write_lock(session, PayoutRequest.id, [found])
    return await session.scalar(
        select(PayoutRequest).where(PayoutRequest.id == found).execution_options(populate_existing=True)
    )


async def settle_connected_payout(session: AsyncSession, settled: ConnectedPayoutSettled) -> None:
    """`ConnectedPayoutSettled`'s subscriber, in the webhook's transaction: the payout in transit is paid,
    or failed with its money back in the provider's available balance. Anything else is left as it is."""
    row = await _payout_of(session, settled)
    if row is None or row.status is not PayoutStatus.in_transit:
        logger.warning(
            "Stripe %s (%s) for provider %s: no payout in transit by transfer",
            settled.outcome,
            settled.event_id,
            settled.provider_id,
        )
        return
    at = settled.at
    row.closed_at = row.updated_at = at
    if settled.outcome == "paid":
        row.status = PayoutStatus.paid
        await post(
            session=session,
            kind=EntryKind.payout_paid,
            legs=move(row.amount, (AccountKind.provider_payout, row.provider_id), WORLD),
            description="Payout paid",
            payout_id=row.id,
            at=at,
        )
        await _set_transaction(session, row, TransactionStatus.completed, at)
        action = AuditAction.payout_paid
    else:
        row.status, row.reason = PayoutStatus.failed, settled.reason
        await _return_money(session, row, None, settled.reason, at)
        await _set_transaction(session, row, TransactionStatus.failed, at)
        action = AuditAction.payout_failed
    await audit.record_by_stripe(
        session=session,
        action=action,
        target=f"payout {row.id}",
        details={
            "amount_cents": row.amount,
            "provider_id": row.provider_id,
            "event": settled.event_id,
            "transfer": row.transfer_id,
            **({"reason": settled.reason} if settled.reason else {}),
        },
    )
    provider = await session.get(Provider, row.provider_id)
    await _tell(session, row, provider, at)
    await session.flush()
