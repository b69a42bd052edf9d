"""Receipts (app/services/receipts, issue 29 item 3) on SQLite and, with TEST_DATABASE_URL, PostgreSQL: an order
of two visits, one cancelled or refunded, has one set of figures — the visits, a credit line per cancelled
visit and refund, the total after them, what was paid, refunded and is due — and the PDF prints exactly
those; a visit's money for payments staff lists each refund with who and why and what is left to refund."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from pypdf import PdfReader

from app import db as app_db
from app.services.appointments import _lifecycle as visits
from app.services.booking import CheckoutLine, hold_slot, place_order
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger import record_visit_payment, refund_visit
from app.services.receipts import get_order_receipt, get_receipt, get_visit_money
from app.settings import get_settings
from components.format import format_money
from models.account import Role
from models.catalog import ServiceLocation
from models.receipt import CreditKind
from tests.factories import ZIP, Person, person, provider, run
from tests.unit.test_booking import NINE, NOW, add

LATER = NINE + timedelta(hours=3)


@dataclass(frozen=True)
class World:
    patient: Person
    nurse: Person
    provider_id: str
    owner: Person
    manager: Person  # management: no process_payments


async def build_world() -> World:
    nurse = await person(Role.provider, "Ada Nurse")
    return World(
        patient=await person(Role.patient, "Jordan Lee"),
        nurse=nurse,
        provider_id=await provider(
            "Ada Nurse",
            owner=nurse,
            offers={"routine-blood-draw": ("85", ()), "iv-hydration": ("111.30", ())},
        ),
        owner=await person(Role.owner, "Olive Owner"),
        manager=await person(Role.management, "Mia Manager"),
    )


@pytest.fixture
async def world(identity, monkeypatch, world_once) -> World:
    monkeypatch.setenv("EARNINGS_RELEASE_ENABLED", "0")
    get_settings.cache_clear()
    return await world_once(build_world)


async def book_two(world: World) -> tuple[str, list[str]]:
    """A blood draw at 9:00 and an IV at 12:00 in one order; (order number, [visit ids])."""
    await add(world.patient.actor, "routine-blood-draw", world.provider_id)
    await add(world.patient.actor, "iv-hydration", world.provider_id)
    lines = []
    for slug, starts in (("routine-blood-draw", NINE), ("iv-hydration", LATER)):
        async with app_db.unit_of_work() as session:
            held = await hold_slot(
                session=session,
                actor=world.patient.actor,
                service_slug=slug,
                provider_id=world.provider_id,
                starts_at=starts,
                zip_code=ZIP,
                location=ServiceLocation.home,
                now=NOW,
            )
        lines.append(
            CheckoutLine(
                hold_id=held.id,
                location="home",
                address_line="12 Main St",
                city="New York",
                state="NY",
                zip_code=ZIP,
            )
        )
    order = await run(place_order, actor=world.patient.actor, lines=lines, now=NOW)
    return order.number, [v.id for v in sorted(order.appointments, key=lambda v: v.starts_at)]


async def complete(world: World, visit_id: str, starts_at=LATER) -> None:  # noqa: ANN001
    actor = world.nurse.actor
    await run(visits.confirm_appointment, actor=actor, appointment_id=visit_id, now=NOW)
    await run(visits.start_appointment, actor=actor, appointment_id=visit_id, now=starts_at)
    await run(
        visits.complete_appointment, actor=actor, appointment_id=visit_id, now=starts_at + timedelta(hours=1)
    )


async def pdf_text(world: World, number: str) -> str:
    document = await run(
        get_order_receipt, actor=world.patient.actor, number=number, time_zone="America/New_York"
    )
    return " ".join(
        " ".join(page.extract_text() for page in PdfReader(io.BytesIO(document.content)).pages).split()
    )


async def test_a_cancelled_visit_is_one_credit_line_and_every_total_agrees(world) -> None:
    number, (draw, iv) = await book_two(world)
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=draw, now=NOW)
    receipt = await run(get_receipt, actor=world.patient.actor, number=number)
    first, second = receipt.visits
    assert (
        receipt.charged
        == receipt.subtotal + receipt.platform_fee
        == first.price + first.fee + second.price + second.fee
    )
    [credit] = receipt.credits
    assert (credit.kind, credit.appointment_id, credit.amount) == (
        CreditKind.cancelled,
        draw,
        first.price + first.fee,
    )
    assert receipt.total == receipt.charged - credit.amount == second.price + second.fee
    assert (receipt.paid, receipt.refunded, receipt.due) == (0, 0, receipt.total)
    text = await pdf_text(world, number)
    assert f"Cancelled — Routine blood draw, Jan 7, 2030 Jan 7, 2030 {format_money(-credit.amount)}" in text
    assert f"Total {format_money(receipt.total)}" in text
    assert f"Due at the visit {format_money(receipt.due)}" in text
    assert f"Still due at the visit: {format_money(receipt.due)}." in text
    # The order's own total stays what was ordered, and no other "due" figure is printed.
    assert f"Order total {format_money(receipt.charged)}" in text
    assert text.count("Due") == 1 and text.count("due") == 1


async def test_refunds_are_credit_lines_and_the_order_is_paid_in_full(world, paid_ahead) -> None:
    number, (draw, iv) = await book_two(world)
    await run(
        visits.cancel_appointment,
        actor=world.owner.actor,
        appointment_id=draw,
        refund_exception="Provider ill",
        now=NOW,
    )
    await complete(world, iv)
    await run(
        refund_visit, actor=world.owner.actor, appointment_id=iv, amount=Decimal("20"), reason="Arrived late"
    )
    receipt = await run(get_receipt, actor=world.patient.actor, number=number)
    first, second = receipt.visits
    assert [(c.kind, c.appointment_id, c.amount) for c in receipt.credits] == [
        (CreditKind.refund, draw, first.price + first.fee),
        (CreditKind.refund, iv, Decimal("20.00")),
    ]
    assert receipt.total == receipt.charged - first.price - first.fee - 20 == second.price + second.fee - 20
    assert (receipt.paid, receipt.refunded, receipt.due) == (
        receipt.charged,
        receipt.charged - receipt.total,
        0,
    )
    text = await pdf_text(world, number)
    assert "Refunded as wallet credit — Hydration IV (1 liter), Jan 7, 2030" in text and "-$20.00" in text
    assert f"Total, paid ahead {format_money(receipt.total)}" in text and "Due $0.00" in text
    assert "Refunds are credited to your MediVisit wallet." in text

    money = await run(get_visit_money, actor=world.owner.actor, appointment_id=iv)
    assert (money.charged, money.refunded, money.refundable) == (
        second.price + second.fee,
        Decimal("20.00"),
        second.price + second.fee - 20,
    )
    [refund] = money.refunds
    assert (refund.amount, refund.by_name, refund.reason) == (Decimal("20.00"), "Olive Owner", "Arrived late")
    cancelled = await run(get_visit_money, actor=world.owner.actor, appointment_id=draw)
    assert cancelled.refundable == 0 and cancelled.refunds[0].reason == "Provider ill"


async def test_a_visit_paid_in_part_at_the_door_is_due_the_rest_and_refundable_up_to_what_was_paid(
    world,
) -> None:
    number, (draw, iv) = await book_two(world)
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=draw, now=NOW)
    await complete(world, iv)
    await run(record_visit_payment, actor=world.nurse.actor, appointment_id=iv, amount="50", method="cash")
    receipt = await run(get_receipt, actor=world.patient.actor, number=number)
    second = receipt.visits[1]
    assert receipt.total == second.price + second.fee
    assert (receipt.paid, receipt.refunded, receipt.due) == (Decimal("50.00"), 0, receipt.total - 50)
    text = await pdf_text(world, number)
    assert "Paid $50.00" in text and f"Due at the visit {format_money(receipt.total - 50)}" in text
    money = await run(get_visit_money, actor=world.owner.actor, appointment_id=iv)
    assert (money.charged, money.refundable) == (second.price + second.fee, Decimal("50.00"))
    with pytest.raises(ValidationFailed, match=r"\$50.00"):  # the ledger's own limit: what was collected
        await run(
            refund_visit, actor=world.owner.actor, appointment_id=iv, amount=Decimal("50.01"), reason="x"
        )


async def test_only_payments_staff_read_a_visits_money_and_others_never_see_the_receipt(world) -> None:
    number, (draw, _iv) = await book_two(world)
    for who in (world.manager, world.patient, world.nurse):
        with pytest.raises(PermissionDenied):
            await run(get_visit_money, actor=who.actor, appointment_id=draw)
    with pytest.raises(NotFound):
        await run(get_visit_money, actor=world.owner.actor, appointment_id="no-such-visit")
    for who in (world.manager, world.nurse):
        with pytest.raises(NotFound):
            await run(get_receipt, actor=who.actor, number=number)
    assert (await run(get_receipt, actor=world.owner.actor, number=number)).number == number
    with pytest.raises(ValidationFailed):  # not completed: the ledger refuses, with its own message
        await run(refund_visit, actor=world.owner.actor, appointment_id=draw, reason="x")
