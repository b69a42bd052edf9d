"""The money ledger (`app.services.ledger`, issue 14) on SQLite and, with TEST_DATABASE_URL, PostgreSQL.

After every step `balanced()` sums every posting: all postings sum to zero, each kept balance equals the sum
of its account's postings, nothing but the world is below zero, and the SPEC's transaction rows agree with
the postings. Visits are booked through checkout (`hold_slot`, `place_order`) and moved along by the visit
lifecycle, at pinned moments (Monday 7 January 2030). Concurrency tests hold one unit of work open and wait
until the other is observably stuck behind it (`blocked_writers`), never for a fixed time.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.services.appointments import _lifecycle as visits
from app.services.booking import CheckoutLine, hold_slot, place_order
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.features import reset_feature, set_feature
from app.services.ledger import (
    REFUND_NEEDS_EXCEPTION,
    approve_payout,
    get_my_wallet,
    get_provider_balances,
    get_revenue_breakdown,
    get_revenue_summary,
    grant_wallet_credit,
    list_my_payouts,
    list_my_wallet_history,
    list_payout_queue,
    list_provider_statement,
    mark_payout_failed,
    mark_payout_paid,
    mark_payout_sent,
    refund_visit,
    reject_payout,
    request_payout,
)
from app.services.ledger._journal import WORLD, Leg, Unbalanced, move, post
from app.services.ledger._visits import proportional, split_fee
from app.services.ledger.internal import release_due_earnings
from app.settings import get_settings
from models.account import Role
from models.audit import AuditEntry
from models.booking import Appointment, Transaction, TransactionStatus, TransactionType
from models.catalog import ServiceLocation
from models.ledger import (
    PLATFORM_KINDS,
    AccountKind,
    EntryKind,
    JournalEntry,
    LedgerAccount,
    PayoutRequest,
    PayoutStatus,
    Posting,
    VisitCharge,
)
from models.notification import Notification, NotificationKind
from tests.factories import ZIP, Person, blocked_writers, person, provider, run
from tests.unit.test_booking import NINE, NOW

PRICE = Decimal("79.00")  # a routine blood draw
FEE = Decimal("3.95")
WEDNESDAY_NINE = NINE + timedelta(days=2)


@dataclass(frozen=True)
class World:
    patient: Person
    provider: Person
    provider_id: str
    owner: Person
    other_owner: Person
    manager: Person  # management: view_revenue, manage_appointments, not process_payments


async def build_world() -> World:
    nurse = await person(Role.provider, "Ada Nurse")
    return World(
        patient=await person(Role.patient, "Jordan Lee"),
        provider=nurse,
        provider_id=await provider("Ada Nurse", owner=nurse),
        owner=await person(Role.owner, "Olive Owner"),
        other_owner=await person(Role.owner, "Otto Owner"),
        manager=await person(Role.management, "Mia Manager"),
    )


@pytest.fixture
async def world(identity, monkeypatch, world_once) -> World:
    monkeypatch.setenv("EARNINGS_RELEASE_ENABLED", "0")
    get_settings.cache_clear()
    return await world_once(build_world)


def money(value: str | Decimal) -> Decimal:
    return Decimal(value).quantize(Decimal("0.01"))


async def book(world: World, starts_at=NINE, city: str = "New York") -> str:  # noqa: ANN001
    """One visit booked through checkout; returns its id."""
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=world.patient.actor,
            service_slug="routine-blood-draw",
            provider_id=world.provider_id,
            starts_at=starts_at,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
    line = CheckoutLine(
        hold_id=held.id, location="home", address_line="12 Main St", city=city, state="NY", zip_code=ZIP
    )
    order = await run(place_order, actor=world.patient.actor, lines=[line], now=NOW)
    return order.appointments[0].id


async def complete(world: World, visit_id: str, starts_at=NINE) -> None:  # noqa: ANN001
    actor = world.provider.actor
    await run(visits.confirm_appointment, actor=actor, appointment_id=visit_id, now=NOW)
    await run(visits.start_appointment, actor=actor, appointment_id=visit_id, now=starts_at)
    await run(
        visits.complete_appointment, actor=actor, appointment_id=visit_id, now=starts_at + timedelta(hours=1)
    )


async def balanced() -> dict[str, int]:
    """Check the ledger's invariants; returns every account's balance (cents) by id."""
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(func.coalesce(func.sum(Posting.amount), 0))) == 0
        entries = (
            await session.execute(
                select(Posting.entry_id, func.sum(Posting.amount)).group_by(Posting.entry_id)
            )
        ).all()
        assert all(total == 0 for _entry, total in entries)
        sums = dict(
            (
                await session.execute(
                    select(Posting.account_id, func.sum(Posting.amount)).group_by(Posting.account_id)
                )
            ).all()
        )
        kept = dict((await session.execute(select(LedgerAccount.id, LedgerAccount.balance))).all())
        for key, balance in kept.items():
            assert sums.get(key, 0) == balance, key
        platform = {kind.value for kind in PLATFORM_KINDS}
        for key, total in sums.items():
            assert total >= 0 or key == AccountKind.world.value, (key, total)
            assert key in kept or key in platform
        # The readable view agrees: settled bookings and fees are what was paid ahead at checkout and what
        # providers collected in person at pay-at-visit visits, refunds what patients' credit gained from
        # refunds (refunds to the card leave for the world instead), paid payouts what left for the world.
        collected = await session.scalar(
            select(func.coalesce(func.sum(VisitCharge.collected), 0)).where(VisitCharge.paid_ahead.is_(False))
        )
        # Wallet credit spent on a pay-at-visit visit settles its part of the rows when the visit is completed.
        collected += await session.scalar(
            select(func.coalesce(func.sum(VisitCharge.credit), 0)).where(
                VisitCharge.paid_ahead.is_(False), VisitCharge.completed_at.is_not(None)
            )
        )
        settled = await session.scalar(
            select(func.coalesce(func.sum(Transaction.amount), 0)).where(
                Transaction.type.in_((TransactionType.booking, TransactionType.fee)),
                Transaction.status == TransactionStatus.completed,
            )
        )
        paid_ahead = await session.scalar(
            select(func.coalesce(func.sum(VisitCharge.price + VisitCharge.fee), 0)).where(
                VisitCharge.paid_ahead
            )
        )
        assert money(settled) == money(Decimal(collected + paid_ahead) / 100)
        refunds = await session.scalar(
            select(func.coalesce(func.sum(Transaction.amount), 0)).where(
                Transaction.type == TransactionType.refund, Transaction.gateway != "stripe"
            )
        )
        credited = await session.scalar(
            select(func.coalesce(func.sum(Posting.amount), 0))
            .join(JournalEntry, JournalEntry.id == Posting.entry_id)
            .where(
                Posting.account_kind == AccountKind.patient_credit,
                Posting.amount > 0,
                JournalEntry.kind != EntryKind.credit_returned,  # spent credit given back, not a refund
            )
        )
        adjustments = await session.scalar(
            select(func.coalesce(func.sum(Transaction.amount), 0)).where(
                Transaction.type == TransactionType.adjustment
            )
        )
        assert money(refunds) + money(adjustments) == money(Decimal(credited) / 100)
        paid = await session.scalar(
            select(func.coalesce(func.sum(Transaction.amount), 0)).where(
                Transaction.type == TransactionType.payout, Transaction.status == TransactionStatus.completed
            )
        )
        out = await session.scalar(
            select(func.coalesce(func.sum(PayoutRequest.amount), 0)).where(
                PayoutRequest.status == PayoutStatus.paid
            )
        )
        assert money(paid) == money(Decimal(out) / 100)
    return {key: int(total) for key, total in sums.items()}


async def provider_balances(world: World) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    read = await run(get_provider_balances, actor=world.provider.actor)
    return read.pending, read.available, read.in_payout, read.paid_out


async def fund(world: World, amount: str) -> None:
    """Put `amount` in the provider's available balance directly (payout rules need no visits)."""
    async with app_db.unit_of_work() as session:
        await post(
            session=session,
            kind=EntryKind.earning_released,
            legs=move(int(Decimal(amount) * 100), WORLD, (AccountKind.provider_available, world.provider_id)),
        )


