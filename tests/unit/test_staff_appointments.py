"""Staff appointments (issue 15) through the services, on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
the permission matrix of every read and command for each role SPEC §6 names (and the roles it refuses),
the day and week lists and their filters, visit details with the patient's records only for
view_patient_logs (each such read audited), a provider's schedule, and reassign, reschedule and cancel on
the patient's behalf — the booking rules, the no-overlap rule under a concurrent booking (waited on with
`blocked_writers`, never a sleep), the ledger, and the in-app notifications and e-mails (a real aiosmtpd
server) each sends.

Every visit lives in the week of Monday 7 January 2030; `NOW` is that Monday's midnight UTC.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.appointments import (
    cancel_visit_for_patient,
    get_provider_schedule,
    get_staff_visit,
    get_staff_visit_filters,
    list_reassign_options,
    list_staff_reschedule_times,
    list_staff_visits,
    reassign_visit,
    reschedule_visit_for_patient,
)
from app.services.appointments._lifecycle import TAKEN as TIME_TAKEN
from app.services.appointments._staff_actions import NOT_FREE, REASON_REQUIRED, TAKEN
from app.services.booking import hold_slot
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.ledger._visits import _charge as visit_charge
from app.services.staff import confirm_visit
from app.services.staff._audit import list_audit
from models.account import AccountRead, Role
from models.audit import AuditAction
from models.booking import Appointment, AppointmentStatus, Transaction, TransactionStatus, TransactionType
from models.catalog import ServiceLocation
from models.identity import as_utc
from models.ledger import VisitCharge
from models.notification import Notification, NotificationKind
from models.staff import Permission
from models.staff_visits import StaffVisitQuery
from tests import factories
from tests.conftest import html_part
from tests.factories import ALL_WEEK, Person, ServiceCall, blocked_writers, person, present, run

NY = "America/New_York"
LA = "America/Los_Angeles"
NOW = datetime(2030, 1, 7, tzinfo=UTC)  # Monday, midnight UTC (Sunday 7 PM in New York)
TEN = datetime(2030, 1, 10, 15, 0, tzinfo=UTC)  # Thursday 10:00 in New York
PRICE = Decimal("79.00")
OWNER = AccountRead(id="00000000-0000-0000-0000-00000000aaaa", email="owner@medivisit.test", role=Role.owner)
S = AppointmentStatus


@dataclass(frozen=True)
class World:
    patient: Person
    ada: Person  # the visit's provider
    bo: Person  # free, offers the service, covers the ZIP code: may take it
    ada_id: str
    bo_id: str
    cy_id: str  # busy at the visit's time
    di_id: str  # does not travel to the ZIP code
    ed_id: str  # does not offer the service
    visit_id: str
    order_id: str
    staff: dict[str, Person]  # owner, management, hr, support, admin, patient, provider


async def build_world() -> World:
    patient = await person(Role.patient, "Jordan Lee")
    ada, bo = await person(Role.provider, "Ada Nurse"), await person(Role.provider, "Bo Nurse")
    ada_id = await factories.provider("Ada Nurse", owner=ada, hours=ALL_WEEK)
    bo_id = await factories.provider("Bo Nurse", owner=bo, hours=ALL_WEEK, ratings=(5,))
    cy_id = await factories.provider("Cy Busy", hours=ALL_WEEK)
    di_id = await factories.provider("Di Far", hours=ALL_WEEK, zip_codes=("60614",))
    ed_id = await factories.provider("Ed Other", hours=ALL_WEEK, offers={"iv-hydration": ("150", ())})
    order_id, (visit_id,) = await factories.order(patient, ada_id, TEN, price=PRICE)
    other = await person(Role.patient, "Casey Kim")
    await factories.visit(other, cy_id, TEN, price=PRICE)
    staff = {
        "owner": await person(Role.owner, "Olivia Bennett"),
        "management": await person(Role.management, "Morgan Hayes"),
        "hr": await person(Role.hr, "Harper Quinn"),
        "support": await person(Role.support, "Sam Rivera"),
        "admin": await person(Role.admin, "Adrian Cole"),
        "patient": patient,
        "provider": ada,
    }
    return World(patient, ada, bo, ada_id, bo_id, cy_id, di_id, ed_id, visit_id, present(order_id), staff)


@pytest.fixture
async def world(identity, world_once) -> World:
    return await world_once(build_world)


def week(**kw) -> StaffVisitQuery:  # noqa: ANN003
    return StaffVisitQuery(day=date(2030, 1, 9), view="week", time_zone=NY, **kw)


async def refused(fn, **kw) -> str:  # noqa: ANN001, ANN003
    with pytest.raises(PermissionDenied) as caught:
        await run(fn, **kw)
    return caught.value.message


async def row(appointment_id: str) -> Appointment:
    async with app_db.unit_of_work() as session:
        return await session.get(Appointment, appointment_id)


async def notes_of(user_id: str) -> list[tuple[str, str]]:
    async with app_db.unit_of_work() as session:
        found = await session.execute(
            select(Notification.kind, Notification.title).where(Notification.recipient_id == user_id)
        )
        return sorted((kind, title) for kind, title in found.all())


# ---- the permission matrix -----------------------------------------------------------------------------
# What each role may do here, by SPEC §6's grants: the reads need view_appointments, the patient's records
# view_patient_logs, a provider's schedule view_booking_schedules, every command manage_appointments. Admins,
# patients and providers are not staff: the portal refuses them whatever the visit.
MATRIX = {
    #              list   records schedule manage
    "owner": (True, True, True, True),
    "management": (True, True, False, True),
    "hr": (True, False, False, False),
    "support": (True, False, False, False),
    "admin": (False, False, False, False),
    "patient": (False, False, False, False),
    "provider": (False, False, False, False),
}


@pytest.mark.parametrize("role", list(MATRIX))
async def test_every_path_is_open_to_the_roles_spec_gives_it_and_refused_to_the_rest(
    world: World, role
) -> None:  # noqa: ANN001
    may_list, may_read_records, may_see_schedule, may_manage = MATRIX[role]
    actor = world.staff[role].actor
    reads: dict[str, ServiceCall] = {
        "list": (list_staff_visits, {"query": week()}),
        "filters": (get_staff_visit_filters, {}),
        "details": (get_staff_visit, {"appointment_id": world.visit_id}),
    }
    for fn, kw in reads.values():
        if may_list:
            await run(fn, actor=actor, **kw)
        else:
            await refused(fn, actor=actor, **kw)
    if may_list:
        page = await run(list_staff_visits, actor=actor, query=week())
        details = await run(get_staff_visit, actor=actor, appointment_id=world.visit_id)
        assert page.patient_names is may_read_records
        assert (page.items[0].patient_name is not None) is may_read_records
        assert (details.patient is not None) is may_read_records
    schedule = {
        "provider_id": world.ada_id,
        "starts": date(2030, 1, 7),
        "ends": date(2030, 1, 13),
        "time_zone": NY,
    }
    if may_see_schedule:
        await run(get_provider_schedule, actor=actor, **schedule)
    else:
        await refused(get_provider_schedule, actor=actor, **schedule)
    commands: list[ServiceCall] = [
        (confirm_visit, {"appointment_id": world.visit_id, "now": NOW}),
        (list_reassign_options, {"appointment_id": world.visit_id, "now": NOW}),
        (
            list_staff_reschedule_times,
            {"appointment_id": world.visit_id, "day": date(2030, 1, 10), "time_zone": NY, "now": NOW},
        ),
        (reassign_visit, {"appointment_id": world.visit_id, "provider_id": world.bo_id, "now": NOW}),
    ]
    if not may_manage:
        commands += [
            (
                reschedule_visit_for_patient,
                {"appointment_id": world.visit_id, "starts_at": TEN + timedelta(hours=2), "now": NOW},
            ),
            (
                cancel_visit_for_patient,
                {"appointment_id": world.visit_id, "reason": "Patient asked", "now": NOW},
            ),
        ]
        for fn, kw in commands:
            await refused(fn, actor=actor, **kw)
        assert (await row(world.visit_id)).provider_id == world.ada_id
        return
    for fn, kw in commands:
        await run(fn, actor=actor, **kw)
    assert (await row(world.visit_id)).provider_id == world.bo_id
    await run(
        reschedule_visit_for_patient,
        actor=actor,
        appointment_id=world.visit_id,
        starts_at=TEN + timedelta(hours=2),
        now=NOW,
    )
    await run(
        cancel_visit_for_patient, actor=actor, appointment_id=world.visit_id, reason="Patient asked", now=NOW
    )
    assert (await row(world.visit_id)).status is S.cancelled


async def test_an_extra_permission_opens_its_path_and_an_inactive_member_is_refused(world: World) -> None:
    helper = await person(
        Role.support, "Sky Extra", extras=(Permission.view_patient_logs, Permission.view_booking_schedules)
    )
    details = await run(get_staff_visit, actor=helper.actor, appointment_id=world.visit_id)
    assert details.patient is not None and details.patient.name == "Jordan Lee"
    await run(
        get_provider_schedule,
        actor=helper.actor,
        provider_id=world.ada_id,
        starts=date(2030, 1, 7),
        ends=date(2030, 1, 7),
        time_zone=NY,
    )
    await refused(
        reassign_visit, actor=helper.actor, appointment_id=world.visit_id, provider_id=world.bo_id, now=NOW
    )
    gone = await person(Role.management, "Gil Gone", active=False)
    await refused(list_staff_visits, actor=gone.actor, query=week())


# ---- the lists -----------------------------------------------------------------------------------------
async def test_day_and_week_views_in_the_members_time_zone_with_filters(world: World) -> None:
    manager = world.staff["management"].actor
    # 1:30 AM Thursday in New York is still Wednesday evening in Los Angeles; a held time is not a visit.
    late = datetime(2030, 1, 10, 6, 30, tzinfo=UTC)
    await factories.visit(world.patient, world.bo_id, late, status=S.confirmed, price=PRICE)
    await factories.order(world.patient, world.bo_id, TEN + timedelta(hours=3), status=S.held)
    chicago = await factories.visit(world.patient, world.di_id, TEN, price=PRICE, address=False)
    async with app_db.unit_of_work() as session:
        moved = await session.get(Appointment, chicago)
        moved.city, moved.state, moved.zip_code = "Chicago", "IL", "60614"

    page = await run(list_staff_visits, actor=manager, query=week())
    assert (page.starts, page.ends, page.total) == (date(2030, 1, 7), date(2030, 1, 13), 4)
    assert [r.starts_at for r in page.items] == sorted(r.starts_at for r in page.items)
    assert all(r.status is not S.held for r in page.items)

    def day(d: int, zone: str) -> StaffVisitQuery:
        return StaffVisitQuery(day=date(2030, 1, d), view="day", time_zone=zone)

    assert (await run(list_staff_visits, actor=manager, query=day(10, NY))).total == 4
    assert (await run(list_staff_visits, actor=manager, query=day(9, NY))).total == 0
    assert (await run(list_staff_visits, actor=manager, query=day(9, LA))).total == 1
    assert (await run(list_staff_visits, actor=manager, query=day(10, LA))).total == 3

    by = {
        "provider": week(provider_id=world.ada_id),
        "status": week(status=S.confirmed),
        "metro": week(metro="Chicago, IL"),
        "line": week(service_line="lab-testing"),
    }
    found = {name: await run(list_staff_visits, actor=manager, query=q) for name, q in by.items()}
    assert [r.id for r in found["provider"].items] == [world.visit_id]
    assert [r.starts_at for r in found["status"].items] == [late]
    assert [r.id for r in found["metro"].items] == [chicago]
    assert found["line"].total in (0, 4)  # the blood draw's line, whatever the catalogue calls it
    line = found["provider"].items[0].service_line
    filters = await run(get_staff_visit_filters, actor=manager)
    slug = next(o.value for o in filters.service_lines if o.label == line)
    assert (await run(list_staff_visits, actor=manager, query=week(service_line=slug))).total == 4
    assert {"Chicago, IL", "New York, NY"} <= {o.value for o in filters.metros}
    assert {"Ada Nurse", "Bo Nurse"} <= {o.label for o in filters.providers}
    with pytest.raises(ValidationFailed):
        await run(list_staff_visits, actor=manager, query=week(metro="Chicago"))
    with pytest.raises(ValidationFailed):
        await run(
            list_staff_visits,
            actor=manager,
            query=StaffVisitQuery(day=date(2030, 1, 9), time_zone="Mars/Base"),
        )


async def test_details_carry_the_patients_records_only_for_view_patient_logs_and_each_read_is_audited(
    world: World,
) -> None:
    manager = world.staff["management"]
    support = world.staff["support"]
    details = await run(get_staff_visit, actor=support.actor, appointment_id=world.visit_id)
    assert details.patient is None and details.visit.patient_name is None
    assert "Gate code" not in details.model_dump_json() and "12 Main St" not in details.model_dump_json()
    assert await run(list_audit, reader=OWNER, action=AuditAction.patient_records_view) == []

    for _ in range(2):
        details = await run(get_staff_visit, actor=manager.actor, appointment_id=world.visit_id)
    records = present(details.patient)
    assert records.name == "Jordan Lee" and records.notes == "Gate code 1234"
    assert (records.address_line, records.zip_code) == ("12 Main St", "10001")
    assert records.email == world.patient.email
    entries = await run(list_audit, reader=OWNER, action=AuditAction.patient_records_view)
    assert len(entries) == 2
    assert {(e.actor_email, e.target) for e in entries} == {(manager.email, world.patient.id)}
    assert entries[0].details["appointment_id"] == world.visit_id


async def test_a_providers_schedule_shows_weekly_hours_and_time_off(world: World) -> None:
    owner = world.staff["owner"].actor
    schedule = await run(
        get_provider_schedule,
        actor=owner,
        provider_id=world.ada_id,
        starts=date(2030, 1, 7),
        ends=date(2030, 1, 13),
        time_zone=NY,
    )
    assert schedule.name == "Ada Nurse" and len(schedule.weekly_hours) == 7
    assert schedule.time_off == []
    with pytest.raises(ValidationFailed):
        await run(
            get_provider_schedule,
            actor=owner,
            provider_id=world.ada_id,
            starts=date(2030, 1, 7),
            ends=date(2030, 3, 1),
            time_zone=NY,
        )


# ---- reassign ------------------------------------------------------------------------------------------
async def test_reassign_offers_only_providers_who_may_take_the_visit_and_tells_everyone(
    world: World, smtp
) -> None:
    manager = world.staff["management"].actor
    options = await run(list_reassign_options, actor=manager, appointment_id=world.visit_id, now=NOW)
    assert [o.provider_id for o in options] == [world.bo_id]  # not Ada (has it), Cy (busy), Di, Ed
    for wrong in (world.cy_id, world.di_id, world.ed_id):
        with pytest.raises(ValidationFailed) as caught:
            await run(
                reassign_visit, actor=manager, appointment_id=world.visit_id, provider_id=wrong, now=NOW
            )
        assert caught.value.message == NOT_FREE
    async with app_db.unit_of_work() as session:  # the visit's charge, as checkout writes it
        await visit_charge(session, await session.get(Appointment, world.visit_id))
    await run(confirm_visit, actor=manager, appointment_id=world.visit_id, now=NOW)
    smtp.wait_for(1)
    smtp.clear()

    read = await run(
        reassign_visit, actor=manager, appointment_id=world.visit_id, provider_id=world.bo_id, now=NOW
    )
    assert (read.provider_id, read.status, read.starts_at) == (world.bo_id, S.pending, TEN)
    async with app_db.unit_of_work() as session:
        charge = await session.get(VisitCharge, world.visit_id)
    assert charge.provider_id == world.bo_id  # its earning goes to whoever does the visit
    assert ("visit_reassigned", "Your visit on Thu Jan 10 at 10:00 AM has a new provider") in await notes_of(
        world.patient.id
    )
    assert ("visit_reassigned", "A visit on Thu Jan 10 at 10:00 AM was assigned to you") in await notes_of(
        world.bo.id
    )
    assert (
        "visit_unassigned",
        "The visit on Thu Jan 10 at 10:00 AM went to another provider",
    ) in await notes_of(world.ada.id)
    mail = {m["To"]: m for m in smtp.wait_for(3)}
    assert mail[world.patient.email]["Subject"] == "Your visit has a new provider"
    assert mail[world.bo.email]["Subject"] == "A visit was assigned to you"
    assert mail[world.ada.email]["Subject"] == "A visit went to another provider"
    assert "gave your Routine blood draw visit to Bo Nurse" in html_part(mail[world.patient.email])
    async with app_db.unit_of_work() as session:  # busy until the end of the visit and the travel buffer
        assert as_utc((await session.get(Appointment, world.visit_id)).busy_until) == TEN + timedelta(hours=1)


async def test_a_concurrent_booking_of_the_slot_never_double_books_a_reassigned_visit(world: World) -> None:
    """A patient holds Bo's 10:00 in a transaction the test keeps open; the reassignment's availability
    check still sees the time free, then waits on the database (the provider's row lock on PostgreSQL, the
    write lock on SQLite). Once the hold commits, the no-overlap rule refuses the reassignment."""
    manager = world.staff["management"].actor
    rival = await person(Role.patient, "Rita Racer")
    async with app_db.unit_of_work() as session:
        held = await hold_slot(
            session=session,
            actor=rival.actor,
            service_slug="routine-blood-draw",
            provider_id=world.bo_id,
            starts_at=TEN,
            zip_code="10001",
            location=ServiceLocation.home,
            now=NOW,
        )
        async with blocked_writers("appointments") as blocked:
            racing = asyncio.create_task(
                run(
                    reassign_visit,
                    actor=manager,
                    appointment_id=world.visit_id,
                    provider_id=world.bo_id,
                    now=NOW,
                )
            )
            await blocked(1)
        assert not racing.done()
    with pytest.raises(ValidationFailed) as caught:
        await racing
    assert caught.value.message == TAKEN
    assert held.provider_id == world.bo_id
    assert (await row(world.visit_id)).provider_id == world.ada_id
    async with app_db.unit_of_work() as session:
        at_ten = (
            await session.scalars(
                select(Appointment).where(
                    Appointment.provider_id == world.bo_id, Appointment.starts_at == TEN
                )
            )
        ).all()
    assert len(at_ten) == 1


# ---- reschedule and cancel -----------------------------------------------------------------------------
async def test_reschedule_on_the_patients_behalf_to_an_open_time(world: World, smtp) -> None:
    manager = world.staff["management"].actor
    times = await run(
        list_staff_reschedule_times,
        actor=manager,
        appointment_id=world.visit_id,
        day=date(2030, 1, 10),
        time_zone=NY,
        now=NOW,
    )
    assert TEN not in times and TEN + timedelta(hours=2) in times
    with pytest.raises(ValidationFailed):  # not on the provider's grid
        await run(
            reschedule_visit_for_patient,
            actor=manager,
            appointment_id=world.visit_id,
            starts_at=TEN + timedelta(minutes=7),
            now=NOW,
        )
    read = await run(
        reschedule_visit_for_patient,
        actor=manager,
        appointment_id=world.visit_id,
        starts_at=TEN + timedelta(hours=2),
        now=NOW,
    )
    assert (read.starts_at, read.status) == (TEN + timedelta(hours=2), S.pending)
    mail = {m["To"]: m["Subject"] for m in smtp.wait_for(2)}
    assert mail == {
        world.patient.email: "Your visit was rescheduled",
        world.ada.email: "A visit was rescheduled",
    }
    assert (NotificationKind.visit_changed, "A visit was moved to Thu Jan 10 at 12:00 PM") in await notes_of(
        world.ada.id
    )


async def test_cancel_on_the_patients_behalf_needs_a_reason_records_staff_and_settles_the_money(
    world: World, smtp
) -> None:
    manager = world.staff["management"].actor
    for reason in ("", "   "):
        with pytest.raises(ValidationFailed) as caught:
            await run(
                cancel_visit_for_patient, actor=manager, appointment_id=world.visit_id, reason=reason, now=NOW
            )
        assert caught.value.message == REASON_REQUIRED
    with pytest.raises(ValidationFailed):
        await run(
            cancel_visit_for_patient, actor=manager, appointment_id=world.visit_id, reason="x" * 501, now=NOW
        )
    read = await run(
        cancel_visit_for_patient,
        actor=manager,
        appointment_id=world.visit_id,
        reason="Patient called: travelling",
        now=NOW,
    )
    assert (read.status, read.cancelled_by, read.cancel_reason) == (
        S.cancelled,
        "staff",
        "Patient called: travelling",
    )
    async with app_db.unit_of_work() as session:
        booking = await session.scalar(
            select(Transaction).where(
                Transaction.appointment_id == world.visit_id, Transaction.type == TransactionType.booking
            )
        )
        charge = await session.get(VisitCharge, world.visit_id)
    assert booking.status is TransactionStatus.cancelled
    assert charge.voided_at is not None
    mail = {m["To"]: m for m in smtp.wait_for(2)}
    assert set(mail) == {world.patient.email, world.ada.email}
    body = html_part(mail[world.patient.email])
    assert "Our team cancelled your Routine blood draw visit" in body and "Patient called: travelling" in body
    with pytest.raises(ValidationFailed):  # already cancelled
        await run(
            cancel_visit_for_patient, actor=manager, appointment_id=world.visit_id, reason="Again", now=NOW
        )


async def test_a_concurrent_booking_of_the_new_time_never_double_books_a_rescheduled_visit(
    world: World,
) -> None:
    """As above, for a move to another time of the same provider: the patient's hold of Ada's noon commits
    while the reschedule waits on the database, and the no-overlap rule refuses the move."""
    manager = world.staff["management"].actor
    noon = TEN + timedelta(hours=2)
    rival = await person(Role.patient, "Rory Racer")
    async with app_db.unit_of_work() as session:
        await hold_slot(
            session=session,
            actor=rival.actor,
            service_slug="routine-blood-draw",
            provider_id=world.ada_id,
            starts_at=noon,
            zip_code="10001",
            location=ServiceLocation.home,
            now=NOW,
        )
        async with blocked_writers("appointments") as blocked:
            racing = asyncio.create_task(
                run(
                    reschedule_visit_for_patient,
                    actor=manager,
                    appointment_id=world.visit_id,
                    starts_at=noon,
                    now=NOW,
                )
            )
            await blocked(1)
        assert not racing.done()
    with pytest.raises(ValidationFailed) as caught:
        await racing
    assert caught.value.message == TIME_TAKEN
    assert as_utc((await row(world.visit_id)).starts_at) == TEN
