"""Stripe Connect payouts (issue 29, item 2; app/services/payments/_connect*, app/services/ledger/
_payout_transfers) on SQLite and, with TEST_DATABASE_URL, PostgreSQL: a provider sets up payouts from their
wallet (one Express account, an onboarding link each time), `account.updated` keeps its status, an approved
payout of a provider with payouts enabled goes out as a Stripe transfer (not "Mark sent"), and the
connected account's `payout.paid` / `payout.failed` / `transfer.reversed` end it, a failure putting the money
back in the provider's available balance. Stripe's answers come from tests/stripe_standin.py; webhook
events are signed with the SDK's own helper. Every test ends with the ledger's invariants checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.errors import NotFound, Unavailable, ValidationFailed
from app.services.ledger import (
    approve_payout,
    list_my_payouts,
    list_payout_queue,
    mark_payout_sent,
    request_payout,
    send_payout_transfer,
)
from app.services.ledger.internal import check_ledger
from app.services.payments import get_my_payout_account, handle_stripe_webhook, start_payout_onboarding
from app.settings import get_settings
from models.audit import AuditEntry
from models.connect import ConnectAccount, ConnectStatus
from models.ledger import PayoutRequest, PayoutStatus
from tests import stripe_standin
from tests.factories import run
from tests.unit import test_ledger
from tests.unit.test_ledger import World, balanced, fund, provider_balances

world = test_ledger.world  # a patient, a provider (Ada Nurse), two owners and a manager


@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


@pytest.fixture
def stripe_on(world: World, monkeypatch, standin) -> World:  # noqa: ANN001
    stripe_standin.configure_gateway(monkeypatch, standin)
    return world


async def deliver(kind: str, obj: dict, *, account: str | None = None, event_id: str | None = None) -> str:
    """A signed webhook delivery of `kind` (a connected account's event when `account`); its result."""
    envelope = stripe_standin.event(kind, obj, event_id)
    if account:
        envelope["account"] = account
    body, header = stripe_standin.signed(envelope)
    outcome = await run(handle_stripe_webhook, payload=body, signature=header)
    return outcome.result


async def onboarded(world: World, standin: stripe_standin.StripeStandIn, *, enabled: bool = True) -> str:
    """The provider set up payouts, and Stripe said so (account.updated); the connected account's id."""
    await run(start_payout_onboarding, actor=world.provider.actor)
    async with app_db.unit_of_work() as session:
        account_id = await session.scalar(select(ConnectAccount.account_id))
    assert await deliver("account.updated", standin.enable_payouts(account_id, enabled)) == "account_updated"
    return account_id


async def ledger_holds() -> None:
    await balanced()
    found = await run(check_ledger)
    assert not found.breaks, found.breaks


async def test_onboarding_creates_one_express_account_and_a_link_each_time(stripe_on, standin) -> None:
    world = stripe_on
    mine = await run(get_my_payout_account, actor=world.provider.actor)
    assert mine.status is ConnectStatus.not_set_up
    first = await run(start_payout_onboarding, actor=world.provider.actor)
    again = await run(start_payout_onboarding, actor=world.provider.actor)  # "Continue setup"
    [created] = standin.calls("POST", "/v1/accounts")
    assert created.params["type"] == "express"
    assert created.params["capabilities[transfers][requested]"] == "true"
    assert created.params["metadata[provider_id]"] == world.provider_id
    assert created.params["email"] == world.provider.email
    assert created.idempotency_key == f"medivisit-connect-{world.provider_id}"
    links = standin.calls("POST", "/v1/account_links")
    assert [link.params["type"] for link in links] == ["account_onboarding"] * 2
    wallet = f"{get_settings().site_url}/dashboard/provider-wallet"
    assert links[0].params["return_url"] == f"{wallet}?payouts=return"
    assert links[0].params["refresh_url"] == f"{wallet}?payouts=refresh"
    assert first.startswith("https://connect.stripe.com/setup/") and again != first
    assert (await run(get_my_payout_account, actor=world.provider.actor)).status is ConnectStatus.incomplete
    # Back from Stripe before its webhook: the wallet asks Stripe (GET /v1/accounts/{id}).
    async with app_db.unit_of_work() as session:
        account_id = await session.scalar(select(ConnectAccount.account_id))
    standin.enable_payouts(account_id)
    back = await run(get_my_payout_account, actor=world.provider.actor, refresh=True)
    assert (back.status, back.payouts_enabled) == (ConnectStatus.enabled, True)
    assert standin.calls("GET", f"/v1/accounts/{account_id}")
    with pytest.raises(ValidationFailed, match="already set up"):
        await run(start_payout_onboarding, actor=world.provider.actor)
    with pytest.raises(NotFound):  # a patient has no provider profile
        await run(start_payout_onboarding, actor=world.patient.actor)


async def test_without_stripe_nothing_is_offered(world: World, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("PAYMENT_GATEWAY", "pay_at_visit")
    get_settings.cache_clear()
    assert (await run(get_my_payout_account, actor=world.provider.actor)).status is ConnectStatus.unavailable
    with pytest.raises(ValidationFailed, match="bank transfer"):
        await run(start_payout_onboarding, actor=world.provider.actor)


async def test_account_updated_keeps_the_status_once(stripe_on, standin) -> None:
    world = stripe_on
    await run(start_payout_onboarding, actor=world.provider.actor)
    async with app_db.unit_of_work() as session:
        account_id = await session.scalar(select(ConnectAccount.account_id))
    standin.accounts[account_id]["details_submitted"] = True
    submitted = dict(standin.accounts[account_id])
    assert await deliver("account.updated", submitted, event_id="evt_acct_1") == "account_updated"
    assert (await run(get_my_payout_account, actor=world.provider.actor)).details_submitted
    enabled = standin.enable_payouts(account_id)
    assert await deliver("account.updated", enabled, event_id="evt_acct_2") == "account_updated"
    assert await deliver("account.updated", enabled, event_id="evt_acct_2") == "duplicate"
    assert (await run(get_my_payout_account, actor=world.provider.actor)).status is ConnectStatus.enabled
    # Stripe does not deliver in order: the first event's copy, delivered again late under another id, is
    # not what the account is now (it is read back from Stripe), so payouts stay enabled.
    stale = {**submitted, "payouts_enabled": False}
    assert await deliver("account.updated", stale, event_id="evt_acct_1_late") == "account_updated"
    assert (await run(get_my_payout_account, actor=world.provider.actor)).status is ConnectStatus.enabled
    assert await deliver("account.updated", {"id": "acct_someone_else"}) == "unknown_account"
    async with app_db.unit_of_work() as session:
        changes = (
            await session.scalars(
                select(AuditEntry.details).where(AuditEntry.action == "payout_account_updated")
            )
        ).all()
    assert [(c["from"], c["to"]) for c in changes] == [
        ("incomplete", "incomplete"),
        ("incomplete", "enabled"),
    ]


async def test_an_approved_payout_goes_by_transfer_and_payout_paid_ends_it(stripe_on, standin) -> None:
    world = stripe_on
    account_id = await onboarded(world, standin)
    await fund(world, "1200.00")  # above the $1,000 threshold: two approvers
    payout = await run(request_payout, actor=world.provider.actor)
    first = await run(approve_payout, actor=world.owner.actor, payout_id=payout.id)
    assert first.status is PayoutStatus.pending and not standin.calls("POST", "/v1/transfers")
    sent = await run(approve_payout, actor=world.other_owner.actor, payout_id=payout.id)
    [transfer] = standin.calls("POST", "/v1/transfers")
    assert transfer.params == {
        "amount": "120000",
        "currency": "usd",
        "destination": account_id,
        "metadata[payout_id]": payout.id,
        "description": "MediVisit payout",
    }
    assert transfer.idempotency_key == f"medivisit-payout-{payout.id}"
    assert (sent.status, sent.by_transfer, sent.notice) == (PayoutStatus.in_transit, True, "")
    assert sent.transfer_reference.startswith("tr_")
    [mine] = await run(list_my_payouts, actor=world.provider.actor)
    assert mine.transfer_reference == sent.transfer_reference
    assert await provider_balances(world) == (0, 0, Decimal("1200.00"), 0)
    queue, _total = await run(list_payout_queue, actor=world.owner.actor)
    assert [p.by_transfer for p in queue] == [True]
    platform = {"id": "po_1", "object": "payout", "amount": 120000}  # the platform's own (no `account`)
    assert await deliver("payout.paid", platform) == "unknown_account"
    async with app_db.unit_of_work() as session:
        assert (await session.get(PayoutRequest, payout.id)).status is PayoutStatus.in_transit
    paid = {"id": "po_2", "object": "payout", "amount": 120000, "status": "paid"}
    assert await deliver("payout.paid", paid, account=account_id, event_id="evt_po_2") == "payout_paid"
    assert await deliver("payout.paid", paid, account=account_id, event_id="evt_po_2") == "duplicate"
    [mine] = await run(list_my_payouts, actor=world.provider.actor)
    assert mine.status is PayoutStatus.paid
    assert await provider_balances(world) == (0, 0, 0, Decimal("1200.00"))
    await ledger_holds()


@pytest.mark.parametrize("ending", ["payout.failed", "transfer.reversed"])
async def test_a_failed_payout_returns_the_money_to_available(stripe_on, standin, ending: str) -> None:
    world = stripe_on
    account_id = await onboarded(world, standin)
    await fund(world, "80.00")
    payout = await run(request_payout, actor=world.provider.actor)
    sent = await run(approve_payout, actor=world.owner.actor, payout_id=payout.id)
    assert sent.status is PayoutStatus.in_transit
    if ending == "payout.failed":
        failed = {
            "id": "po_9",
            "object": "payout",
            "amount": 8000,
            "failure_message": "The bank account is closed.",
        }
        assert await deliver(ending, failed, account=account_id) == "payout_failed"
        reason = "The bank account is closed."
    else:
        reversed_ = {
            "id": sent.transfer_reference,
            "object": "transfer",
            "amount": 8000,
            "amount_reversed": 8000,
            "reversed": True,
            "destination": account_id,
            "metadata": {"payout_id": payout.id},
        }
        assert await deliver(ending, reversed_) == "payout_failed"
        reason = "The transfer to your Stripe account was reversed."
    [mine] = await run(list_my_payouts, actor=world.provider.actor)
    assert (mine.status, mine.reason) == (PayoutStatus.failed, reason)
    assert await provider_balances(world) == (0, Decimal("80.00"), 0, 0)
    await ledger_holds()


async def test_a_transfer_stripe_refuses_leaves_the_payout_approved(stripe_on, standin) -> None:
    world = stripe_on
    await onboarded(world, standin)
    await fund(world, "80.00")
    payout = await run(request_payout, actor=world.provider.actor)
    standin.transfer_error = "Your platform's balance is too low for this transfer."
    approved = await run(approve_payout, actor=world.owner.actor, payout_id=payout.id)
    assert approved.status is PayoutStatus.approved and approved.by_transfer
    assert "balance is too low" in approved.notice and "stays approved" in approved.notice
    async with app_db.unit_of_work() as session:
        row = await session.get(PayoutRequest, payout.id)
        assert (row.status, row.transfer_id, row.transfer_reference) == (PayoutStatus.approved, None, "")
    with pytest.raises(Unavailable, match="stays approved"):
        await run(send_payout_transfer, actor=world.owner.actor, payout_id=payout.id)
    with pytest.raises(ValidationFailed, match="Send transfer"):  # a Stripe payout is not sent by hand
        await run(mark_payout_sent, actor=world.owner.actor, payout_id=payout.id, reference="ACH 1")
    assert await provider_balances(world) == (0, 0, Decimal("80.00"), 0)
    standin.transfer_error = ""
    sent = await run(send_payout_transfer, actor=world.owner.actor, payout_id=payout.id)
    assert sent.status is PayoutStatus.in_transit and sent.transfer_reference.startswith("tr_")
    keys = {r.idempotency_key for r in standin.calls("POST", "/v1/transfers")}
    assert keys == {f"medivisit-payout-{payout.id}"}
    await ledger_holds()


async def test_without_payouts_enabled_staff_send_by_bank_as_before(stripe_on, standin) -> None:
    world = stripe_on
    await onboarded(world, standin, enabled=False)  # onboarding not finished
    await fund(world, "80.00")
    payout = await run(request_payout, actor=world.provider.actor)
    approved = await run(approve_payout, actor=world.owner.actor, payout_id=payout.id)
    assert (approved.status, approved.by_transfer) == (PayoutStatus.approved, False)
    assert not standin.calls("POST", "/v1/transfers")
    with pytest.raises(ValidationFailed, match="Mark sent"):
        await run(send_payout_transfer, actor=world.owner.actor, payout_id=payout.id)
    sent = await run(mark_payout_sent, actor=world.owner.actor, payout_id=payout.id, reference="ACH 42")
    assert (sent.status, sent.transfer_reference) == (PayoutStatus.in_transit, "ACH 42")
    await ledger_holds()
