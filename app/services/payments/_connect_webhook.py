"""Stripe Connect's webhook events (issue 29, item 2), applied by `handle_stripe_webhook` (`_webhook`) once
it verified the signature and claimed the event id (so each is applied once):

- `account.updated`: the provider's connected account (found by its id) stores `details_submitted` and
  `payouts_enabled` as Stripe says they are now (the account is read back: Stripe does not deliver events in
  order, so an older event's copy arriving last would undo a newer one); a change of status is audited.
- `transfer.reversed` (a transfer fully reversed), `payout.paid` and `payout.failed` (events of the connected
  account: the envelope's `account`): `ConnectedPayoutSettled` is published, and the ledger moves the payout
  sent by that transfer to paid, or to failed with its money back in the provider's available balance.
Events about accounts this site did not create are acknowledged and ignored (`unknown_account`).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.services.domain_events import ConnectedPayoutSettled
from app.services.errors import Unavailable
from app.services.payments._connect import apply_account_state
from app.services.payments._stripe import stripe_client
from models.audit import AuditAction
from models.connect import ConnectAccount, connect_status

logger = logging.getLogger(__name__)

CONNECT_EVENTS = frozenset({"account.updated", "transfer.reversed", "payout.paid", "payout.failed"})
REVERSED_REASON = "The transfer to your Stripe account was reversed."
FAILED_REASON = "Stripe could not pay it out to your bank account."
UNREACHABLE = "Stripe could not be asked about this account; the event can be delivered again."


def _text(value: object, limit: int = 255) -> str:
    return str(value or "")[:limit]


def _envelope_account(payload: bytes) -> str:
    """The connected account an event is about (Connect events carry it at the top of the envelope)."""
    body = json.loads(payload)
    return _text(body.get("account")) if isinstance(body, dict) else ""


async def _account_row(session: AsyncSession, account_id: str) -> ConnectAccount | None:
    if not account_id:
        return None
    return await session.scalar(
        select(ConnectAccount)
        .where(ConnectAccount.account_id == account_id)
        .execution_options(populate_existing=True)
    )


async def apply_connect_event(
    session: AsyncSession, *, kind: str, obj: dict[str, Any], payload: bytes, event_id: str, at: datetime
) -> str:
    """Apply one Connect event (verified, claimed); the webhook outcome's result."""
    if kind == "account.updated":
        return await _account_updated(session, obj, event_id, at)
    if kind == "transfer.reversed":
        amount, reversed_ = obj.get("amount"), obj.get("amount_reversed")
        if not obj.get("reversed") and not (isinstance(amount, int) and reversed_ == amount):
            logger.warning("Transfer %s partly reversed: not applied", _text(obj.get("id"), 80))
            return "ignored"
        account_id, transfer_id = _text(obj.get("destination")), _text(obj.get("id")) or None
        outcome, reason = "failed", REVERSED_REASON
    else:
        account_id, transfer_id = _envelope_account(payload), None
        outcome = "paid" if kind == "payout.paid" else "failed"
        reason = "" if outcome == "paid" else _text(obj.get("failure_message") or FAILED_REASON, 500)
    row = await _account_row(session, account_id)
    if row is None:
        return "unknown_account"
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
    await events.publish_event(
        session,
        ConnectedPayoutSettled(
            provider_id=row.provider_id,
            account_id=row.account_id,
            outcome="paid" if outcome == "paid" else "failed",
            reason=reason,
            transfer_id=transfer_id,
            payout_id=_text(metadata.get("payout_id"), 36) or None,
            event_id=event_id,
            at=at,
        ),
    )
    return f"payout_{outcome}"


async def _current_account(account_id: str) -> object:
    """The connected account as Stripe has it now; `Unavailable` (nothing written, Stripe delivers the event
    again) when Stripe cannot be asked."""
    import stripe  # imported when used: see _stripe.py

    try:
        async with stripe_client() as client:
            return await client.v1.accounts.retrieve_async(account_id)
    except stripe.StripeError:
        logger.warning("Retrieving connected account %s failed", account_id[:80])
        raise Unavailable(UNREACHABLE) from None


async def _account_updated(session: AsyncSession, obj: dict[str, Any], event_id: str, at: datetime) -> str:
    row = await _account_row(session, _text(obj.get("id")))
    if row is None:
        return "unknown_account"
    before = connect_status(row)
    current = await _current_account(row.account_id)
    changed = apply_account_state(
        row,
        details_submitted=getattr(current, "details_submitted", None) is True,
        payouts_enabled=getattr(current, "payouts_enabled", None) is True,
        at=at,
    )
    await session.flush()
    if changed:
        await audit.record_by_stripe(
            session=session,
            action=AuditAction.payout_account_updated,
            target=f"provider {row.provider_id}",
            details={
                "event": event_id,
                "account_id": row.account_id,
                "from": before.value,
                "to": connect_status(row).value,
            },
        )
    return "account_updated"