# ---- the journey -------------------------------------------------------------------------------
async def test_book_complete_release_and_a_two_approver_payout_balance_at_every_step(
    world, monkeypatch, paid_ahead
) -> None:
    """A visit paid ahead (card at checkout): pay at visit is tests/unit/test_pay_at_visit.py's."""
    monkeypatch.setenv("PAYOUT_SECOND_APPROVAL_ABOVE", "50")
    get_settings.cache_clear()
    visit_id = await book(world)
    booked = await balanced()
    assert booked[f"patient_booked:{world.patient.id}"] == 8295  # $79 + 5 % fee
    assert (await run(get_my_wallet, actor=world.patient.actor)).booked == money("82.95")

    await complete(world, visit_id)
    done = NINE + timedelta(hours=1)
    after = await balanced()
    assert after.get(f"patient_booked:{world.patient.id}", 0) == 0
    assert after["platform_fees"] == 395
    assert await provider_balances(world) == (PRICE, 0, 0, 0)

    assert await run(release_due_earnings, now=done + timedelta(hours=71, minutes=59)) == 0
    assert await run(release_due_earnings, now=done + timedelta(hours=72)) == 1
    assert await run(release_due_earnings, now=done + timedelta(hours=73)) == 0  # once only
    await balanced()
    assert await provider_balances(world) == (0, PRICE, 0, 0)
    statement = await run(list_provider_statement, actor=world.provider.actor)
    assert [(x.price, x.platform_fee, x.earning, x.released_at is not None) for x in statement.items] == [
        (PRICE, FEE, PRICE, True)
    ]

    payout = await run(request_payout, actor=world.provider.actor)
    assert (payout.amount, payout.status, payout.approvals_needed) == (PRICE, PayoutStatus.pending, 2)
    await balanced()
    assert await provider_balances(world) == (0, 0, PRICE, 0)
    queue, total = await run(list_payout_queue, actor=world.owner.actor)
    assert total == 1 and queue[0].provider_name == "Ada Nurse"

    first = await run(approve_payout, actor=world.owner.actor, payout_id=payout.id)
    assert first.status is PayoutStatus.pending and first.first_approver_id == world.owner.id
    with pytest.raises(ValidationFailed, match="second approver"):
        await run(approve_payout, actor=world.owner.actor, payout_id=payout.id)
    with pytest.raises(PermissionDenied):
        await run(approve_payout, actor=world.manager.actor, payout_id=payout.id)  # no process_payments
    second = await run(approve_payout, actor=world.other_owner.actor, payout_id=payout.id)
    assert second.status is PayoutStatus.approved and second.second_approver_id == world.other_owner.id
    await balanced()
    with pytest.raises(ValidationFailed, match="bank transfer's reference"):
        await run(mark_payout_sent, actor=world.owner.actor, payout_id=payout.id, reference="  ")
    with pytest.raises(ValidationFailed, match="under 65 characters"):
        await run(mark_payout_sent, actor=world.owner.actor, payout_id=payout.id, reference="X" * 65)
    sent = await run(
        mark_payout_sent, actor=world.owner.actor, payout_id=payout.id, reference=" ACH  20261203-0042 "
    )
    assert (sent.status, sent.transfer_reference) == (PayoutStatus.in_transit, "ACH 20261203-0042")
    [mine] = await run(list_my_payouts, actor=world.provider.actor)
    assert mine.transfer_reference == "ACH 20261203-0042"  # the provider sees it
    paid = await run(mark_payout_paid, actor=world.owner.actor, payout_id=payout.id)
    assert paid.status is PayoutStatus.paid
    final = await balanced()
    assert await provider_balances(world) == (0, 0, 0, PRICE)
    assert final["world"] == -395  # what came in (the visit), minus what went out (the payout)

    async with app_db.unit_of_work() as session:
        told = await session.scalar(
            select(func.count()).where(
                Notification.recipient_id == world.provider.id,
                Notification.kind == NotificationKind.payout_status,
            )
        )
        audited = (
            await session.scalars(select(AuditEntry.action).where(AuditEntry.action.like("payout_%")))
        ).all()
    assert told == 4  # received, approved, on its way, paid
    assert sorted(audited) == sorted(
        ["payout_requested", "payout_approved", "payout_approved", "payout_sent", "payout_paid"]
    )
    summary = await run(get_revenue_summary, actor=world.manager.actor, granularity="day")
    assert summary.totals.gross == money("82.95") and summary.totals.fees == FEE
    assert summary.totals.payouts == PRICE and summary.totals.net == FEE and summary.totals.refunds == 0


