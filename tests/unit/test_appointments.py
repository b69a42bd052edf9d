"""The visit lifecycle (`app.services.appointments`, `reviews.review_visit`) on SQLite and, with
TEST_DATABASE_URL, PostgreSQL: each party's lists, every state change and every refusal, the 24-hour notice
window at pinned moments, the money settled or cancelled with the order, e-mails on a real SMTP inbox,
reminders sent once even by two concurrent runs, and who may do what.

Visits are written through the ORM the way checkout leaves them (an order, pending visits, a booking
transaction per visit and a fee) by `tests.factories.order`. Each test has a database of its own and starts
from the same fixed moment (Monday 7 January 2030, midnight UTC).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.principal import SYSTEM
from app.services.accounts import SESSION_ENDED, update_profile
from app.services.appointments import POLICY, review_visit, show_patient_phone
from app.services.appointments import _lifecycle as visits
from app.services.appointments._contact import VISIT_CLOSED
from app.services.appointments._reads import appointment_reads
from app.services.appointments.internal import add_review
from app.services.catalog.internal import ensure_reference_catalog
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.ledger import record_visit_payment
from app.services.providers import get_provider
from medivisit.main import create_app
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    OrderStatus,
    Transaction,
    TransactionStatus,
    TransactionType,
)
from models.catalog import Service, ServiceLocation
from models.mail import OutboxMessage
from models.provider import RatingRead
from tests import factories
from tests.conftest import html_part, run_cli
from tests.factories import ALL_WEEK, Person, blocked_writers, person, present, run

BASE = datetime(2030, 1, 7, tzinfo=UTC)  # Monday, midnight UTC: on the providers' 30-minute grid
PRICE = Decimal("79.00")
Status = AppointmentStatus


@dataclass(frozen=True)
class World:
    patient: Person
    other_patient: Person
    provider: Person
    other_provider: Person
    admin: Person
    provider_id: str
    other_provider_id: str
    service_id: str
    base: datetime  # the test's fixed starting moment; visits start 3 days after it

    def at(self, hours: float) -> datetime:
        return self.base + timedelta(hours=hours)


async def build_world() -> World:
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        service_id = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
    provider, other_provider = (
        await person(Role.provider, "Ada Nurse"),
        await person(Role.provider, "Bo Nurse"),
    )
    return World(
        patient=await person(Role.patient, "Jordan Lee"),
        other_patient=await person(Role.patient, "Casey Kim"),
        provider=provider,
        other_provider=other_provider,
        admin=await person(Role.admin, "Adrian Cole"),
        provider_id=await factories.provider("Ada Nurse", owner=provider, hours=ALL_WEEK),
        other_provider_id=await factories.provider("Bo Nurse", owner=other_provider, hours=ALL_WEEK),
        service_id=service_id,
        base=BASE,
    )


@pytest.fixture
async def world(identity, world_once) -> World:
    return await world_once(build_world)


async def book(
    world: World, *starts: datetime, status: AppointmentStatus = Status.pending, patient: Person | None = None
) -> tuple[str | None, list[str]]:
    """An order of 30-minute visits (one per start) with the world's provider, as checkout leaves it."""
    return await factories.order(
        patient or world.patient, world.provider_id, *starts, status=status, price=PRICE
    )


async def visit(appointment_id: str) -> Appointment:
    async with app_db.unit_of_work() as session:
        return await session.get(Appointment, appointment_id)


async def money(order_id: str | None) -> tuple[OrderStatus, dict[str, tuple[TransactionStatus, bool]]]:
    """The order's status, and each transaction's (status, settled?) by appointment id ('fee' for the fee)."""
    assert order_id is not None, "a held visit has no order, hence no money"
    async with app_db.unit_of_work() as session:
        order = await session.get(Order, order_id)
        rows = (await session.scalars(select(Transaction).where(Transaction.order_id == order_id))).all()
    # A collection at a visit may settle part of the order's fee in a row of its own: a key is pending
    # while any of its rows is, settled once all are.
    found: dict[str, tuple[TransactionStatus, bool]] = {}
    for t in rows:
        key = t.appointment_id if t.type is TransactionType.booking else "fee"
        status, settled = found.get(key, (t.status, True))
        if t.status is TransactionStatus.pending:
            status = t.status
        found[key] = (status, settled and t.settled_at is not None)
    return order.status, found


