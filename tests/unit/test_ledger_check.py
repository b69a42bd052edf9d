"""`python -m medivisit ledger check` (issue 29, item 7): the ledger's invariants over the whole journal, each
break named, exit 1 on any."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy import insert, update

from app import db as app_db
from app.services.ledger.internal import check_ledger
from models.booking import Appointment, AppointmentStatus
from models.ledger import AccountKind, EntryKind, JournalEntry, LedgerAccount, Posting
from tests.conftest import run_cli
from tests.factories import run
from tests.unit import test_ledger
from tests.unit.test_booking import NINE
from tests.unit.test_ledger import World, book, complete

world = test_ledger.world  # the ledger tests' world: a patient, a provider, staff


def ledger_check() -> tuple[int, str, str]:
    """The command on this test's database (a copy of the world's: not the `database_url` fixture's)."""
    done = run_cli("ledger", "check", env={"DATABASE_URL": app_db.get_database().url})
    return done.returncode, done.stdout, done.stderr


async def test_a_booked_completed_and_a_second_booked_visit_pass(world: World, paid_ahead: None) -> None:
    await complete(world, await book(world))
    await book(world, starts_at=NINE + timedelta(days=1))

    checked = await run(check_ledger)
    assert checked.holds, checked.breaks
    assert checked.entries == 3 and checked.postings >= 7  # two bookings, one completion (fee and earning)
    code, out, _err = ledger_check()
    assert code == 0
    assert out.strip() == (
        f"Ledger check passed: {checked.entries} journal entries, {checked.postings} postings; every invariant holds."
    )


async def test_every_kind_of_break_is_named_and_fails_the_command(world: World, paid_ahead: None) -> None:
    visit_id = await book(world)
    unsettled = await book(world, starts_at=NINE + timedelta(days=1))
    await complete(world, visit_id)
    entry = str(uuid.uuid4())
    credit = f"{AccountKind.patient_credit.value}:{world.patient.id}"
    async with app_db.unit_of_work() as session:
        # Written past the ledger's one writer, as a bad migration or a hand-made fix would: an entry whose
        # postings do not balance, a credit nobody's kept balance knows of, a visit marked completed by hand.
        await session.execute(insert(JournalEntry).values(id=entry, kind=EntryKind.credit_adjustment))
        await session.execute(
            insert(Posting).values(
                id=str(uuid.uuid4()), entry_id=entry, account_id=credit, account_kind=AccountKind.patient_credit,
                amount=500,
            )
        )  # fmt: skip
        await session.execute(
            update(Appointment).where(Appointment.id == unsettled).values(status=AppointmentStatus.completed)
        )
        await session.execute(
            update(LedgerAccount).where(LedgerAccount.id.like("provider_pending:%")).values(balance=1)
        )

    checked = await run(check_ledger)
    assert {(found.rule, found.subject) for found in checked.breaks} == {
        ("unbalanced_entry", entry),
        ("balance_mismatch", credit),
        ("balance_mismatch", f"{AccountKind.provider_pending.value}:{world.provider_id}"),
        ("visit_without_charge", unsettled),
    }
    code, out, err = ledger_check()
    assert code == 1
    assert f"unbalanced_entry: {entry}: its postings sum to $5.00, not $0.00" in out
    assert f"visit_without_charge: {unsettled}: completed, but its charge was never settled" in out
    assert f"balance_mismatch: {credit}: has postings ($5.00) but no kept balance" in out
    assert err.startswith("Ledger check failed: 4 break(s) in ")