async def test_journal_refuses_unbalanced_entries_and_overdrafts(world) -> None:
    async with app_db.unit_of_work() as session:
        with pytest.raises(Unbalanced):
            await post(
                session=session,
                kind=EntryKind.credit_adjustment,
                legs=[
                    Leg(AccountKind.world, "", -100),
                    Leg(AccountKind.patient_credit, world.patient.id, 99),
                ],
            )
    with pytest.raises(ValidationFailed, match="not enough"):
        async with app_db.unit_of_work() as session:
            await post(
                session=session,
                kind=EntryKind.payout_requested,
                legs=move(
                    1,
                    (AccountKind.provider_available, world.provider_id),
                    (AccountKind.provider_payout, world.provider_id),
                ),
            )
    await balanced()


def test_fee_shares_add_up_and_refunds_split_in_proportion() -> None:
    rng = random.Random(14)
    for _ in range(200):
        prices = [(f"v{i}", rng.randint(1, 50_000)) for i in range(rng.randint(1, 6))]
        fee = (sum(p for _v, p in prices) * 5 + 50) // 100
        shares = split_fee(fee, prices)
        assert sum(shares.values()) == fee and all(s >= 0 for s in shares.values())
    assert proportional(8295, 7900, 395) == (7900, 395)
    earning, fee = proportional(4148, 7900, 395)
    assert (earning, fee) == (3950, 198) and earning + fee == 4148