async def reminders_in_outbox() -> int:
    """How many reminder e-mails the services wrote to the outbox (each one sent is written there)."""
    async with app_db.unit_of_work() as session:
        return await session.scalar(
            select(func.count()).where(OutboxMessage.subject == "Reminder: your visit is coming up")
        )


def recipients(smtp, count: int) -> dict[str, str]:  # noqa: ANN001 - SmtpInbox
    """Subject of the e-mail each address got, after `count` arrived."""
    return {message["To"]: message["Subject"] for message in smtp.wait_for(count)}


# ---- lists --------------------------------------------------------------------------------------
async def test_lists_show_each_party_their_own_visits(world: World) -> None:
    _, (later, sooner) = await book(world, world.at(92), world.at(87))  # 3 PM and 10 AM in New York
    _, (done,) = await book(world, world.at(10), status=Status.completed)
    _, (dropped,) = await book(world, world.at(20), status=Status.cancelled)
    _, (held,) = await book(world, world.at(30), status=Status.held)
    _, (theirs,) = await book(world, world.at(110), patient=world.other_patient)

    upcoming = await run(visits.list_my_appointments, actor=world.patient.actor, when="upcoming")
    assert [a.id for a in upcoming] == [sooner, later]  # soonest first, no held slot, nobody else's
    first = upcoming[0]
    assert (first.service_name, first.provider_name, first.status) == (
        "Routine blood draw",
        "Ada Nurse",
        "pending",
    )
    assert present(first.order_number).startswith("MV-") and first.patient_name == "Jordan Lee"
    past = await run(visits.list_my_appointments, actor=world.patient.actor, when="past")
    assert [a.id for a in past] == [dropped, done]  # newest first
    assert held not in {a.id for a in upcoming + past}

    schedule = await run(visits.list_provider_schedule, actor=world.provider.actor, when="upcoming")
    assert [a.id for a in schedule] == [sooner, later, theirs]
    assert schedule[0].notes == "Gate code 1234" and schedule[2].patient_name == "Casey Kim"
    day = world.at(87).astimezone(ZoneInfo("America/New_York")).date()
    on_day = await run(visits.list_provider_schedule, actor=world.provider.actor, when="upcoming", day=day)
    assert [a.id for a in on_day] == [sooner, later]
    assert await run(visits.list_provider_schedule, actor=world.other_provider.actor, when="upcoming") == []

    with pytest.raises(PermissionDenied):
        await run(
            visits.list_provider_schedule,
            actor=world.other_provider.actor,
            when="upcoming",
            provider_id=world.provider_id,
        )
    as_admin = await run(
        visits.list_provider_schedule, actor=world.admin.actor, when="past", provider_id=world.provider_id
    )
    assert [a.id for a in as_admin] == [dropped, done]
    with pytest.raises(NotFound, match="no provider profile"):
        await run(visits.list_provider_schedule, actor=world.patient.actor, when="upcoming")
    with pytest.raises(PermissionDenied, match=SESSION_ENDED):
        await run(visits.list_my_appointments, actor=SYSTEM, when="upcoming")
    with pytest.raises(ValidationFailed):
        await run(visits.list_my_appointments, actor=world.patient.actor, when="someday")


# ---- cancelling ---------------------------------------------------------------------------------
async def test_patient_cancels_outside_the_notice_window(world: World, smtp) -> None:
    start = world.at(72)
    order_id, (visit_id,) = await book(world, start)
    read = await run(
        visits.cancel_appointment,
        actor=world.patient.actor,
        appointment_id=visit_id,
        reason="Feeling better",
        now=start - timedelta(hours=25),
    )
    assert (read.status, read.cancelled_by, read.cancel_reason) == ("cancelled", "patient", "Feeling better")
    row = await visit(visit_id)
    assert row.cancelled_at is not None
    assert await money(order_id) == (
        OrderStatus.cancelled,
        {visit_id: (TransactionStatus.cancelled, False), "fee": (TransactionStatus.cancelled, False)},
    )
    mail = recipients(smtp, 2)
    assert mail == {
        world.patient.email: "A visit was cancelled",
        world.provider.email: "A visit was cancelled",
    }
    to_provider = next(m for m in smtp.messages if m["To"] == world.provider.email)
    assert "Jordan Lee cancelled their Routine blood draw visit" in html_part(to_provider)
    assert "Reason: Feeling better" in html_part(to_provider)


