"""The staff portal's services on SQLite and, with TEST_DATABASE_URL, PostgreSQL: staff management (add by
e-mail or invitation, role and permission changes, deactivation, removal, the rules on owners and on
oneself, audit entries), personal task lists, the dashboard's figures at a pinned moment in two time zones,
today's visits, opening and confirming a visit, the audit log's filters and paging.

Visits of the dashboard test live in a week of 2033 no other test uses, so the figures are exact.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

from app import db as app_db
from app.principal import SYSTEM
from app.services.accounts.internal import get_account
from app.services.catalog.internal import ensure_reference_catalog
from app.services.errors import NotFound, PermissionDenied, ServiceError, ValidationFailed
from app.services.providers import create_provider
from app.services.staff import (
    ALREADY_STAFF,
    EMPTY_DESCRIPTION,
    INACTIVE,
    OWN_ACCESS,
    OWNER_ROLE_DENIED,
    PORTAL_DENIED,
    REMOVE_SELF,
    add_staff,
    add_task,
    confirm_visit,
    count_tasks,
    delete_task,
    edit_task,
    get_staff_access,
    get_staff_dashboard,
    list_staff,
    list_tasks,
    list_todays_appointments,
    open_visit,
    read_audit_log,
    remove_staff,
    set_task_done,
    update_staff,
)
from app.services.staff._audit import list_audit
from models.account import AccountRead, Role
from models.audit import AuditAction, AuditEntry
from models.booking import Appointment, AppointmentStatus
from models.catalog import Service, ServiceLocation
from models.identity import User
from models.staff import ROLE_GRANTS, Permission, StaffMember, StaffMemberRead
from tests.conftest import html_part
from tests.factories import Person, person, present, run

NY = "America/New_York"
PRICE = Decimal("80")


async def refused(error: type[ServiceError], fn, **kwargs) -> str:  # noqa: ANN001
    with pytest.raises(error) as caught:
        await run(fn, **kwargs)
    return caught.value.message


async def all_staff(manager: Person) -> dict[str, StaffMemberRead]:
    """Every member on every page of the staff list, by e-mail."""
    found: dict[str, StaffMemberRead] = {}
    page = 1
    while True:
        listing = await run(list_staff, actor=manager.actor, page=page)
        found |= {m.email: m for m in listing.members}
        if not listing.has_more:
            return found
        page += 1


async def audit_of(action: AuditAction, target: str) -> list:
    owner = AccountRead(id=str(uuid.uuid4()), email="auditor@medivisit.test", role=Role.owner)
    entries = await run(list_audit, reader=owner, action=action)
    return [e for e in entries if e.target == target]


# ---- staff management ------------------------------------------------------------------------------


async def test_hr_adds_an_existing_patient_as_support_and_it_is_audited(identity) -> None:
    hr = await person(Role.hr, "Harper Quinn")
    patient = await person(Role.patient, "Jordan Lee")

    member = await run(add_staff, actor=hr.actor, email=patient.email.upper(), role="support")

    assert (member.user_id, member.role, member.status, member.active) == (
        patient.id,
        Role.support,
        "active",
        True,
    )
    assert set(member.permissions) == ROLE_GRANTS[Role.support] and member.extra_permissions == []
    assert present(await run(get_account, user_id=patient.id)).role == Role.support
    access = await run(get_staff_access, actor=patient.actor)
    assert access.permissions == ROLE_GRANTS[Role.support]
    [entry] = await audit_of(AuditAction.staff_add, patient.email)
    assert entry.actor_email == hr.email
    assert entry.details == {"user_id": patient.id, "role": "support", "permissions": [], "invited": False}
    [change] = await audit_of(AuditAction.role_change, patient.email)
    assert change.details["from"] == "patient" and change.details["to"] == "support"
    assert (
        await refused(ValidationFailed, add_staff, actor=hr.actor, email=patient.email, role="hr")
        == ALREADY_STAFF
    )


async def test_someone_without_an_account_is_invited_by_email(identity, smtp) -> None:
    owner = await person(Role.owner)
    email = f"new-hire-{uuid.uuid4().hex[:8]}@medivisit.test"

    member = await run(add_staff, actor=owner.actor, email=email, role="management", name="Morgan Hayes")

    assert (member.email, member.name, member.role) == (email, "Morgan Hayes", Role.management)
    [message] = smtp.wait_for(1)
    assert message["To"] == email and "invited" in message["Subject"].lower()
    assert "type=invite" in html_part(message)
    assert (await all_staff(owner))[email].role == Role.management
    [entry] = await audit_of(AuditAction.staff_add, email)
    assert entry.details["invited"] is True


async def test_only_an_owner_hands_out_or_takes_away_the_owner_role(identity) -> None:
    hr, owner = await person(Role.hr), await person(Role.owner)
    patient, other_owner = await person(Role.patient), await person(Role.owner)

    assert await refused(PermissionDenied, add_staff, actor=hr.actor, email=patient.email, role="owner") == (
        OWNER_ROLE_DENIED
    )
    await refused(PermissionDenied, remove_staff, actor=hr.actor, user_id=other_owner.id)
    await refused(PermissionDenied, update_staff, actor=hr.actor, user_id=other_owner.id, role="support")
    assert (await run(add_staff, actor=owner.actor, email=patient.email, role="owner")).role == Role.owner
    # An owner removes another owner, never themselves: so the portal always keeps an owner.
    assert (await run(remove_staff, actor=owner.actor, user_id=other_owner.id)).role == Role.owner
    assert await refused(PermissionDenied, remove_staff, actor=owner.actor, user_id=owner.id) == REMOVE_SELF


@pytest.mark.parametrize("role", [Role.provider, Role.admin])
async def test_providers_and_admins_keep_their_role(identity, role) -> None:
    owner, someone = await person(Role.owner), await person(role)
    message = await refused(
        ValidationFailed, add_staff, actor=owner.actor, email=someone.email, role="support"
    )
    assert message == f"Only a patient account can join the staff; this account is a {role.value}."
    assert present(await run(get_account, user_id=someone.id)).role == role


async def test_an_update_changes_role_and_permissions_within_what_the_manager_holds(identity) -> None:
    hr, member = await person(Role.hr), await person(Role.support, "Sam Rivera")
    management = await person(Role.management, "Morgan Hayes", extras=(Permission.manage_staff,))

    # HR holds approve_documents, so may hand it out...
    updated = await run(
        update_staff, actor=hr.actor, user_id=member.id, extra_permissions=["approve_documents"]
    )
    assert updated.extra_permissions == [Permission.approve_documents]
    # ...but not the management role: it grants permissions HR does not hold (e.g. manage_appointments,
    # which would let the new manager cancel any patient's visit).
    message = await refused(
        PermissionDenied, update_staff, actor=hr.actor, user_id=member.id, role="management"
    )
    assert message.startswith("You cannot give the management role: it holds permissions you do not hold:")
    assert "manage_appointments" in message and "view_revenue" in message
    assert not (await run(get_staff_access, actor=member.actor)).can(Permission.view_revenue)
    # Nor can HR put a new member on the staff as management.
    outsider = await person(Role.patient)
    message = await refused(
        PermissionDenied, add_staff, actor=hr.actor, email=outsider.email, role="management"
    )
    assert message.startswith("You cannot give the management role")

    owner = await person(Role.owner)
    promoted = await run(update_staff, actor=owner.actor, user_id=member.id, role="management")
    assert promoted.role == Role.management and promoted.extra_permissions == [Permission.approve_documents]
    assert set(promoted.permissions) == ROLE_GRANTS[Role.management] | {Permission.approve_documents}
    assert (await run(get_staff_access, actor=member.actor)).can(Permission.view_revenue)
    entries = await audit_of(AuditAction.staff_update, member.email)
    assert [e.details for e in entries] == [
        {"user_id": member.id, "role": {"from": "support", "to": "management"}},
        {"user_id": member.id, "permissions": {"added": ["approve_documents"], "removed": []}},
    ]
    # A management member holds permissions HR does not hold, so changing them is an owner's (issue 27:
    # this used to let HR strip a manager's extras); keeping the role while doing it gives nothing new.
    message = await refused(
        PermissionDenied,
        update_staff,
        actor=hr.actor,
        user_id=member.id,
        role="management",
        extra_permissions=[],
    )
    assert message.startswith("Only an owner can change Sam Rivera: they hold permissions you do not hold:")
    kept = await run(
        update_staff, actor=owner.actor, user_id=member.id, role="management", extra_permissions=[]
    )
    assert kept.role == Role.management and kept.extra_permissions == []
    # A management member with manage_staff holds everything the management role grants: they may give it.
    assert (
        await run(update_staff, actor=management.actor, user_id=member.id, role="support")
    ).role == Role.support
    assert (await run(update_staff, actor=management.actor, user_id=member.id, role="management")).role == (
        Role.management
    )
    # HR does not hold process_payments, so cannot hand it out (to a support member, whom HR may change);
    # an owner can.
    await run(update_staff, actor=management.actor, user_id=member.id, role="support")
    message = await refused(
        PermissionDenied,
        update_staff,
        actor=hr.actor,
        user_id=member.id,
        extra_permissions=["process_payments"],
    )
    assert message == "You cannot grant permissions you do not hold: process_payments."
    granted = await run(
        update_staff, actor=owner.actor, user_id=member.id, extra_permissions=["process_payments"]
    )
    assert granted.extra_permissions == [Permission.process_payments]


async def test_a_deactivated_member_loses_every_permission_until_reactivated(identity) -> None:
    hr, member = await person(Role.hr), await person(Role.support)

    inactive = await run(update_staff, actor=hr.actor, user_id=member.id, active=False)

    assert (inactive.status, inactive.permissions) == ("inactive", [])
    assert await refused(PermissionDenied, get_staff_access, actor=member.actor) == INACTIVE
    await refused(PermissionDenied, list_tasks, actor=member.actor)
    await run(update_staff, actor=hr.actor, user_id=member.id, active=True)
    assert (await run(get_staff_access, actor=member.actor)).permissions == ROLE_GRANTS[Role.support]


async def test_nobody_changes_or_removes_their_own_access(identity) -> None:
    hr = await person(Role.hr)
    assert (
        await refused(PermissionDenied, update_staff, actor=hr.actor, user_id=hr.id, active=False)
        == OWN_ACCESS
    )
    assert (
        await refused(
            PermissionDenied, update_staff, actor=hr.actor, user_id=hr.id, extra_permissions=["view_revenue"]
        )
        == OWN_ACCESS
    )
    assert await refused(PermissionDenied, remove_staff, actor=hr.actor, user_id=hr.id) == REMOVE_SELF


async def test_a_removed_member_is_a_patient_again_and_leaves_the_portal(identity) -> None:
    hr, member = await person(Role.hr), await person(Role.support, extras=(Permission.view_analytics,))

    removed = await run(remove_staff, actor=hr.actor, user_id=member.id)

    assert removed.role == Role.support
    assert present(await run(get_account, user_id=member.id)).role == Role.patient
    assert await refused(PermissionDenied, get_staff_access, actor=member.actor) == PORTAL_DENIED
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(StaffMember).where(StaffMember.user_id == member.id)) is None
    assert member.email not in await all_staff(hr)
    [entry] = await audit_of(AuditAction.staff_remove, member.email)
    assert entry.details == {"user_id": member.id, "role": "support", "permissions": ["view_analytics"]}
    await refused(NotFound, remove_staff, actor=hr.actor, user_id=member.id)


async def test_a_staff_role_given_on_the_command_line_is_listed_and_can_be_managed(identity) -> None:
    hr, member = await person(Role.hr), await person(Role.support, staff_row=False)

    listed = (await all_staff(hr))[member.email]

    assert (listed.id, listed.active, listed.extra_permissions) == (member.id, True, [])
    updated = await run(update_staff, actor=hr.actor, user_id=member.id, extra_permissions=["view_analytics"])
    assert updated.id != member.id and updated.extra_permissions == [Permission.view_analytics]


# ---- tasks ------------------------------------------------------------------------------------------


async def test_a_member_keeps_their_own_task_list(identity) -> None:
    me, colleague = await person(Role.support), await person(Role.support)
    low = await run(add_task, actor=me.actor, description="  File the   weekly report ", priority="low")
    high = await run(add_task, actor=me.actor, description="Call back Mrs. Diaz", priority="high")
    medium = await run(add_task, actor=me.actor, description="Restock kits")

    assert low.description == "File the weekly report" and medium.priority == "medium"
    assert [t.id for t in await run(list_tasks, actor=me.actor)] == [high.id, medium.id, low.id]

    done = await run(set_task_done, actor=me.actor, task_id=high.id, done=True)
    assert done.completed
    assert [t.id for t in await run(list_tasks, actor=me.actor)] == [medium.id, low.id]
    assert [t.id for t in await run(list_tasks, actor=me.actor, include_done=True)] == [
        medium.id,
        low.id,
        high.id,
    ]
    counts = await run(count_tasks, actor=me.actor)
    assert (counts.completed, counts.remaining) == (1, 2)

    edited = await run(
        edit_task, actor=me.actor, task_id=low.id, description="File the report", priority="high"
    )
    assert (edited.description, edited.priority) == ("File the report", "high")
    await run(delete_task, actor=me.actor, task_id=medium.id)
    assert [t.id for t in await run(list_tasks, actor=me.actor)] == [low.id]

    assert await run(list_tasks, actor=colleague.actor) == []
    await refused(NotFound, set_task_done, actor=colleague.actor, task_id=low.id, done=True)
    await refused(NotFound, delete_task, actor=colleague.actor, task_id=low.id)
    assert await refused(ValidationFailed, add_task, actor=me.actor, description="   ") == EMPTY_DESCRIPTION
    await refused(ValidationFailed, add_task, actor=me.actor, description="x", priority="urgent")
    await refused(ValidationFailed, add_task, actor=me.actor, description="x" * 301)


# ---- the dashboard ----------------------------------------------------------------------------------

NOW = datetime(2033, 6, 15, 15, 0, tzinfo=UTC)  # Wednesday 11:00 in New York


def ny(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment of June 2033 given in New York time."""
    return datetime(2033, 6, day, hour, minute, tzinfo=ZoneInfo(NY)).astimezone(UTC)