# ---- refunds -----------------------------------------------------------------------------------
async def test_pay_at_visit_cancellation_voids_what_was_owed(world) -> None:
    visit_id = await book(world, WEDNESDAY_NINE)
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=NOW)
    after = await balanced()
    assert after.get(f"patient_booked:{world.patient.id}", 0) == 0
    wallet = await run(get_my_wallet, actor=world.patient.actor)
    assert (wallet.credit, wallet.booked) == (0, 0)
    async with app_db.unit_of_work() as session:
        statuses = (await session.scalars(select(Transaction.status))).all()
    assert set(statuses) == {TransactionStatus.cancelled}


async def test_paid_ahead_cancellation_outside_24_hours_lands_as_wallet_credit(world, paid_ahead) -> None:
    visit_id = await book(world, WEDNESDAY_NINE)
    await balanced()
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=NOW)
    await balanced()
    wallet = await run(get_my_wallet, actor=world.patient.actor)
    assert (wallet.credit, wallet.booked) == (money("82.95"), 0)
    history = await run(list_my_wallet_history, actor=world.patient.actor, kinds=[EntryKind.refund])
    assert [(x.amount, x.appointment_id) for x in history.items] == [(money("82.95"), visit_id)]
    assert (
        await run(list_my_wallet_history, actor=world.patient.actor, kinds=[EntryKind.payout_paid])
    ).total == 0


async def test_paid_ahead_cancellation_inside_24_hours_needs_a_staff_exception(world, paid_ahead) -> None:
    visit_id = await book(world)  # today at nine: inside the window
    with pytest.raises(ValidationFailed) as refused:
        await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=NOW)
    assert refused.value.message == REFUND_NEEDS_EXCEPTION
    with pytest.raises(PermissionDenied):  # management may cancel visits, not grant refunds
        await run(
            visits.cancel_appointment,
            actor=world.manager.actor,
            appointment_id=visit_id,
            refund_exception="Provider ill",
            now=NOW,
        )
    await run(
        visits.cancel_appointment,
        actor=world.owner.actor,
        appointment_id=visit_id,
        refund_exception="Provider ill",
        now=NOW,
    )
    await balanced()
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == money("82.95")
    async with app_db.unit_of_work() as session:
        entry = await session.scalar(select(AuditEntry).where(AuditEntry.action == "refund_exception"))
    assert entry.details["reason"] == "Provider ill" and entry.actor_id == world.owner.id