async def test_inside_24_hours_the_patient_is_told_the_policy(world: World) -> None:
    start = world.at(72)
    _, (visit_id,) = await book(world, start, status=Status.confirmed)
    inside = start - timedelta(hours=23, minutes=59)
    with pytest.raises(ValidationFailed) as refused:
        await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=visit_id, now=inside)
    assert refused.value.message == POLICY
    assert (
        "up to 24 hours before they start" in refused.value.message
        and "contact support" in refused.value.message
    )
    with pytest.raises(ValidationFailed, match="up to 24 hours"):
        await run(
            visits.reschedule_appointment,
            actor=world.patient.actor,
            appointment_id=visit_id,
            starts_at=start + timedelta(days=1),
            now=inside,
        )
    with pytest.raises(ValidationFailed, match="up to 24 hours"):
        await run(
            visits.list_reschedule_slots,
            actor=world.patient.actor,
            appointment_id=visit_id,
            day=(start + timedelta(days=1)).date(),
            time_zone="UTC",
            now=inside,
        )
    assert (await visit(visit_id)).status is Status.confirmed
    # Exactly 24 hours ahead is still allowed.
    read = await run(
        visits.cancel_appointment,
        actor=world.patient.actor,
        appointment_id=visit_id,
        now=start - timedelta(hours=24),
    )
    assert read.status is Status.cancelled


async def _booked_at(visit_id: str, moment: datetime) -> None:
    """The visit's order placed at `moment` (the grace period counts from Place order)."""
    async with app_db.unit_of_work() as session:
        row = await session.get(Appointment, visit_id)
        (await session.get(Order, row.order_id)).created_at = moment


async def test_inside_24_hours_a_visit_booked_minutes_ago_can_still_be_cancelled(world: World) -> None:
    """Checkout sells times from 2 hours ahead: a visit booked by mistake can be put right for
    cancel_grace_minutes (15) after booking, even once confirmed."""
    start = world.at(72)
    _, (first,) = await book(world, start, status=Status.confirmed)
    _, (second,) = await book(world, start + timedelta(hours=3), status=Status.confirmed)
    now = start - timedelta(hours=3)
    await _booked_at(first, now - timedelta(minutes=14))
    await _booked_at(second, now - timedelta(minutes=16))
    async with app_db.unit_of_work() as session:
        rows = [await session.get(Appointment, first), await session.get(Appointment, second)]
        reads = await appointment_reads(session, rows, now=now)
    assert [r.change_refusal for r in reads] == [None, POLICY]
    read = await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=first, now=now)
    assert read.status is Status.cancelled
    with pytest.raises(ValidationFailed, match="up to 24 hours"):
        await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=second, now=now)


async def test_inside_24_hours_a_visit_the_provider_has_not_confirmed_can_be_changed(world: World) -> None:
    start = world.at(72)
    _, (visit_id,) = await book(world, start, status=Status.pending)
    await _booked_at(visit_id, start - timedelta(days=5))
    now = start - timedelta(hours=2)
    async with app_db.unit_of_work() as session:
        [read] = await appointment_reads(session, [await session.get(Appointment, visit_id)], now=now)
    assert read.change_refusal is None
    moved = await run(
        visits.reschedule_appointment,
        actor=world.patient.actor,
        appointment_id=visit_id,
        starts_at=start + timedelta(hours=4),
        now=now,
    )
    assert moved.starts_at == start + timedelta(hours=4)
    async with app_db.unit_of_work() as session:
        [started] = await appointment_reads(
            session, [await session.get(Appointment, visit_id)], now=moved.starts_at
        )
    assert started.change_refusal == "This visit has already started, so it can no longer be changed."


async def test_provider_cancels_with_a_reason_before_the_visit_starts(world: World, smtp) -> None:
    start = world.at(72)
    _, (visit_id,) = await book(world, start, status=Status.confirmed)
    shortly_before = start - timedelta(hours=2)
    with pytest.raises(ValidationFailed, match="why you are cancelling"):
        await run(
            visits.cancel_appointment,
            actor=world.provider.actor,
            appointment_id=visit_id,
            reason="   ",
            now=shortly_before,
        )
    with pytest.raises(ValidationFailed, match="already started"):
        await run(
            visits.cancel_appointment,
            actor=world.provider.actor,
            appointment_id=visit_id,
            reason="Running late",
            now=start,
        )
    read = await run(
        visits.cancel_appointment,
        actor=world.provider.actor,
        appointment_id=visit_id,
        reason="My car broke down",
        now=shortly_before,
    )
    assert (read.status, read.cancelled_by) == ("cancelled", "provider")
    assert recipients(smtp, 1) == {world.patient.email: "A visit was cancelled"}
    body = html_part(smtp.messages[0])
    assert "Ada Nurse cancelled your Routine blood draw visit." in body and "My car broke down" in body


