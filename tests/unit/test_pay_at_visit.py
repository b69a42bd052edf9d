"""Pay at visit made honest (issue 29, item 1), on SQLite and, with TEST_DATABASE_URL, PostgreSQL.

The provider records what they collected in person at Complete (or later: Record payment); the ledger books
the provider's price as paid to them at the door (to the world), the platform's fee as owed by the provider
(provider_receivable), and what was not collected as still due from the patient (patient_booked); a payout
request nets the receivable against the provider's card earnings. After each step the ledger's invariants
hold (`balanced()`, which also checks the SPEC's transaction rows, and `check_ledger`).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select, update

from app import db as app_db
from app.services.appointments import _lifecycle as visits
from app.services.appointments import get_staff_visit
from app.services.disputes import get_visit_dispute, report_visit_problem, resolve_dispute
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.ledger import (
    get_monthly_statement,
    get_provider_balances,
    get_revenue_summary,
    list_provider_statement,
    list_statement_months,
    record_visit_payment,
    refund_visit,
    request_payout,
)
from app.services.ledger.internal import check_ledger, release_due_earnings
from models.account import Role
from models.booking import Appointment, AppointmentStatus, Order, OrderStatus, Transaction, TransactionType
from models.ledger import EntryKind, JournalEntry, Posting, VisitCharge
from staff import visit_dialog
from tests.factories import person, provider, run
from tests.unit import test_ledger
from tests.unit.test_booking import NINE, NOW
from tests.unit.test_ledger import FEE, PRICE, World, balanced, book, fund, money

world = test_ledger.world  # a patient, a provider (Ada Nurse), owners and a manager without process_payments
TOTAL = PRICE + FEE  # $82.95
DONE = NINE + timedelta(hours=1)


async def start(world: World, visit_id: str) -> None:
    actor = world.provider.actor
    await run(visits.confirm_appointment, actor=actor, appointment_id=visit_id, now=NOW)
    await run(visits.start_appointment, actor=actor, appointment_id=visit_id, now=NINE)


async def finish(world: World, visit_id: str, collected: str | None = None, method: str = "cash") -> None:
    await run(
        visits.complete_appointment,
        actor=world.provider.actor,
        appointment_id=visit_id,
        now=DONE,
        collected=collected,
        method=method,
    )


async def holds() -> dict[str, int]:
    found = await balanced()
    checked = await run(check_ledger)
    assert checked.holds, checked.breaks
    return found


async def money_of(visit_id: str) -> tuple[OrderStatus, list[tuple[TransactionType, str, Decimal]]]:
    """The visit's order status and its transactions (type, status, amount), sorted."""
    async with app_db.unit_of_work() as session:
        row = await session.get_one(Appointment, visit_id)
        order = await session.get_one(Order, row.order_id)
        rows = (await session.scalars(select(Transaction).where(Transaction.order_id == order.id))).all()
        return order.status, sorted((t.type, t.status.value, t.amount) for t in rows)


async def due_shown(world: World, visit_id: str) -> tuple[Decimal, Decimal]:
    """What is due on the visit as the patient's and the provider's lists read it."""
    mine = await run(visits.list_my_appointments, actor=world.patient.actor, when="past")
    theirs = await run(
        visits.list_provider_schedule, actor=world.provider.actor, when="past", day=None, time_zone="UTC"
    )
    ours = next(v for v in mine if v.id == visit_id)
    schedule = next(v for v in theirs if v.id == visit_id)
    assert ours.payment is not None and schedule.payment is not None
    assert not ours.payment.paid_ahead and ours.payment.total == TOTAL
    return ours.payment.due, schedule.payment.due


async def test_complete_with_the_whole_amount_in_cash(world: World) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id, "82.95", "cash")
    after = await holds()
    assert after.get(f"patient_booked:{world.patient.id}", 0) == 0
    assert after.get(f"provider_pending:{world.provider_id}", 0) == 0  # nothing for us to pay out later
    assert after[f"provider_receivable:{world.provider_id}"] == 395  # our fee, in the provider's hands
    assert after.get("platform_fees", 0) == 0
    async with app_db.unit_of_work() as session:
        entry = await session.scalar(
            select(JournalEntry).where(
                JournalEntry.appointment_id == visit_id, JournalEntry.kind == EntryKind.collected_at_visit
            )
        )
        assert entry is not None and entry.actor_id == world.provider.id
        assert entry.description == "Collected at visit (cash)"
        legs = sorted(
            (p.account_id, p.amount)
            for p in await session.scalars(select(Posting).where(Posting.entry_id == entry.id))
        )
        charge = await session.get_one(VisitCharge, visit_id)
    assert legs == sorted(
        [
            (f"patient_booked:{world.patient.id}", -8295),
            ("world", 7900),
            (f"provider_receivable:{world.provider_id}", 395),
        ]
    )
    assert (charge.collected, charge.collection_method, charge.collected_by) == (
        8295,
        "cash",
        world.provider.id,
    )
    status, rows = await money_of(visit_id)
    assert status is OrderStatus.paid
    assert rows == [(TransactionType.booking, "completed", PRICE), (TransactionType.fee, "completed", FEE)]
    assert await due_shown(world, visit_id) == (0, 0)

    balances = await run(get_provider_balances, actor=world.provider.actor)
    assert (balances.pending, balances.available, balances.owed_to_platform) == (0, 0, FEE)
    assert await run(list_statement_months, actor=world.provider.actor) == ["2030-01"]
    assert balances.collected_at_visits == PRICE
    line = (await run(list_provider_statement, actor=world.provider.actor)).items[0]
    assert (line.collected_in_person, line.collection_method, line.payment_due) == (True, "cash", 0)
    # No dispute window holds an earning the provider already has: the release job has nothing to move.
    assert await run(release_due_earnings, now=DONE + timedelta(days=4)) == 0
    summary = await run(get_revenue_summary, actor=world.owner.actor, granularity="day")
    assert (summary.totals.gross, summary.totals.fees, summary.totals.net) == (TOTAL, FEE, FEE)
    await holds()