async def test_refund_after_completion_reverses_earning_and_fee_in_proportion(world, paid_ahead) -> None:
    visit_id = await book(world)
    await complete(world, visit_id)
    with pytest.raises(PermissionDenied):
        await run(refund_visit, actor=world.patient.actor, appointment_id=visit_id, reason="x")
    with pytest.raises(ValidationFailed, match="reason"):
        await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason=" ")
    half = await run(
        refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late", amount=Decimal("41.48")
    )
    assert half == money("41.48")
    after = await balanced()
    assert after[f"provider_pending:{world.provider_id}"] == 7900 - 3950
    assert after["platform_fees"] == 395 - 198
    # After the dispute window the rest of the earning is available, and the rest of the refund comes from it.
    assert await run(release_due_earnings, now=NINE + timedelta(hours=80)) == 1
    assert await provider_balances(world) == (0, money("39.50"), 0, 0)
    rest = await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late")
    assert rest == money("41.47")
    final = await balanced()
    assert final[f"provider_available:{world.provider_id}"] == 0 and final["platform_fees"] == 0
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == money("82.95")
    with pytest.raises(ValidationFailed, match="in full"):
        await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Late")
    summary = await run(get_revenue_summary, actor=world.owner.actor, granularity="month")
    assert (summary.totals.gross, summary.totals.refunds, summary.totals.net) == (
        money("82.95"),
        money("82.95"),
        0,
    )


# ---- payouts -----------------------------------------------------------------------------------
async def test_the_owners_set_the_second_approval_threshold_a_request_is_judged_by(world) -> None:
    await fund(world, "120")
    changed = await run(set_feature, actor=world.owner.actor, key="payout_second_approval_above", value="40")
    assert changed.value == "40.00"
    with pytest.raises(PermissionDenied):  # a business setting: owners (and admins) only
        await run(set_feature, actor=world.manager.actor, key="payout_second_approval_above", value="5000")
    first = await run(request_payout, actor=world.provider.actor, amount=Decimal("60"))
    assert first.approvals_needed == 2
    await run(reject_payout, actor=world.owner.actor, payout_id=first.id, reason="Wrong amount")
    await run(reset_feature, actor=world.owner.actor, key="payout_second_approval_above")
    again = await run(request_payout, actor=world.provider.actor, amount=Decimal("60"))
    assert again.approvals_needed == 1  # the server's $1,000 again


async def test_payout_minimum_one_open_request_rejection_and_failure_return_the_money(world) -> None:
    await fund(world, "49.99")
    with pytest.raises(ValidationFailed, match=r"smallest payout is \$50.00"):
        await run(request_payout, actor=world.provider.actor)
    await fund(world, "100.01")
    with pytest.raises(ValidationFailed, match="at most"):
        await run(request_payout, actor=world.provider.actor, amount=Decimal("200"))
    first = await run(request_payout, actor=world.provider.actor, amount=Decimal("60"))
    assert first.approvals_needed == 1
    with pytest.raises(ValidationFailed, match="already have a payout"):
        await run(request_payout, actor=world.provider.actor, amount=Decimal("50"))
    with pytest.raises(ValidationFailed, match="reason"):
        await run(reject_payout, actor=world.owner.actor, payout_id=first.id, reason="")
    with pytest.raises(PermissionDenied):
        await run(approve_payout, actor=world.provider.actor, payout_id=first.id)
    rejected = await run(
        reject_payout, actor=world.owner.actor, payout_id=first.id, reason="Bank details missing"
    )
    assert rejected.status is PayoutStatus.rejected
    await balanced()
    assert await provider_balances(world) == (0, money("150.00"), 0, 0)

    second = await run(request_payout, actor=world.provider.actor)
    assert second.amount == money("150.00")
    await run(approve_payout, actor=world.owner.actor, payout_id=second.id)
    with pytest.raises(ValidationFailed, match="approved; it cannot be marked paid"):
        await run(mark_payout_paid, actor=world.owner.actor, payout_id=second.id)
    await run(mark_payout_sent, actor=world.owner.actor, payout_id=second.id, reference="ACH 2")
    failed = await run(
        mark_payout_failed, actor=world.owner.actor, payout_id=second.id, reason="Account closed"
    )
    assert failed.status is PayoutStatus.failed
    await balanced()
    assert await provider_balances(world) == (0, money("150.00"), 0, 0)
    async with app_db.unit_of_work() as session:
        rows = (
            await session.execute(
                select(Transaction.amount, Transaction.status).where(Transaction.type == "payout")
            )
        ).all()
    assert sorted(rows) == [
        (money("60"), TransactionStatus.cancelled),
        (money("150"), TransactionStatus.failed),
    ]