async def test_the_order_is_cancelled_only_with_its_last_visit(world: World) -> None:
    order_id, (first, second) = await book(world, world.at(72), world.at(96))
    now = world.at(0)
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=first, now=now)
    assert await money(order_id) == (
        OrderStatus.pending,
        {
            first: (TransactionStatus.cancelled, False),
            second: (TransactionStatus.pending, False),
            "fee": (TransactionStatus.pending, False),
        },
    )
    await run(
        visits.cancel_appointment, actor=world.admin.actor, appointment_id=second, reason="Duplicate", now=now
    )
    status, transactions = await money(order_id)
    assert status is OrderStatus.cancelled and transactions["fee"] == (TransactionStatus.cancelled, False)
    assert (await visit(second)).cancelled_by == "staff"


# ---- confirm, start, complete --------------------------------------------------------------------
async def test_confirm_start_and_complete_settle_the_money(world: World, smtp) -> None:
    first_start, second_start = world.at(72), world.at(96)
    order_id, (first, second) = await book(world, first_start, second_start)
    async with app_db.unit_of_work() as session:  # a review written before the visit was done
        await add_review(session=session, provider_id=world.provider_id, rating=4, appointment_id=first)

    read = await run(
        visits.confirm_appointment, actor=world.provider.actor, appointment_id=first, now=world.at(1)
    )
    assert read.status is Status.confirmed and (await visit(first)).confirmed_at is not None
    assert recipients(smtp, 1) == {world.patient.email: "Your visit is confirmed"}
    assert "Ada Nurse confirmed your Routine blood draw visit." in html_part(smtp.messages[0])

    with pytest.raises(ValidationFailed, match="from 1 hour before"):
        await run(
            visits.start_appointment,
            actor=world.provider.actor,
            appointment_id=first,
            now=first_start - timedelta(minutes=61),
        )
    read = await run(
        visits.start_appointment,
        actor=world.provider.actor,
        appointment_id=first,
        now=first_start - timedelta(minutes=60),
    )
    assert read.status is Status.in_progress
    assert read.start_opens_at == first_start - timedelta(hours=1)
    with pytest.raises(ValidationFailed, match="completed once its start time has passed"):
        await run(
            visits.complete_appointment,
            actor=world.provider.actor,
            appointment_id=first,
            now=first_start - timedelta(minutes=1),
        )
    # Pay at visit: completed with what the provider collected in person (the visit's price and fee share).
    assert read.payment is not None and not read.payment.paid_ahead and read.payment.due == read.payment.total
    read = await run(
        visits.complete_appointment,
        actor=world.provider.actor,
        appointment_id=first,
        now=first_start + timedelta(minutes=35),
        collected=read.payment.total,
        method="cash",
    )
    assert read.status is Status.completed and (await visit(first)).completed_at is not None
    assert read.payment is not None and read.payment.due == 0
    assert await money(order_id) == (
        OrderStatus.pending,  # the other visit is still to come
        {
            first: (TransactionStatus.completed, True),
            second: (TransactionStatus.pending, False),
            "fee": (TransactionStatus.pending, False),
        },
    )
    async with app_db.unit_of_work() as session:
        profile = await get_provider(session=session, provider_id=world.provider_id)
    assert profile.rating == RatingRead(average=Decimal("4.00"), count=1)  # the review counts now

    # The admin runs the second visit through, its payment not collected: the order waits for it.
    for step in (visits.confirm_appointment, visits.start_appointment, visits.complete_appointment):
        read = await run(step, actor=world.admin.actor, appointment_id=second, now=second_start)
    assert read.payment is not None and read.payment.due == read.payment.total
    assert (await money(order_id))[0] is OrderStatus.pending
    # Recording money takes the visit's provider or process_payments, which an admin does not hold by role.
    with pytest.raises(PermissionDenied):
        await run(
            record_visit_payment,
            actor=world.admin.actor,
            appointment_id=second,
            amount=read.payment.total,
            method="card_reader",
        )
    # Once the provider records it, the fee settles and the order is paid.
    await run(
        record_visit_payment,
        actor=world.provider.actor,
        appointment_id=second,
        amount=read.payment.total,
        method="card_reader",
    )
    assert await money(order_id) == (
        OrderStatus.paid,
        {
            first: (TransactionStatus.completed, True),
            second: (TransactionStatus.completed, True),
            "fee": (TransactionStatus.completed, True),
        },
    )


