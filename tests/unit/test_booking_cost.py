"""What one booking costs the database (issue 10, booking throughput): `hold_slot` then `place_order` for one
visit from the cart, with a provider who has an account (so both e-mails go out), counted with a
`before_cursor_execute` listener. A regression guard: a change that adds round trips to checkout fails here
(tools/bench_booking.py measures the throughput they cost on PostgreSQL)."""

from __future__ import annotations

from sqlalchemy import event

from app import db as app_db
from app.services.booking import CheckoutLine, hold_slot, place_order
from app.services.cart import CartOwner, add_to_cart
from models.account import Role
from models.catalog import ServiceLocation
from tests.factories import ZIP, person, provider
from tests.unit.test_booking import NINE, NOW

# Statements of one booking on PostgreSQL, where the tests deliver over SMTP (the outbox rows' status is
# written after delivery; without SMTP_URL one fewer) and the cart's event is a pg_notify (SQLite: one
# fewer). Before issue 10 one booking cost 51: hold_slot 21, place_order 30. Issue 12's notifications add
# three to place_order: the recipients' preferences, the inbox rows (one insert) and their events (one
# pg_notify for all; SQLite: none). Issue 14's ledger adds four, written in the order's own unit of work
# (the money must not exist without its order): the visits' charges (one insert), the patient's booked
# account (one upsert; the world's side has no row to update), the journal entry and its postings (one
# insert each). The platform's accounts are summed from postings, so no booking waits on a shared row.
# Issue 15's automation adds one: the integration's row, read to decide whether appointment.created is
# queued (nothing is queued while it is disconnected or the event type is off). Issue 28's domain events add
# one: the notifications, e-mails and automation event follow the commit (subscribers of OrderPlaced, in a
# unit of work of their own, still counted here), which reads the order's visits back in one statement.
# Issue 29 adds two: the owners' payment-modes setting, and the wallet credit the order spent (read even when
# it spent none: passing it from place_order to the ledger would save that one).
HOLD_BUDGET = 6
PLACE_BUDGET = 22


class _Counter:
    def __init__(self) -> None:
        self.statements: list[str] = []
        self.engine = app_db.get_database().engine.sync_engine

    def _count(self, _conn, _cursor, statement, *_rest) -> None:  # noqa: ANN001, ANN002
        self.statements.append(statement)

    def __enter__(self) -> _Counter:
        event.listen(self.engine, "before_cursor_execute", self._count)
        return self

    def __exit__(self, *_exc) -> None:  # noqa: ANN002
        event.remove(self.engine, "before_cursor_execute", self._count)


async def test_one_booking_stays_within_its_statement_budget(identity) -> None:
    owner = await person(Role.provider, name="Ada Nurse")
    ada = await provider("Ada Nurse", owner=owner)
    patient = await person(name="Pat Patient")
    async with app_db.unit_of_work() as session:
        await add_to_cart(
            session=session,
            owner=CartOwner(user_id=patient.id),
            actor=patient.actor,
            service_slug="routine-blood-draw",
        )

    with _Counter() as holding:
        async with app_db.unit_of_work() as session:
            held = await hold_slot(
                session=session,
                actor=patient.actor,
                service_slug="routine-blood-draw",
                provider_id=ada,
                starts_at=NINE,
                zip_code=ZIP,
                location=ServiceLocation.home,
                now=NOW,
            )
    line = CheckoutLine(
        hold_id=held.id,
        cart_item_id="routine-blood-draw",
        location=ServiceLocation.home,
        address_line="12 Main Street",
        city="New York",
        state="NY",
        zip_code=ZIP,
    )
    with _Counter() as placing:
        async with app_db.unit_of_work() as session:
            order = await place_order(session=session, actor=patient.actor, lines=[line], now=NOW)

    assert [a.id for a in order.appointments] == [held.id]
    assert len(holding.statements) <= HOLD_BUDGET, "\n".join(holding.statements)
    assert len(placing.statements) <= PLACE_BUDGET, "\n".join(placing.statements)