async def test_goodwill_credit_is_staff_only_and_audited(world) -> None:
    with pytest.raises(PermissionDenied):
        await run(
            grant_wallet_credit,
            actor=world.manager.actor,
            patient_id=world.patient.id,
            amount=Decimal("5"),
            reason="Sorry",
        )
    credit = await run(
        grant_wallet_credit,
        actor=world.owner.actor,
        patient_id=world.patient.id,
        amount=Decimal("5"),
        reason="Sorry",
    )
    assert credit == money("5.00")
    await balanced()
    async with app_db.unit_of_work() as session:
        told = (
            await session.execute(
                select(Notification.title, Notification.body).where(
                    Notification.recipient_id == world.patient.id,
                    Notification.kind == NotificationKind.wallet_credit,
                )
            )
        ).all()
    assert told == [("$5.00 was added to your wallet", "Credit from our support team.")]  # once


# ---- concurrency -------------------------------------------------------------------------------
async def test_two_concurrent_payout_requests_cannot_overdraw(world) -> None:
    await fund(world, "80")

    async def second_request() -> str:
        try:
            await run(request_payout, actor=world.provider.actor, amount=Decimal("60"))
        except ValidationFailed as refused:
            return refused.message
        return "granted"

    async with app_db.unit_of_work() as session:
        first = await request_payout(session=session, actor=world.provider.actor, amount=Decimal("60"))
        async with blocked_writers("ledger_accounts") as blocked:
            racing = asyncio.create_task(second_request())
            await blocked(1)
        assert not racing.done()
    outcome = await racing
    assert outcome != "granted"
    await balanced()
    assert await provider_balances(world) == (0, money("20.00"), money("60.00"), 0)
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(func.count()).select_from(PayoutRequest)) == 1
        assert (await session.get(PayoutRequest, first.id)).status is PayoutStatus.pending


async def test_two_concurrent_approvers_of_one_large_payout_take_turns(world, monkeypatch) -> None:
    monkeypatch.setenv("PAYOUT_SECOND_APPROVAL_ABOVE", "50")
    get_settings.cache_clear()
    await fund(world, "100")
    payout = await run(request_payout, actor=world.provider.actor)

    async with app_db.unit_of_work() as session:
        first = await approve_payout(session=session, actor=world.owner.actor, payout_id=payout.id)
        assert first.status is PayoutStatus.pending
        async with blocked_writers("payout_requests") as blocked:
            racing = asyncio.create_task(
                run(approve_payout, actor=world.other_owner.actor, payout_id=payout.id)
            )
            await blocked(1)
        assert not racing.done()
    second = await racing
    assert second.status is PayoutStatus.approved
    assert (second.first_approver_id, second.second_approver_id) == (world.owner.id, world.other_owner.id)


async def test_two_concurrent_release_runs_release_each_earning_once(world, paid_ahead) -> None:
    visit_id = await book(world)
    await complete(world, visit_id)
    later = NINE + timedelta(hours=80)
    async with app_db.unit_of_work() as session:
        assert await release_due_earnings(session=session, now=later) == 1
        async with blocked_writers("ledger_visit_charges") as blocked:
            racing = asyncio.create_task(run(release_due_earnings, now=later))
            await blocked(1)
        assert not racing.done()
    assert await racing == 0
    await balanced()
    assert await provider_balances(world) == (0, PRICE, 0, 0)