async def test_partial_collection_leaves_the_rest_due_then_record_payment_settles_it(world: World) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id, "50", "card_reader")
    after = await holds()
    assert after[f"patient_booked:{world.patient.id}"] == 3295  # still owed by the patient
    assert after["world"] == -8295 + 5000
    assert after.get(f"provider_receivable:{world.provider_id}", 0) == 0  # the provider's share comes first
    assert await due_shown(world, visit_id) == (money("32.95"), money("32.95"))
    status, rows = await money_of(visit_id)
    assert status is OrderStatus.pending  # not paid while a visit of it is due
    assert rows == [
        (TransactionType.booking, "completed", money("50")),
        (TransactionType.booking, "pending", money("29")),
        (TransactionType.fee, "pending", FEE),
    ]
    line = (await run(list_provider_statement, actor=world.provider.actor)).items[0]
    assert (line.collection_method, line.payment_due) == ("card_reader", money("32.95"))

    with pytest.raises(ValidationFailed, match=r"between \$0.01 and \$32.95"):
        await run(
            record_visit_payment,
            actor=world.provider.actor,
            appointment_id=visit_id,
            amount="33",
            method="cash",
        )
    read = await run(
        record_visit_payment,
        actor=world.provider.actor,
        appointment_id=visit_id,
        amount="32.95",
        method="cash",
    )
    assert (read.collected, read.due) == (TOTAL, 0)
    after = await holds()
    assert after.get(f"patient_booked:{world.patient.id}", 0) == 0
    assert after[f"provider_receivable:{world.provider_id}"] == 395
    status, rows = await money_of(visit_id)
    assert status is OrderStatus.paid
    assert [(kind, state) for kind, state, _amount in rows] == [
        (TransactionType.booking, "completed"),
        (TransactionType.booking, "completed"),
        (TransactionType.fee, "completed"),
    ]
    with pytest.raises(ValidationFailed, match="Nothing is due"):
        await run(
            record_visit_payment,
            actor=world.provider.actor,
            appointment_id=visit_id,
            amount="1",
            method="cash",
        )


async def test_not_collected_is_payment_due_until_staff_record_it(world: World) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id)  # "Not collected"
    after = await holds()
    assert after[f"patient_booked:{world.patient.id}"] == 8295
    assert await due_shown(world, visit_id) == (TOTAL, TOTAL)
    staff_read = await run(get_staff_visit, actor=world.owner.actor, appointment_id=visit_id)
    assert staff_read.payment is not None and staff_read.payment.due == TOTAL
    assert "Payment due $82.95" in str(visit_dialog.payment_facts(staff_read))
    status, rows = await money_of(visit_id)
    assert status is OrderStatus.pending
    assert [state for _kind, state, _amount in rows] == ["pending", "pending"]

    other_user = await person(Role.provider, "Bo Nurse")
    await provider("Bo Nurse", owner=other_user)
    for outsider in (other_user, world.manager, world.patient):  # manager: no process_payments
        with pytest.raises(PermissionDenied):
            await run(
                record_visit_payment,
                actor=outsider.actor,
                appointment_id=visit_id,
                amount="82.95",
                method="cash",
            )
    await run(
        record_visit_payment, actor=world.owner.actor, appointment_id=visit_id, amount="82.95", method="other"
    )
    after = await holds()
    assert after.get(f"patient_booked:{world.patient.id}", 0) == 0
    assert await due_shown(world, visit_id) == (0, 0)
    assert (await money_of(visit_id))[0] is OrderStatus.paid
    async with app_db.unit_of_work() as session:
        charge = await session.get_one(VisitCharge, visit_id)
    assert (charge.collection_method, charge.collected_by) == ("other", world.owner.id)