@dataclass
class Clinic:
    provider_id: str
    service_id: str


async def clinic() -> Clinic:
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        provider = await create_provider(
            session=session,
            actor=SYSTEM,
            first_name="Priya",
            last_name="Shah",
            provider_type="nurse",
            verified=True,
        )
        service_id = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
    return Clinic(provider.id, service_id)


async def visit(place: Clinic, patient: Person, start: datetime, status: AppointmentStatus) -> str:
    async with app_db.unit_of_work() as session:
        row = Appointment(
            patient_id=patient.id,
            provider_id=place.provider_id,
            service_id=place.service_id,
            status=status,
            starts_at=start,
            ends_at=start + timedelta(minutes=30),
            busy_until=start + timedelta(minutes=60),
            hold_expires_at=start if status == AppointmentStatus.held else None,
            location=ServiceLocation.home,
            address_line="12 Main St",
            city="New York",
            state="NY",
            zip_code="10001",
            notes="Gate code 1234",
            price=PRICE,
            original_price=PRICE,
        )
        session.add(row)
        await session.flush()
        return row.id


async def created_at(user: Person, moment: datetime) -> None:
    async with app_db.unit_of_work() as session:
        await session.execute(update(User).where(User.id == user.id).values(created_at=moment))


async def test_dashboard_figures_at_a_pinned_moment_in_the_members_time_zone(identity) -> None:
    S = AppointmentStatus  # noqa: N806
    place = await clinic()
    p = [await person(Role.patient, f"Patient {n}") for n in range(9)]
    await visit(place, p[1], ny(15, 8), S.completed)  # today
    await visit(place, p[2], ny(15, 9), S.confirmed)  # today, due and not done
    await visit(place, p[3], ny(15, 10), S.cancelled)  # never counts
    await visit(place, p[1], ny(15, 13), S.pending)  # today, later
    await visit(place, p[4], ny(15, 16), S.held)  # a checkout in progress: never counts
    await visit(place, p[2], ny(15, 23, 30), S.confirmed)  # today in New York, tomorrow in UTC
    await visit(place, p[5], ny(14, 21), S.completed)  # yesterday in New York, today in UTC
    await visit(place, p[1], ny(13, 10), S.completed)  # Monday of this week
    await visit(place, p[2], ny(8, 10), S.completed)  # last week
    await visit(place, p[5], ny(9, 10), S.cancelled)  # last week, cancelled
    await visit(place, p[6], ny(10, 10), S.confirmed)  # last week, missed
    await visit(place, p[7], NOW - timedelta(days=100), S.completed)  # too long ago to be active
    await visit(place, p[8], NOW - timedelta(days=30), S.completed)
    newcomer, night_owl, provider = (
        await person(Role.patient),
        await person(Role.patient),
        await person(Role.provider),
    )
    await created_at(newcomer, ny(15, 9))
    await created_at(night_owl, ny(14, 23))  # yesterday in New York, today in UTC
    await created_at(provider, ny(15, 9))  # not a patient
    hr = await person(Role.hr)
    await run(add_task, actor=hr.actor, description="Done already")
    await run(add_task, actor=hr.actor, description="Still to do")
    [first, _] = await run(list_tasks, actor=hr.actor)
    await run(set_task_done, actor=hr.actor, task_id=first.id, done=True)

    in_ny = await run(get_staff_dashboard, actor=hr.actor, time_zone=NY, now=NOW)
    in_utc = await run(get_staff_dashboard, actor=hr.actor, time_zone="UTC", now=NOW)

    assert in_ny.today == date(2033, 6, 15)
    assert (in_ny.appointments, in_ny.completed_appointments) == (4, 1)
    assert (in_utc.appointments, in_utc.completed_appointments) == (4, 2)
    assert in_ny.active_patients == in_utc.active_patients == 5  # patients 1, 2, 5, 6 and 8
    assert (in_ny.new_patients_today, in_utc.new_patients_today) == (1, 2)
    assert (in_ny.tasks_completed, in_ny.upcoming_tasks) == (1, 1)
    # This week 3 of 4 due visits done (Mon, Tue night, 8:00; 9:00 missed), last week 1 of 2.
    assert (in_ny.activity_rate, in_ny.activity_change) == (75, 25)

    support = await person(Role.support)  # no view_analytics: no activity figure
    figures = await run(get_staff_dashboard, actor=support.actor, time_zone=NY, now=NOW)
    assert (figures.appointments, figures.activity_rate, figures.activity_change) == (4, None, None)
    quiet = await run(
        get_staff_dashboard, actor=hr.actor, time_zone=NY, now=datetime(2033, 8, 1, 12, tzinfo=UTC)
    )
    assert (quiet.appointments, quiet.activity_rate, quiet.activity_change) == (0, None, None)

    today = await run(list_todays_appointments, actor=support.actor, time_zone=NY, now=NOW)
    assert [(v.patient_name, v.status) for v in today] == [
        ("Patient 1", S.completed),
        ("Patient 2", S.confirmed),
        ("Patient 1", S.pending),
        ("Patient 2", S.confirmed),
    ]
    assert today[0].service_name == "Routine blood draw"


