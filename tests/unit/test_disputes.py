"""Visit disputes (app.services.disputes, issue 29 item 3) on SQLite and, with TEST_DATABASE_URL, PostgreSQL.

Visits are booked and completed through the real checkout and lifecycle (test_ledger's world, paid ahead),
at pinned moments; after each step the ledger's own check (`check_ledger`) must hold.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from app import db as app_db
from app.principal import SYSTEM
from app.services.accounts import delete_due_accounts, request_account_deletion
from app.services.disputes import (
    get_visit_dispute,
    list_dispute_queue,
    report_visit_problem,
    resolve_dispute,
)
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.ledger import get_my_wallet, get_provider_balances
from app.services.ledger.internal import check_ledger, release_due_earnings
from models.audit import AuditEntry
from models.dispute import Dispute, DisputeRead, DisputeStatus
from models.notification import Notification
from tests.factories import blocked_writers, run
from tests.unit import test_ledger
from tests.unit.test_booking import NINE
from tests.unit.test_ledger import PRICE, World, book, complete, money

world = test_ledger.world  # a patient, a provider (Ada Nurse), owners and a manager without process_payments
DONE = NINE + timedelta(hours=1)  # when `complete` completes the visit
SOON = DONE + timedelta(hours=2)
LATER = DONE + timedelta(hours=73)  # the 72-hour window is over
DETAILS = "The nurse arrived 50 minutes late and left before the second tube was drawn."


async def holds() -> None:
    checked = await run(check_ledger)
    assert checked.holds, checked.breaks


async def completed_visit(world: World) -> str:
    visit_id = await book(world)
    await complete(world, visit_id)
    return visit_id


async def report(world: World, visit_id: str, **changes: object) -> DisputeRead:
    fields: dict[str, object] = {"reason": "cut_short", "details": DETAILS, "now": SOON, **changes}
    return await run(report_visit_problem, actor=world.patient.actor, appointment_id=visit_id, **fields)


async def pending_available(world: World) -> tuple[Decimal, Decimal]:
    read = await run(get_provider_balances, actor=world.provider.actor)
    return read.pending, read.available


async def notices(user_id: str) -> list[tuple[str, str]]:
    async with app_db.unit_of_work() as session:
        rows = (
            await session.scalars(
                select(Notification)
                .where(Notification.recipient_id == user_id)
                .order_by(Notification.created_at, Notification.title)
            )
        ).all()
        return [(n.title, n.body) for n in rows]


async def test_only_the_patient_reports_once_and_only_inside_the_window(world, paid_ahead) -> None:
    visit_id = await completed_visit(world)
    seen = await run(get_visit_dispute, actor=world.patient.actor, appointment_id=visit_id, now=SOON)
    assert seen.can_report and seen.dispute is None and seen.window_ends_at == DONE + timedelta(hours=72)

    for someone in (world.provider, world.owner):
        with pytest.raises(PermissionDenied, match="Only the patient of this visit"):
            await run(
                report_visit_problem,
                actor=someone.actor,
                appointment_id=visit_id,
                reason="no_show",
                details=DETAILS,
                now=SOON,
            )
    with pytest.raises(ValidationFailed, match="Choose what went wrong"):
        await report(world, visit_id, reason="angry")
    with pytest.raises(ValidationFailed, match="tell us what happened"):
        await report(world, visit_id, details="   ")
    with pytest.raises(ValidationFailed, match="2,000 characters"):
        await report(world, visit_id, details="x" * 2001)
    with pytest.raises(ValidationFailed, match="within 72 hours"):
        await report(world, visit_id, now=LATER)

    opened = await report(world, visit_id)
    assert opened.status is DisputeStatus.open and opened.reason_label == "The visit was cut short or late"
    with pytest.raises(ValidationFailed, match="already reported a problem"):
        await report(world, visit_id, reason="other")
    seen = await run(get_visit_dispute, actor=world.patient.actor, appointment_id=visit_id, now=SOON)
    assert not seen.can_report and seen.dispute is not None and seen.dispute.id == opened.id
    async with app_db.unit_of_work() as session:
        audited = await session.scalar(
            select(AuditEntry).where(AuditEntry.action == "dispute_opened", AuditEntry.target == visit_id)
        )
        assert audited is not None and audited.actor_id == world.patient.id
    await holds()

    # Once the window has passed (and the earning is released), nothing more can be reported.
    other = await book(world, starts_at=test_ledger.WEDNESDAY_NINE)
    with pytest.raises(ValidationFailed, match="once the visit is completed"):
        await report(world, other)
    await complete(world, other, starts_at=test_ledger.WEDNESDAY_NINE)
    assert await run(release_due_earnings, now=test_ledger.WEDNESDAY_NINE + timedelta(hours=80)) == 1
    with pytest.raises(ValidationFailed, match="already been settled"):
        await report(world, other, now=test_ledger.WEDNESDAY_NINE + timedelta(hours=2))
    await holds()


async def test_the_release_waits_for_an_open_dispute_and_follows_a_rejection(world, paid_ahead) -> None:
    visit_id = await completed_visit(world)
    opened = await report(world, visit_id)
    assert await run(release_due_earnings, now=LATER) == 0
    assert await pending_available(world) == (PRICE, 0)
    await holds()

    for someone in (world.manager, world.patient, world.provider):  # no process_payments
        with pytest.raises(PermissionDenied):
            await run(resolve_dispute, actor=someone.actor, dispute_id=opened.id, outcome="reject", note="No")
    with pytest.raises(PermissionDenied):
        await run(list_dispute_queue, actor=world.manager.actor)
    with pytest.raises(ValidationFailed, match="note for the patient"):
        await run(resolve_dispute, actor=world.owner.actor, dispute_id=opened.id, outcome="reject")

    queue = await run(list_dispute_queue, actor=world.owner.actor)
    assert [item.dispute.id for item in queue.items] == [opened.id] and queue.total == 1
    assert queue.items[0].patient_name == "Jordan Lee" and queue.items[0].refundable == money("82.95")
    note = "The provider's visit log shows the full visit."
    rejected = await run(
        resolve_dispute, actor=world.owner.actor, dispute_id=opened.id, outcome="reject", note=note, now=LATER
    )
    assert rejected.status is DisputeStatus.rejected and rejected.refunded == 0
    assert (await run(list_dispute_queue, actor=world.owner.actor)).total == 0
    assert [
        i.dispute.id for i in (await run(list_dispute_queue, actor=world.owner.actor, show="resolved")).items
    ] == [opened.id]
    assert await run(release_due_earnings, now=LATER) == 1
    assert await pending_available(world) == (0, PRICE)
    await holds()

    # Both sides were told; the provider read the reason, never the patient's words.
    patient = await notices(world.patient.id)
    provider = [(t, b) for t, b in await notices(world.provider.id) if "problem" in t]
    assert "Problem reported — we're looking into it" in [t for t, _b in patient]
    assert any(
        t == "The problem you reported was reviewed without a refund" and note in b for t, b in patient
    )
    assert [t for t, _b in provider] == [
        "A patient reported a problem with a visit",
        "The problem reported with a visit was reviewed without a refund",
    ]
    assert "The visit was cut short or late" in provider[0][1]
    assert all(DETAILS not in body and "50 minutes" not in body for _t, body in provider)
    seen = await run(get_visit_dispute, actor=world.patient.actor, appointment_id=visit_id, now=SOON)
    assert seen.dispute is not None and seen.dispute.status is DisputeStatus.rejected and not seen.can_report
    with pytest.raises(ValidationFailed, match="already resolved the problem you reported"):
        await report(world, visit_id, reason="other")


async def test_a_partial_refund_resolves_it_with_its_ledger_effect(world, paid_ahead) -> None:
    visit_id = await completed_visit(world)
    opened = await report(world, visit_id, reason="wrong_amount")
    with pytest.raises(ValidationFailed, match="amount of the partial refund"):
        await run(resolve_dispute, actor=world.owner.actor, dispute_id=opened.id, outcome="partial_refund")
    with pytest.raises(ValidationFailed, match="Refund between"):  # the ledger's own rule
        await run(
            resolve_dispute,
            actor=world.owner.actor,
            dispute_id=opened.id,
            outcome="partial_refund",
            amount=Decimal("90"),
        )
    resolved = await run(
        resolve_dispute,
        actor=world.owner.actor,
        dispute_id=opened.id,
        outcome="partial_refund",
        amount=Decimal("41.48"),
        note="Half of the visit did not happen.",
        now=SOON,
    )
    assert resolved.status is DisputeStatus.partially_refunded and resolved.refunded == money("41.48")
    with pytest.raises(ValidationFailed, match="already been resolved"):
        await run(resolve_dispute, actor=world.owner.actor, dispute_id=opened.id, outcome="refund")
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == money("41.48")
    pending, available = await pending_available(world)
    earning_refunded = PRICE - pending
    assert available == 0 and money("39") < earning_refunded < money("40")  # the price's share of $41.48
    await holds()

    # The window ends: what is left of the earning is released.
    assert await run(release_due_earnings, now=LATER) == 1
    assert await pending_available(world) == (0, PRICE - earning_refunded)
    await holds()
    provider = await notices(world.provider.id)
    assert provider[-1][0] == "The problem reported with a visit was refunded in part"
    assert "$41.48" in provider[-1][1]
    patient = await notices(world.patient.id)
    assert any(t == "The problem you reported was refunded in part" and "$41.48" in b for t, b in patient)


async def test_a_full_refund_leaves_nothing_to_release(world, paid_ahead) -> None:
    visit_id = await completed_visit(world)
    opened = await report(world, visit_id, reason="no_show")
    resolved = await run(
        resolve_dispute, actor=world.owner.actor, dispute_id=opened.id, outcome="refund", now=SOON
    )
    assert resolved.status is DisputeStatus.refunded and resolved.refunded == money("82.95")
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == money("82.95")
    assert await pending_available(world) == (0, 0)
    await run(release_due_earnings, now=LATER)
    assert await pending_available(world) == (0, 0)
    await holds()


async def test_a_report_committed_while_the_release_runs_keeps_the_earning_pending(world, paid_ahead) -> None:
    """The release job read its due list before the report committed: its claim waits for the report's
    transaction, and its second look (a later statement) sees the dispute and undoes the claim."""
    visit_id = await completed_visit(world)
    late = DONE + timedelta(hours=71, minutes=30)  # still inside the window when reported
    async with app_db.unit_of_work() as session:
        await report_visit_problem(
            session=session,
            actor=world.patient.actor,
            appointment_id=visit_id,
            reason="other",
            details=DETAILS,
            now=late,
        )
        async with blocked_writers("ledger_visit_charges") as blocked:
            racing = asyncio.create_task(run(release_due_earnings, now=LATER))
            await blocked(1)
    assert await racing == 0
    assert await pending_available(world) == (PRICE, 0)
    await holds()


async def test_erasing_the_patient_blanks_what_they_wrote_and_keeps_the_outcome(world, paid_ahead) -> None:
    visit_id = await completed_visit(world)
    opened = await report(world, visit_id)
    await run(resolve_dispute, actor=world.owner.actor, dispute_id=opened.id, outcome="refund", now=SOON)
    await run(
        request_account_deletion, actor=world.patient.actor, confirm_email=world.patient.email, now=LATER
    )
    assert await run(delete_due_accounts, actor=SYSTEM, now=LATER + timedelta(days=15)) == 1
    async with app_db.unit_of_work() as session:
        row = await session.get_one(Dispute, opened.id)
        assert (row.details, row.reason, row.status, row.refunded_cents) == (
            "",
            "cut_short",
            "refunded",
            8295,
        )