async def test_a_payout_request_nets_the_fees_collected_at_visits(world: World) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id, "82.95", "cash")
    await fund(world, "100")  # card earnings, available
    with pytest.raises(ValidationFailed, match=r"at most \$96.05.*\$3.95 of your earnings first settle"):
        await run(request_payout, actor=world.provider.actor, amount=Decimal("100"))
    payout = await run(request_payout, actor=world.provider.actor, now=DONE + timedelta(days=1))
    assert payout.amount == money("96.05")
    after = await holds()
    assert after.get(f"provider_receivable:{world.provider_id}", 0) == 0
    assert after.get(f"provider_available:{world.provider_id}", 0) == 0
    assert after[f"provider_payout:{world.provider_id}"] == 9605
    assert after["platform_fees"] == 395
    balances = await run(get_provider_balances, actor=world.provider.actor)
    assert (balances.owed_to_platform, balances.fees_netted, balances.in_payout) == (0, FEE, money("96.05"))
    month = await run(get_monthly_statement, actor=world.provider.actor, month="2030-01")
    assert month.fees_netted == FEE
    assert (
        month.opening_available + month.released - month.refunds_reversed - month.fees_netted
        - month.payouts_requested + month.payouts_returned
        == month.closing_available
    )  # fmt: skip
    summary = await run(get_revenue_summary, actor=world.owner.actor, granularity="month")
    # Netting moves the fee from the provider's receivable to our fees: it earns nothing new.
    assert summary.totals.fees == FEE and summary.totals.net == FEE


async def test_amounts_and_methods_are_checked_and_a_refusal_completes_nothing(world: World) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    for amount, method, message in (
        ("0", "cash", "between"),
        ("-1", "cash", "between"),
        ("82.96", "cash", r"\$82.95"),
        ("1.234", "cash", "two decimals"),
        ("lots", "cash", "between"),
        ("1e30", "cash", "between"),
        ("10", "bitcoin", "card reader, cash or other"),
    ):
        with pytest.raises(ValidationFailed, match=message):
            await finish(world, visit_id, amount, method)
    async with app_db.unit_of_work() as session:
        row = await session.get_one(Appointment, visit_id)
        assert row.status is AppointmentStatus.in_progress
    await holds()


async def test_a_paid_ahead_visit_has_nothing_to_collect(world: World, paid_ahead: None) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id)
    after = await holds()
    assert after[f"provider_pending:{world.provider_id}"] == 7900
    with pytest.raises(ValidationFailed, match="paid at booking"):
        await run(
            record_visit_payment,
            actor=world.provider.actor,
            appointment_id=visit_id,
            amount="1",
            method="cash",
        )


async def test_a_refund_of_a_visit_paid_in_person_takes_the_share_back_from_card_earnings(
    world: World,
) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id, "82.95", "cash")
    with pytest.raises(ValidationFailed, match="paid for this visit in person"):
        await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Dispute")
    await fund(world, "100")
    refunded = await run(refund_visit, actor=world.owner.actor, appointment_id=visit_id, reason="Dispute")
    assert refunded == TOTAL
    after = await holds()
    assert after[f"patient_credit:{world.patient.id}"] == 8295
    assert after[f"provider_available:{world.provider_id}"] == 10000 - 7900  # the provider keeps the cash
    assert after.get(f"provider_receivable:{world.provider_id}", 0) == 0  # the fee is given back
    assert after.get("platform_fees", 0) == 0


async def test_a_visit_paid_in_cash_can_be_reported_inside_the_window_and_refunded_as_credit(
    world: World,
) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id, "82.95", "cash")
    soon, later = DONE + timedelta(hours=2), DONE + timedelta(hours=73)
    seen = await run(get_visit_dispute, actor=world.patient.actor, appointment_id=visit_id, now=soon)
    assert seen.can_report and seen.window_ends_at == DONE + timedelta(hours=72)
    assert not (
        await run(get_visit_dispute, actor=world.patient.actor, appointment_id=visit_id, now=later)
    ).can_report
    details = "The second tube was never drawn."
    report = await run(
        report_visit_problem,
        actor=world.patient.actor,
        appointment_id=visit_id,
        reason="cut_short",
        details=details,
        now=soon,
    )
    await fund(world, "100")  # the provider's share of a refund comes back from their card earnings
    resolved = await run(
        resolve_dispute,
        actor=world.owner.actor,
        dispute_id=report.id,
        outcome="partial_refund",
        amount=Decimal("10"),
        now=soon,
    )
    assert resolved.refunded == money("10")
    after = await holds()
    assert after[f"patient_credit:{world.patient.id}"] == 1000  # paid in cash: refunded as wallet credit


async def test_the_ledger_check_names_a_collection_its_entries_do_not_add_up_to(world: World) -> None:
    visit_id = await book(world)
    await start(world, visit_id)
    await finish(world, visit_id, "50", "cash")
    await holds()
    async with app_db.unit_of_work() as session:  # a hand-made fix past the ledger's writer
        await session.execute(
            update(VisitCharge).where(VisitCharge.appointment_id == visit_id).values(collected=8295)
        )
    checked = await run(check_ledger)
    assert [(found.rule, found.subject) for found in checked.breaks] == [("collection_mismatch", visit_id)]
    assert "says $82.95 was collected at the visit, its entries say $50.00" in checked.breaks[0].detail