async def test_opening_a_visit_is_audited_and_confirming_needs_manage_appointments(identity, smtp) -> None:
    place = await clinic()
    patient = await person(Role.patient, "Jordan Lee")
    support, management = await person(Role.support), await person(Role.management)
    pending = await visit(place, patient, datetime(2033, 7, 6, 14, tzinfo=UTC), AppointmentStatus.pending)

    # Without view_patient_logs (support): the visit, not the patient's address or notes, and no record read.
    brief = await run(open_visit, actor=support.actor, appointment_id=pending)
    assert (brief.patient_name, brief.notes, brief.address_line) == ("Jordan Lee", "", "")
    assert await audit_of(AuditAction.patient_records_view, patient.id) == []
    details = await run(open_visit, actor=management.actor, appointment_id=pending)
    assert (details.patient_name, details.notes) == ("Jordan Lee", "Gate code 1234")
    [entry] = await audit_of(AuditAction.patient_records_view, patient.id)
    assert entry.actor_email == management.email and entry.details["appointment_id"] == pending

    await refused(PermissionDenied, confirm_visit, actor=support.actor, appointment_id=pending)
    confirmed = await run(confirm_visit, actor=management.actor, appointment_id=pending)
    assert confirmed.status == AppointmentStatus.confirmed
    [message] = smtp.wait_for(1)
    assert message["To"] == patient.email
    await refused(ValidationFailed, confirm_visit, actor=management.actor, appointment_id=pending)
    await refused(NotFound, open_visit, actor=support.actor, appointment_id=str(uuid.uuid4()))


