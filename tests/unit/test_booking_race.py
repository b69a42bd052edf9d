"""Two patients taking one time at the same moment: exactly one gets it, the other gets a clear message and
keeps its cart. The database's no-overlap rule (PostgreSQL exclusion constraint, SQLite triggers) is what
decides when both passed the availability check; it is tested directly too.

Each booking runs in its own unit of work, as two browser connections would.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app import db as app_db
from app.principal import Principal
from app.services.booking import TAKEN, hold_slot, place_order
from app.services.errors import ValidationFailed
from models.booking import Appointment, AppointmentStatus, CheckoutLine
from models.catalog import Service
from tests.factories import ZIP, blocked_writers, person, present, provider
from tests.unit.test_booking import HOME, NINE, NOW, add, cart_ids

IV = {"iv-hydration": ("150", (HOME,))}


async def book(actor: Principal, provider_id: str | None, zip_code: str, item: str) -> str:
    """Hold 9:00 and place the order in one unit of work: the order number, or the refusal."""
    try:
        async with app_db.unit_of_work() as session:
            held = await hold_slot(
                session=session,
                actor=actor,
                service_slug="iv-hydration",
                provider_id=provider_id,
                starts_at=NINE,
                zip_code=zip_code,
                location=HOME,
                now=NOW,
            )
            line = CheckoutLine(
                hold_id=held.id,
                cart_item_id=item,
                location=HOME,
                address_line="1 Race Road",
                city="Troy",
                state="NY",
                zip_code=zip_code,
            )
            order = await place_order(session=session, actor=actor, lines=[line], now=NOW)
    except ValidationFailed as refusal:
        return refusal.message
    return order.number


async def live_at_nine(provider_id: str) -> int:
    async with app_db.unit_of_work() as session:
        count = await session.scalar(
            select(func.count()).where(
                Appointment.provider_id == provider_id,
                Appointment.starts_at == NINE,
                Appointment.status != AppointmentStatus.cancelled,
            )
        )
        return present(count)


async def test_two_patients_booking_one_time_at_once(identity) -> None:
    zip_code = ZIP
    ana = await provider("Ana Race", offers=IV)
    patients = [await person(name="Rita Racer"), await person(name="Rory Racer")]
    items = [await add(actor, "iv-hydration", ana) for actor, _ in patients]

    results = await asyncio.gather(
        *(book(actor, ana, zip_code, item) for (actor, _), item in zip(patients, items, strict=True))
    )

    winners = [index for index, result in enumerate(results) if result.startswith("MV-")]
    assert len(winners) == 1, results
    loser = 1 - winners[0]
    assert results[loser] == TAKEN
    assert await cart_ids(patients[winners[0]].actor) == []
    assert await cart_ids(patients[loser].actor) == [items[loser]]
    assert await live_at_nine(ana) == 1


async def test_the_database_decides_between_two_checks_that_both_passed(identity) -> None:
    """The first patient's hold is written but not committed, so the second one's availability check still
    sees the time free; the no-overlap rule then refuses the second row once the first commits. For "first
    available", only that attempt is rolled back (a savepoint) and the next free provider is taken.

    The test waits until both racers are observably stuck behind the first patient's open transaction
    (`blocked_writers`: on PostgreSQL two backends of this database waiting on a lock in `pg_stat_activity`
    — the provider row lock hold_slot takes after its availability check; on SQLite two connections that
    issued their first write of `appointments`, which waits on the first transaction's write lock), then
    checks neither has finished; it never waits for a fixed time."""
    zip_code = ZIP
    ana = await provider("Ana Tie", offers=IV, ratings=(5,))
    cy = await provider("Cy Tie", offers=IV, ratings=(4,))
    first, second, third = (
        (await person(name="Fia First")).actor,
        (await person(name="Sy Second")).actor,
        (await person(name="Ty")).actor,
    )
    second_item, third_item = await add(second, "iv-hydration", ana), await add(third, "iv-hydration")

    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=first,
            service_slug="iv-hydration",
            provider_id=ana,
            starts_at=NINE,
            zip_code=zip_code,
            location=HOME,
            now=NOW,
        )
        async with blocked_writers("appointments") as blocked:
            racing = [
                asyncio.create_task(book(second, ana, zip_code, second_item)),
                asyncio.create_task(book(third, None, zip_code, third_item)),
            ]
            await blocked(2)  # both are past their checks, waiting on the database
        assert not any(task.done() for task in racing)
    named, first_available = await asyncio.gather(*racing)

    assert held.provider_id == ana
    assert named == TAKEN
    assert first_available.startswith("MV-")
    assert await cart_ids(second) == [second_item] and await cart_ids(third) == []
    assert (await live_at_nine(ana), await live_at_nine(cy)) == (1, 1)


async def test_the_database_refuses_overlapping_live_appointments(identity) -> None:
    """Busy time is [start, end of the visit + travel buffer); cancelled visits don't count."""
    patient = (await person(name="Dee Direct")).account
    ana = await provider("Ana Direct", offers=IV)
    cy = await provider("Cy Direct", offers=IV)
    async with app_db.unit_of_work() as session:
        service_id = await session.scalar(select(Service.id).where(Service.slug == "iv-hydration"))

    def visit(provider_id: str, start_minutes: int, status: AppointmentStatus) -> Appointment:
        starts_at = NINE + timedelta(minutes=start_minutes)
        return Appointment(
            patient_id=patient.id,
            provider_id=provider_id,
            service_id=service_id,
            status=status,
            starts_at=starts_at,
            ends_at=starts_at + timedelta(hours=1),
            busy_until=starts_at + timedelta(minutes=90),
            location=HOME,
            price=Decimal("150"),
            original_price=Decimal("150"),
        )

    async def insert(row: Appointment) -> str:
        async with app_db.unit_of_work() as session:
            session.add(row)
        return row.id

    await insert(visit(ana, 0, AppointmentStatus.pending))  # busy 9:00–10:30
    for start, status in [
        (0, AppointmentStatus.held),
        (75, AppointmentStatus.confirmed),
        (-60, AppointmentStatus.pending),
    ]:
        with pytest.raises(IntegrityError) as refused:
            await insert(visit(ana, start, status))
        assert "appointment_overlap" in str(refused.value) or "ex_appointments_no_overlap" in str(
            refused.value
        )
    cancelled = await insert(visit(ana, 30, AppointmentStatus.cancelled))
    await insert(visit(ana, 90, AppointmentStatus.pending))  # starts as the first one's busy time ends
    await insert(visit(cy, 0, AppointmentStatus.pending))  # another provider

    with pytest.raises(IntegrityError):  # bringing the cancelled visit back would overlap
        async with app_db.unit_of_work() as session:
            row = present(await session.get(Appointment, cancelled))
            row.status = AppointmentStatus.pending
    assert await live_at_nine(ana) == 1


async def test_sixteen_bookers_of_one_time_get_one_order_or_the_taken_message(identity) -> None:
    """Many patients hold and book one provider's 9:00 at once, holding and placing the order in separate
    units of work as the checkout does. place_order now takes the provider row locks hold_slot takes (in the
    same order), and a deadlock or serialization failure that PostgreSQL still reports is the same answer
    as the no-overlap refusal: every loser reads TAKEN, nobody gets a generic error."""
    ana = await provider("Ana Crowd", offers=IV)
    patients = [(await person(name=f"Crowd {n}")).actor for n in range(16)]
    items = [await add(actor, "iv-hydration", ana) for actor in patients]

    async def checkout(actor: Principal, item: str) -> str:
        try:
            async with app_db.unit_of_work() as session:
                held = await hold_slot(
                    session=session, actor=actor, service_slug="iv-hydration", provider_id=ana,
                    starts_at=NINE, zip_code=ZIP, location=HOME, now=NOW,
                )  # fmt: skip
            line = CheckoutLine(
                hold_id=held.id, cart_item_id=item, location=HOME, address_line="1 Race Road",
                city="Troy", state="NY", zip_code=ZIP,
            )  # fmt: skip
            async with app_db.unit_of_work() as session:
                return (await place_order(session=session, actor=actor, lines=[line], now=NOW)).number
        except ValidationFailed as refusal:
            return refusal.message

    results = await asyncio.gather(*(checkout(a, i) for a, i in zip(patients, items, strict=True)))
    assert sum(result.startswith("MV-") for result in results) == 1, results
    assert sorted(set(results) - {r for r in results if r.startswith("MV-")}) == [TAKEN]
    assert await live_at_nine(ana) == 1