async def test_an_order_with_a_cancelled_visit_is_paid_when_the_rest_are_done(world: World) -> None:
    start = world.at(72)
    order_id, (kept, dropped) = await book(world, start, world.at(96))
    await run(visits.cancel_appointment, actor=world.patient.actor, appointment_id=dropped, now=world.at(0))
    for step in (visits.confirm_appointment, visits.start_appointment):
        read = await run(step, actor=world.provider.actor, appointment_id=kept, now=start)
    assert read.payment is not None
    await run(
        visits.complete_appointment,
        actor=world.provider.actor,
        appointment_id=kept,
        now=start,
        collected=read.payment.total,
        method="cash",
    )
    assert await money(order_id) == (
        OrderStatus.paid,
        {
            kept: (TransactionStatus.completed, True),
            dropped: (TransactionStatus.cancelled, False),
            "fee": (TransactionStatus.completed, True),
        },
    )


async def test_wrong_transitions_say_what_is_possible(world: World) -> None:
    start = world.at(72)
    _, (pending,) = await book(world, start)
    _, (confirmed,) = await book(world, world.at(80), status=Status.confirmed)
    _, (started,) = await book(world, world.at(90), status=Status.in_progress)
    _, (done,) = await book(world, world.at(100), status=Status.completed)
    _, (dropped,) = await book(world, world.at(110), status=Status.cancelled)
    provider, now = world.provider.actor, world.at(0)

    async def refusal(fn: Callable[..., Awaitable[Any]], appointment_id: str, **kwargs: Any) -> str:
        with pytest.raises(ValidationFailed) as refused:
            await run(fn, actor=provider, appointment_id=appointment_id, now=now, **kwargs)
        return refused.value.message

    possible_when_pending = "This visit is pending; it can be confirmed, rescheduled or cancelled."
    assert await refusal(visits.start_appointment, pending) == possible_when_pending
    assert await refusal(visits.complete_appointment, pending) == possible_when_pending
    assert (await refusal(visits.confirm_appointment, confirmed)).startswith(
        "This visit is confirmed; it can be started from 1 hour before its start"
    )
    assert await refusal(visits.complete_appointment, confirmed) == await refusal(
        visits.confirm_appointment, confirmed
    )
    in_progress = "This visit is in progress; it can only be completed."
    assert await refusal(visits.confirm_appointment, started) == in_progress
    assert await refusal(visits.cancel_appointment, started, reason="x") == in_progress
    assert await refusal(visits.cancel_appointment, done, reason="x") == (
        "This visit is completed; it can no longer be changed."
    )
    assert await refusal(visits.start_appointment, dropped) == (
        "This visit is cancelled; it can no longer be changed."
    )
    with pytest.raises(ValidationFailed, match="This visit is completed"):
        await run(
            visits.reschedule_appointment,
            actor=world.patient.actor,
            appointment_id=done,
            starts_at=world.at(120),
            now=now,
        )
    with pytest.raises(NotFound):
        await run(visits.confirm_appointment, actor=provider, appointment_id=str(uuid.uuid4()), now=now)