# ---- revenue -----------------------------------------------------------------------------------
async def test_revenue_summary_reconciles_with_the_ledger_on_generated_data(world, paid_ahead) -> None:
    """Random visits over three weeks (completed, refunded in part, paid out), summed by day, week and
    month: every granularity's totals equal the ledger's own accounts."""
    rng = random.Random(7)
    starts = [NINE + timedelta(days=day) for day in (0, 1, 2, 3, 7, 8, 14, 15)]
    for index, start in enumerate(starts):
        visit_id = await book(world, start, city="Brooklyn" if index % 2 else "New York")
        await complete(world, visit_id, start)
        if index % 3 == 1:
            amount = Decimal(rng.randint(100, 8000)) / 100
            await run(
                refund_visit,
                actor=world.owner.actor,
                appointment_id=visit_id,
                reason="Dispute",
                amount=amount,
                now=start + timedelta(hours=2),
            )
    await run(release_due_earnings, now=starts[-1] + timedelta(days=4))
    at = starts[-1] + timedelta(days=5)
    payout = await run(request_payout, actor=world.provider.actor, amount=Decimal("100"), now=at)
    await run(approve_payout, actor=world.owner.actor, payout_id=payout.id, now=at)
    await run(mark_payout_sent, actor=world.owner.actor, payout_id=payout.id, reference="ACH 3", now=at)
    await run(mark_payout_paid, actor=world.owner.actor, payout_id=payout.id, now=at)
    ledger = await balanced()
    async with app_db.unit_of_work() as session:
        gross = await session.scalar(
            select(func.sum(VisitCharge.price + VisitCharge.fee)).where(VisitCharge.completed_at.is_not(None))
        )
        fees = await session.scalar(
            select(func.sum(VisitCharge.fee)).where(VisitCharge.completed_at.is_not(None))
        )
        refunded = await session.scalar(
            select(func.sum(VisitCharge.refunded_earning + VisitCharge.refunded_fee))
        )
    for granularity in ("day", "week", "month"):
        summary = await run(get_revenue_summary, actor=world.manager.actor, granularity=granularity)
        totals = summary.totals
        assert totals.gross == Decimal(gross) / 100
        assert totals.fees == Decimal(fees) / 100
        assert totals.refunds == Decimal(refunded) / 100
        assert totals.net == Decimal(ledger["platform_fees"]) / 100
        assert totals.payouts == money("100")
        assert sum(r.gross for r in summary.rows) == totals.gross
    days = await run(get_revenue_summary, actor=world.manager.actor, granularity="day")
    weeks = await run(get_revenue_summary, actor=world.manager.actor, granularity="week")
    months = await run(get_revenue_summary, actor=world.manager.actor, granularity="month")
    assert len(days.rows) >= len(starts) and [r.period.isoformat() for r in weeks.rows][:3] == [
        "2030-01-07",
        "2030-01-14",
        "2030-01-21",
    ]
    assert [r.period.isoformat() for r in months.rows] == ["2030-01-01"]
    with pytest.raises(PermissionDenied):
        await run(get_revenue_summary, actor=world.provider.actor)

    # Split by service line and by metro, the groups add up to the same totals (payouts are not split).
    totals = months.totals
    for split, labels in (
        ("service_line", {"Mobile Phlebotomy"}),
        ("metro", {"New York, NY", "Brooklyn, NY"}),
    ):
        breakdown = await run(get_revenue_breakdown, actor=world.manager.actor, split=split)
        assert {g.label for g in breakdown.groups} == labels
        assert [g.gross for g in breakdown.groups] == sorted(
            (g.gross for g in breakdown.groups), reverse=True
        )
        for figure in ("gross", "fees", "refunds", "net"):
            assert sum(getattr(g, figure) for g in breakdown.groups) == getattr(totals, figure), figure
            assert getattr(breakdown.totals, figure) == getattr(totals, figure)
    brooklyn = next(
        g
        for g in (await run(get_revenue_breakdown, actor=world.manager.actor, split="metro")).groups
        if g.label == "Brooklyn, NY"
    )
    async with app_db.unit_of_work() as session:
        from_brooklyn = await session.scalar(
            select(func.sum(VisitCharge.price + VisitCharge.fee))
            .join(Appointment, Appointment.id == VisitCharge.appointment_id)
            .where(Appointment.city == "Brooklyn", VisitCharge.completed_at.is_not(None))
        )
    assert brooklyn.gross == Decimal(from_brooklyn) / 100
    with pytest.raises(ValidationFailed):
        await run(get_revenue_breakdown, actor=world.manager.actor, split="planet")
    with pytest.raises(PermissionDenied):
        await run(get_revenue_breakdown, actor=world.provider.actor)