# ---- the audit log ------------------------------------------------------------------------------------


async def test_the_audit_log_is_the_owners_with_filters_and_pages(identity) -> None:
    owner, hr = await person(Role.owner), await person(Role.hr)
    marker = f"audit-{uuid.uuid4().hex[:8]}@medivisit.test"
    moment = datetime(2033, 2, 3, 12, tzinfo=UTC)
    async with app_db.unit_of_work() as session:
        # Three entries written in the same instant, and one a day later.
        for n in range(3):
            session.add(
                AuditEntry(actor_email=marker, action="staff_update", target=f"t{n}", created_at=moment)
            )
        session.add(
            AuditEntry(
                actor_email=marker, action="staff_add", target="t3", created_at=moment + timedelta(days=1)
            )
        )

    await refused(PermissionDenied, read_audit_log, actor=hr.actor, time_zone=NY)
    everything = await run(read_audit_log, actor=owner.actor, time_zone=NY, actor_query=marker)
    assert [e.target for e in everything.entries][0] == "t3" and len(everything.entries) == 4
    assert not everything.has_more
    updates = await run(
        read_audit_log, actor=owner.actor, time_zone=NY, actor_query=marker, action="staff_update"
    )
    assert sorted(e.target for e in updates.entries) == ["t0", "t1", "t2"]
    day = await run(
        read_audit_log,
        actor=owner.actor,
        time_zone=NY,
        actor_query=marker,
        since=date(2033, 2, 4),
        until=date(2033, 2, 4),
    )
    assert [e.target for e in day.entries] == ["t3"]
    # Paging by the last entry seen skips nothing written in the same instant.
    seen, cursor = [], None
    async with app_db.unit_of_work() as session:
        auditor = present(await get_account(session=session, user_id=owner.id))
        while True:
            page = await list_audit(
                session=session, reader=auditor, actor_query=marker, limit=1, older_than=cursor
            )
            if not page:
                break
            seen.append(page[0].target)
            cursor = page[0].id
    assert sorted(seen) == ["t0", "t1", "t2", "t3"] and seen[0] == "t3"