async def test_who_may_do_what(world: World) -> None:
    start = world.at(72)
    _, (visit_id,) = await book(world, start)
    now = world.at(0)
    refused: tuple[tuple[Person, Callable[..., Awaitable[object]], dict[str, Any]], ...] = (
        (world.patient, visits.confirm_appointment, {}),
        (world.patient, visits.start_appointment, {}),
        (world.patient, visits.complete_appointment, {}),
        (world.other_patient, visits.cancel_appointment, {}),
        (world.other_patient, visits.list_reschedule_slots, {"day": start.date(), "time_zone": "UTC"}),
        (world.other_provider, visits.confirm_appointment, {}),
        (world.other_provider, visits.cancel_appointment, {"reason": "Not mine"}),
        (world.provider, visits.reschedule_appointment, {"starts_at": world.at(96)}),
        (world.admin, visits.reschedule_appointment, {"starts_at": world.at(96)}),
    )
    for who, fn, extra in refused:
        with pytest.raises(PermissionDenied):
            await run(fn, actor=who.actor, appointment_id=visit_id, now=now, **extra)
    with pytest.raises(PermissionDenied, match=SESSION_ENDED):
        await run(visits.cancel_appointment, actor=SYSTEM, appointment_id=visit_id, now=now)
    with pytest.raises(PermissionDenied):
        await run(
            review_visit, actor=world.other_patient.actor, appointment_id=visit_id, rating=5, comment=""
        )
    theirs = await run(visits.list_my_appointments, actor=world.other_patient.actor, when="upcoming")
    assert visit_id not in {a.id for a in theirs}
    assert (await visit(visit_id)).status is Status.pending  # nothing above changed it

    assert (
        await run(visits.confirm_appointment, actor=world.admin.actor, appointment_id=visit_id, now=now)
    ).status == "confirmed"
    read = await run(visits.cancel_appointment, actor=world.admin.actor, appointment_id=visit_id, now=now)
    assert (read.status, read.cancelled_by) == ("cancelled", "staff")


async def test_only_the_visits_provider_sees_the_patients_phone_and_each_look_is_audited(
    world: World,
) -> None:
    await run(update_profile, actor=world.patient.actor, name="Jordan Lee", phone_number="212 555 0100")
    _, (visit_id,) = await book(world, world.at(72))
    provider = world.provider.actor.from_client(ip="203.0.113.9", user_agent="Firefox/130")

    phone = await run(show_patient_phone, actor=provider, appointment_id=visit_id)
    assert (phone.e164, phone.display) == ("+12125550100", "(212) 555-0100")
    for who in (world.patient, world.other_patient, world.other_provider, world.admin):
        with pytest.raises(PermissionDenied):
            await run(show_patient_phone, actor=who.actor, appointment_id=visit_id)
    with pytest.raises(NotFound):
        await run(show_patient_phone, actor=provider, appointment_id=str(uuid.uuid4()))

    async with app_db.unit_of_work() as session:
        entries = (
            await session.scalars(
                select(AuditEntry).where(AuditEntry.action == AuditAction.patient_phone_view)
            )
        ).all()
    assert [(e.actor_id, e.target, e.ip, e.user_agent, e.details) for e in entries] == [
        (
            world.provider.account.id,
            f"appointment {visit_id}",
            "203.0.113.9",
            "Firefox/130",
            {"patient_id": world.patient.account.id, "given": True},
        )
    ]

    # Once the visit is over (cancelled or done), the number is no longer handed out.
    await run(visits.cancel_appointment, actor=world.admin.actor, appointment_id=visit_id, now=world.at(0))
    with pytest.raises(ValidationFailed, match=VISIT_CLOSED):
        await run(show_patient_phone, actor=provider, appointment_id=visit_id)


async def test_a_patient_without_a_phone_number_reads_as_none_given(world: World) -> None:
    _, (visit_id,) = await book(world, world.at(72), patient=world.other_patient)
    phone = await run(show_patient_phone, actor=world.provider.actor, appointment_id=visit_id)
    assert (phone.e164, phone.display) == ("", "")


# ---- rescheduling -------------------------------------------------------------------------------
async def test_patient_reschedules_to_an_open_time(world: World, smtp) -> None:
    start = world.at(87)
    _, (visit_id,) = await book(world, start, status=Status.confirmed)
    async with app_db.unit_of_work() as session:
        (await session.get(Appointment, visit_id)).reminder_sent_at = world.at(1)
    now = world.at(0)
    slots = await run(
        visits.list_reschedule_slots,
        actor=world.patient.actor,
        appointment_id=visit_id,
        day=start.date(),
        time_zone="UTC",
        now=now,
    )
    # Its own time is not offered; the times next to it are (the visit does not block itself).
    assert (
        start not in slots
        and start + timedelta(minutes=30) in slots
        and start - timedelta(minutes=30) in slots
    )
    assert len(slots) == 47 and all(s.date() == start.date() for s in slots)

    new_start = start + timedelta(minutes=30)
    read = await run(
        visits.reschedule_appointment,
        actor=world.patient.actor,
        appointment_id=visit_id,
        starts_at=new_start,
        now=now,
    )
    assert read.status is Status.pending  # the provider confirms the new time
    assert (read.starts_at, read.ends_at) == (new_start, new_start + timedelta(minutes=30))
    row = await visit(visit_id)
    assert (row.confirmed_at, row.reminder_sent_at) == (None, None)
    assert row.busy_until.replace(tzinfo=UTC) == new_start + timedelta(minutes=60)
    assert recipients(smtp, 2) == {
        world.patient.email: "Your visit was rescheduled",
        world.provider.email: "A patient rescheduled a visit",
    }


