"""Stripe Connect for provider payouts (issue 29, item 2; only when PAYMENT_GATEWAY=stripe).

- **Onboarding** (`start_payout_onboarding`, the provider wallet's "Set up payouts with Stripe"): the
  provider's Stripe Express account is created once (`stripe.Account.create`: type express, the `transfers`
  capability, their e-mail, metadata provider_id; the idempotency key is the provider's id, so two first
  clicks get one account, and the row is written once), then an Account Link (type account_onboarding) whose
  address the browser goes to. Stripe sends the provider back to the wallet (`?payouts=return`: its status
  is read from Stripe then, `get_my_payout_account(refresh=True)`), or to `?payouts=refresh` when the link
  expired (the wallet offers a new one).
- **Status** (`ConnectStatus`): not set up, onboarding incomplete, payouts enabled; kept by `account.updated`
  (`_connect_webhook`).
- **Transfers** (`transfer_payout`, for the ledger): an approved payout of a provider whose account has
  payouts enabled is sent as a `stripe.Transfer` to that account, in cents, with the payout's id as
  idempotency key and metadata; Stripe refusing it raises `Unavailable` with a message for staff.
Without Stripe none of this is offered: payouts are bank transfers that staff record with their reference.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, Unavailable, ValidationFailed
from app.services.payments._stripe import CURRENCY, NAME, stripe_client
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.connect import ConnectAccount, ConnectStatus, PayoutAccountRead, connect_status
from models.provider import Provider

logger = logging.getLogger(__name__)

WALLET_PATH = "/dashboard/provider-wallet"
NO_PROFILE = "Payouts are set up for a provider profile; this account has none yet."
NOT_STRIPE = "Payouts are paid by bank transfer on this site: there is nothing to set up."
ALREADY_ENABLED = "Your payouts are already set up with Stripe."
UNREACHABLE = "Stripe could not be reached to set up your payouts. Please try again in a moment."
TRANSFER_REFUSED = (
    "Stripe did not make the transfer ({detail}). The payout stays approved: send it again, or reject it."
)


def stripe_payouts() -> bool:
    """Whether payouts go through Stripe Connect on this site (PAYMENT_GATEWAY=stripe)."""
    return get_settings().payment_gateway == NAME


async def _own_provider(session: AsyncSession, actor: Principal) -> tuple[AccountRead, Provider]:
    account = await require_account(session=session, actor=actor)
    provider = await session.scalar(select(Provider).where(Provider.user_id == account.id))
    if provider is None:
        raise NotFound(NO_PROFILE)
    return account, provider


def _read(row: ConnectAccount | None) -> PayoutAccountRead:
    if not stripe_payouts():
        return PayoutAccountRead(status=ConnectStatus.unavailable)
    return PayoutAccountRead(
        status=connect_status(row),
        details_submitted=bool(row and row.details_submitted),
        payouts_enabled=bool(row and row.payouts_enabled),
    )


async def _row(session: AsyncSession, provider_id: str) -> ConnectAccount | None:
    return await session.scalar(
        select(ConnectAccount)
        .where(ConnectAccount.provider_id == provider_id)
        .execution_options(populate_existing=True)
    )


async def get_my_payout_account(
    *, session: AsyncSession, actor: Principal, refresh: bool = False
) -> PayoutAccountRead:
    """The signed-in provider's payout account status. `refresh`: ask Stripe first (the provider is back
    from onboarding, possibly before its account.updated event)."""
    _account, provider = await _own_provider(session, actor)
    row = await _row(session, provider.id) if stripe_payouts() else None
    if refresh and row is not None and not row.payouts_enabled:
        try:
            async with stripe_client() as client:
                found = await client.v1.accounts.retrieve_async(row.account_id)
        except Exception as error:  # noqa: BLE001 - the status as stored is still right to show
            logger.info("Reading connected account %s: %s", row.account_id[:80], error)
        else:
            apply_account_state(
                row,
                details_submitted=bool(getattr(found, "details_submitted", False)),
                payouts_enabled=bool(getattr(found, "payouts_enabled", False)),
                at=utcnow(),
            )
            await session.flush()
    return _read(row)


def apply_account_state(
    row: ConnectAccount, *, details_submitted: bool, payouts_enabled: bool, at: datetime
) -> bool:
    """Store what Stripe says of the account; whether its status changed."""
    before = (row.details_submitted, row.payouts_enabled)
    row.details_submitted, row.payouts_enabled = details_submitted, payouts_enabled
    if before != (details_submitted, payouts_enabled):
        row.updated_at = at
        return True
    return False


def _insert(session: AsyncSession) -> postgresql.Insert | sqlite.Insert:
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(ConnectAccount)
    return sqlite.insert(ConnectAccount)


async def start_payout_onboarding(*, session: AsyncSession, actor: Principal) -> str:
    """Create the provider's Express account (the first time) and an onboarding link; returns the address
    the browser goes to (Stripe's hosted onboarding)."""
    import stripe  # imported when used: see _stripe.py

    if not stripe_payouts():
        raise ValidationFailed(NOT_STRIPE)
    account, provider = await _own_provider(session, actor)
    row = await _row(session, provider.id)
    if row is not None and row.payouts_enabled:
        raise ValidationFailed(ALREADY_ENABLED)
    wallet = f"{get_settings().site_url.rstrip('/')}{WALLET_PATH}"
    at = utcnow()
    try:
        async with stripe_client() as client:
            if row is None:
                created = await client.v1.accounts.create_async(
                    params={
                        "type": "express",
                        "email": account.email or "",
                        "capabilities": {"transfers": {"requested": True}},
                        "metadata": {"provider_id": provider.id},
                    },
                    options={"idempotency_key": f"medivisit-connect-{provider.id}"},
                )
                await session.execute(
                    _insert(session)
                    .values(
                        provider_id=provider.id,
                        account_id=created.id,
                        details_submitted=bool(getattr(created, "details_submitted", False)),
                        payouts_enabled=bool(getattr(created, "payouts_enabled", False)),
                        created_at=at,
                        updated_at=at,
                    )
                    .on_conflict_do_nothing(index_elements=[ConnectAccount.provider_id])
                )
                row = await _row(session, provider.id)
                assert row is not None
                await audit.record_by(
                    session=session,
                    account=account,
                    actor=actor,
                    action=AuditAction.payout_account_created,
                    target=f"provider {provider.id}",
                    details={"account_id": row.account_id},
                )
            link = await client.v1.account_links.create_async(
                params={
                    "account": row.account_id,
                    "type": "account_onboarding",
                    "refresh_url": f"{wallet}?payouts=refresh",
                    "return_url": f"{wallet}?payouts=return",
                }
            )
    except stripe.StripeError as error:
        logger.warning("Stripe Connect onboarding for provider %s: %s", provider.id, error)
        raise Unavailable(UNREACHABLE) from None
    return str(link.url)


# ---- for the ledger (payments.internal) ----------------------------------------------------------------
async def payout_account_of(session: AsyncSession, provider_id: str) -> str | None:
    """The connected account approved payouts of this provider are transferred to: Stripe is the gateway
    and the account has payouts enabled (else None: a bank transfer recorded by staff)."""
    if not stripe_payouts():
        return None
    return await session.scalar(
        select(ConnectAccount.account_id).where(
            ConnectAccount.provider_id == provider_id, ConnectAccount.payouts_enabled.is_(True)
        )
    )


async def payout_accounts_of(session: AsyncSession, provider_ids: set[str]) -> set[str]:
    """Which of these providers are paid by transfer (`payout_account_of`, for many)."""
    if not stripe_payouts() or not provider_ids:
        return set()
    found = await session.scalars(
        select(ConnectAccount.provider_id).where(
            ConnectAccount.provider_id.in_(provider_ids), ConnectAccount.payouts_enabled.is_(True)
        )
    )
    return set(found)


async def transfer_payout(*, account_id: str, payout_id: str, amount_cents: int) -> str:
    """Transfer an approved payout to the provider's connected account; its Stripe transfer id. The
    payout's id is the idempotency key: sending it again (after a commit that failed) is the same transfer.
    Raises `Unavailable` with a message for staff when Stripe refuses or cannot be reached."""
    import stripe  # imported when used: see _stripe.py

    try:
        async with stripe_client() as client:
            transfer = await client.v1.transfers.create_async(
                params={
                    "amount": amount_cents,
                    "currency": CURRENCY,
                    "destination": account_id,
                    "metadata": {"payout_id": payout_id},
                    "description": f"{get_settings().brand_name} payout",
                },
                options={"idempotency_key": f"medivisit-payout-{payout_id}"},
            )
    except stripe.StripeError as error:
        detail = (error.user_message or str(error) or type(error).__name__).strip()[:200]
        logger.warning("Transfer of payout %s to %s failed: %s", payout_id, account_id[:80], detail)
        raise Unavailable(TRANSFER_REFUSED.format(detail=detail), code="transfer_failed") from None
    return str(transfer.id)