async def test_reschedule_refuses_times_that_are_not_open(world: World) -> None:
    start = world.at(87)
    _, (visit_id,) = await book(world, start)
    _, (other,) = await book(world, world.at(96), patient=world.other_patient)
    now = world.at(0)

    async def move(to: datetime) -> str:
        with pytest.raises(ValidationFailed) as refused:
            await run(
                visits.reschedule_appointment,
                actor=world.patient.actor,
                appointment_id=visit_id,
                starts_at=to,
                now=now,
            )
        return refused.value.message

    assert await move(start) == visits.SAME_TIME
    assert await move(world.at(96)) == visits.NOT_OPEN  # another patient's visit
    assert await move(world.at(96) + timedelta(minutes=30)) == visits.NOT_OPEN  # its travel time
    assert await move(start + timedelta(minutes=10)) == visits.NOT_OPEN  # off the half-hour grid
    assert await move(now + timedelta(minutes=60)) == visits.NOT_OPEN  # less than the booking notice
    assert await move(now + timedelta(days=31)) == visits.NOT_OPEN  # beyond the booking horizon
    assert await move(datetime(2035, 1, 1, 12, 0)) == visits.BAD_TIME  # no time zone
    assert (await visit(visit_id)).starts_at.replace(tzinfo=UTC) == start
    assert (await visit(other)).status is Status.pending


async def test_a_time_taken_while_rescheduling_is_refused_by_the_database(world: World) -> None:
    """The move is observed stuck behind the other checkout's open transaction (`blocked_writers`: a backend
    waiting on a lock in `pg_stat_activity` on PostgreSQL; on SQLite its write of `appointments` issued while
    the other transaction holds the write lock) before the test checks it has not finished."""
    start, target = world.at(72), world.at(100)
    _, (visit_id,) = await book(world, start)
    now = world.at(0)
    async with app_db.unit_of_work() as blocker:
        # Another checkout writes the target time but has not committed: the availability check cannot
        # see it, so only the database's no-overlap rule can stop the move.
        blocker.add(
            Appointment(
                patient_id=world.other_patient.id,
                provider_id=world.provider_id,
                service_id=world.service_id,
                status=Status.pending,
                starts_at=target,
                ends_at=target + timedelta(minutes=30),
                busy_until=target + timedelta(minutes=60),
                location=ServiceLocation.home,
                price=PRICE,
                original_price=PRICE,
            )
        )
        await blocker.flush()
        async with blocked_writers("appointments") as blocked:
            moving = asyncio.create_task(
                run(
                    visits.reschedule_appointment,
                    actor=world.patient.actor,
                    appointment_id=visit_id,
                    starts_at=target,
                    now=now,
                )
            )
            await blocked(1)  # the move checked availability and now waits on the uncommitted row
        assert not moving.done()
    with pytest.raises(ValidationFailed) as refused:
        await moving
    assert refused.value.message == visits.TAKEN
    row = await visit(visit_id)
    assert (row.starts_at.replace(tzinfo=UTC), row.status) == (start, Status.pending)


# ---- reminders ----------------------------------------------------------------------------------
async def test_reminders_go_once_to_visits_starting_within_24_hours(world: World, smtp) -> None:
    now = world.at(48)
    _, (soon, tomorrow) = await book(world, now + timedelta(hours=2), now + timedelta(hours=24))
    _, (confirmed,) = await book(world, now + timedelta(hours=12), status=Status.confirmed)
    _, (too_far,) = await book(world, now + timedelta(hours=25))
    _, (cancelled,) = await book(world, now + timedelta(hours=3), status=Status.cancelled)
    _, (started,) = await book(world, now + timedelta(hours=4), status=Status.in_progress)
    _, (gone,) = await book(world, now - timedelta(hours=1))

    assert await run(visits.send_due_reminders, now=now) == 3
    assert await run(visits.send_due_reminders, now=now) == 0  # idempotent
    messages = smtp.wait_for(3)
    assert {m["Subject"] for m in messages} == {"Reminder: your visit is coming up"}
    assert {m["To"] for m in messages} == {world.patient.email}
    assert "starts within 24 hours" in html_part(messages[0]) and "12 Main St" in html_part(messages[0])
    for appointment_id in (soon, tomorrow, confirmed):
        assert (await visit(appointment_id)).reminder_sent_at is not None
    for appointment_id in (too_far, cancelled, started, gone):
        assert (await visit(appointment_id)).reminder_sent_at is None
    # An hour later the next visit enters the window.
    assert await run(visits.send_due_reminders, now=now + timedelta(hours=1)) == 1
    # Delivery is part of the call (SMTP answers only once the inbox holds the message), so every e-mail
    # the runs sent is already here: exactly one more, and the outbox agrees.
    assert len(smtp.wait_for(4)) == 4
    assert await reminders_in_outbox() == 4


async def test_two_concurrent_reminder_runs_send_each_reminder_once(world: World, smtp) -> None:
    now = world.at(48)
    await book(world, *(now + timedelta(hours=hour) for hour in range(2, 8)))
    counts = await asyncio.gather(
        run(visits.send_due_reminders, now=now), run(visits.send_due_reminders, now=now)
    )
    assert sum(counts) == 6
    assert len(smtp.wait_for(6)) == 6  # both runs have returned, so nothing more is on its way
    assert await reminders_in_outbox() == 6


async def test_the_server_sends_due_reminders_in_the_background(world: World, smtp) -> None:
    _, (visit_id,) = await book(world, datetime.now(UTC) + timedelta(hours=3))
    app = create_app()
    async with app.router.lifespan_context(app):
        for _ in range(100):
            if (await visit(visit_id)).reminder_sent_at is not None:
                break
            await asyncio.sleep(0.1)
    assert (await visit(visit_id)).reminder_sent_at is not None
    assert recipients(smtp, 1) == {world.patient.email: "Reminder: your visit is coming up"}


async def test_reminders_command(world: World, smtp) -> None:
    await book(world, datetime.now(UTC) + timedelta(hours=5))
    result = await asyncio.to_thread(  # `python -m medivisit reminders`, in this process
        run_cli,
        "reminders",
        env={"DATABASE_URL": os.environ["DATABASE_URL"], "SMTP_URL": os.environ["SMTP_URL"]},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Sent 1 visit reminder(s)."
    assert recipients(smtp, 1) == {world.patient.email: "Reminder: your visit is coming up"}


# ---- reviews ------------------------------------------------------------------------------------
async def test_the_patient_reviews_a_completed_visit_once(world: World) -> None:
    _, (visit_id,) = await book(world, world.at(72))
    review = {"actor": world.patient.actor, "appointment_id": visit_id, "rating": 5, "comment": "Painless!"}
    with pytest.raises(ValidationFailed, match="once it is completed"):
        await run(review_visit, **review)
    for step in (visits.confirm_appointment, visits.start_appointment, visits.complete_appointment):
        await run(step, actor=world.provider.actor, appointment_id=visit_id, now=world.at(72))

    for bad in ({"rating": 0}, {"rating": 6}, {"comment": "x" * 2001}):
        with pytest.raises(ValidationFailed):
            await run(review_visit, **{**review, **bad})
    with pytest.raises(PermissionDenied):
        await run(review_visit, **{**review, "actor": world.provider.actor})
    read = await run(review_visit, **{**review, "comment": "  Painless!  "})
    assert (read.rating, read.comment, read.author_name, read.visit_completed) == (
        5,
        "Painless!",
        "Jordan L.",
        True,
    )
    with pytest.raises(ValidationFailed, match="already reviewed"):
        await run(review_visit, **{**review, "rating": 1})

    async with app_db.unit_of_work() as session:
        profile = await get_provider(session=session, provider_id=world.provider_id)
    assert profile.rating == RatingRead(average=Decimal("5.00"), count=1)
    (past,) = await run(visits.list_my_appointments, actor=world.patient.actor, when="past")
    assert past.reviewed
