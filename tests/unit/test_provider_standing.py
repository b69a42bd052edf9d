"""Keeping providers in good standing (issue 13, staff side), on SQLite and, with TEST_DATABASE_URL,
PostgreSQL: the onboarding nudges (a draft idle for three days, at most weekly), the expiry reminders (90, 30
and 7 days before, each once), the lapse at expiry and its restoration, the licence-state rule in search and
booking, suspension and reinstatement (unlisted, booking refused, the patients and staff told), Provider
Management's list, and who may do what (support: nothing; the audit: view_provider_logs).

Time is each job's `now=`; visits are booked on Monday 7 January 2030 as in test_booking.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import update

from app import db as app_db
from app.services.booking import CheckoutLine, checkout_options, hold_slot, place_order
from app.services.enrollment import (
    approve_document,
    get_applicant_timeline,
    get_managed_provider,
    get_onboarding_pipeline,
    list_managed_providers,
    list_provider_audit,
    reinstate_provider,
    suspend_provider,
)
from app.services.enrollment.internal import (
    lapse_expired_credentials,
    nudge_idle_drafts,
    restore_standing_if_current,
    send_expiry_reminders,
)
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.notifications import list_notifications
from app.services.providers import search_providers
from models.account import Role
from models.booking import AppointmentStatus
from models.catalog import ServiceLocation
from models.enrollment import ApplicationStatus, DocumentKind, DocumentStatus, EventKind, ProviderLicense
from models.notification import NotificationKind
from models.provider import ProviderQuery
from models.staff import Permission
from models.standing import ManagedProviderQuery, ProviderStanding
from tests import factories
from tests.factories import NY, ZIP, person, provider, run

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
MONDAY = date(2030, 1, 7)
NINE = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)  # Monday 9:00 in New York
HOBOKEN = "07030"  # New Jersey


async def kinds_of(who, kind: NotificationKind) -> list[str]:  # noqa: ANN001 - a Person
    page = await run(list_notifications, actor=who.actor, tab="all")
    return [item.title for item in page.items if item.kind == kind]


async def found(zip_code: str = ZIP) -> list[str]:
    page = await run(search_providers, query=ProviderQuery(zip_code=zip_code), now=NOW)
    return [card.id for card in page.items]


async def bookable(provider_id: str, zip_code: str = ZIP, day: date = MONDAY) -> bool:
    options = await run(
        checkout_options,
        service_slug="routine-blood-draw",
        zip_code=zip_code,
        location=ServiceLocation.home,
        day=day,
        time_zone=NY,
        provider_id=provider_id,
        now=NOW,
    )
    return any(p.provider_id == provider_id and p.times for p in options.providers)


async def hold(patient, provider_id: str, zip_code: str = ZIP, starts_at: datetime = NINE):  # noqa: ANN001, ANN201
    async with app_db.unit_of_work() as session:
        return await hold_slot(
            session=session,
            actor=patient.actor,
            service_slug="routine-blood-draw",
            provider_id=provider_id,
            starts_at=starts_at,
            zip_code=zip_code,
            location=ServiceLocation.home,
            now=NOW,
        )


# ---- onboarding ------------------------------------------------------------------------------------------
async def test_idle_drafts_are_nudged_at_most_once_a_week(identity) -> None:
    start = datetime(2030, 1, 1, 9, 0, tzinfo=UTC)
    idle = await person(Role.patient, "Ada Nurse")
    busy = await person(Role.patient, "Bo Busy")
    sent = await person(Role.patient, "Cy Sent")
    draft = await factories.bare_application(idle, at=start)
    await factories.bare_application(busy, at=start + timedelta(days=2))
    await factories.bare_application(sent, status=ApplicationStatus.submitted, at=start)

    nudge = lambda days: run(nudge_idle_drafts, now=start + timedelta(days=days))  # noqa: E731
    assert await nudge(2.9) == 0
    assert await nudge(3) == 1  # Ada's draft: idle for three days
    assert await nudge(3.5) == 0
    assert await nudge(5) == 1  # Bo's, three days after his last change; Ada's waits for a week
    assert await nudge(9.9) == 0
    assert await nudge(10) == 1  # Ada again, a week after her first nudge
    assert (
        await kinds_of(idle, NotificationKind.enrollment_reminder)
        == ["Your provider application is waiting"] * 2
    )
    assert await kinds_of(sent, NotificationKind.enrollment_reminder) == []

    owner = await person(Role.owner)
    timeline = await run(get_applicant_timeline, actor=owner.actor, application_id=draft)
    assert [e.kind for e in timeline.events] == [EventKind.nudged, EventKind.nudged, EventKind.created]
    assert timeline.events[0].actor == "System" and timeline.events[-1].actor == "Applicant"
    assert timeline.last_nudged_at == start + timedelta(days=10)


async def test_the_pipeline_counts_every_status_and_shows_age_in_status(identity) -> None:
    hr = await person(Role.hr)  # manage_onboarding
    start = datetime(2030, 1, 1, tzinfo=UTC)
    for index, status in enumerate(
        (
            ApplicationStatus.draft,
            ApplicationStatus.draft,
            ApplicationStatus.submitted,
            ApplicationStatus.approved,
        )
    ):
        applicant = await person(Role.patient, f"Applicant {index}")
        await factories.bare_application(
            applicant, status=status, name=f"Applicant {index}", at=start + timedelta(days=index)
        )
    pipeline = await run(get_onboarding_pipeline, actor=hr.actor, now=start + timedelta(days=10))
    counts = {column.status: column.count for column in pipeline.columns}
    assert counts[ApplicationStatus.draft] == 2 and counts[ApplicationStatus.submitted] == 1
    assert counts[ApplicationStatus.rejected] == 0 and pipeline.total == 4
    drafts = next(c for c in pipeline.columns if c.status == ApplicationStatus.draft).cards
    assert [(c.name, c.days_in_status) for c in drafts] == [("Applicant 0", 10), ("Applicant 1", 9)]


# ---- good standing ---------------------------------------------------------------------------------------
async def test_expiry_reminders_go_out_90_30_and_7_days_before_each_once(identity) -> None:
    owner = await person(Role.provider, "Ada Nurse")
    expires = date(2030, 6, 30)
    pid = await provider(owner=owner, licenses=[("NY", expires)])
    await factories.credential_document(
        pid, kind=DocumentKind.cpr_bls, expires_on=expires + timedelta(days=10)
    )

    def at(days_before: int, hour: int = 9) -> datetime:
        return datetime.combine(expires - timedelta(days=days_before), datetime.min.time(), UTC) + timedelta(
            hours=hour
        )

    remind = lambda moment: run(send_expiry_reminders, now=moment)  # noqa: E731
    assert await remind(at(91)) == 0
    assert await remind(at(90)) == 1  # the licence
    assert await remind(at(90, 15)) == 0
    assert await remind(at(80)) == 1  # the CPR certificate, 90 days before its own date
    assert await remind(at(60)) == 0
    assert await remind(at(30)) == 1
    assert await remind(at(29)) == 0
    assert await remind(at(20)) == 1  # the certificate's 30 days
    assert await remind(at(7)) == 1
    assert await remind(at(0)) == 0  # the licence's last day: its 7-day reminder went out
    assert await remind(at(-3)) == 1  # the certificate's 7 days
    titles = await kinds_of(owner, NotificationKind.credential_expiring)
    assert titles.count("Your RN licence (NY) expires in 90 days") == 1
    assert titles.count("Your RN licence (NY) expires in 7 days") == 1
    assert titles.count("Your CPR/BLS certificate expires in 30 days") == 1
    assert len(titles) == 6


async def test_an_expired_licence_lapses_the_provider_until_a_current_one_is_recorded(identity) -> None:
    owner = await person(Role.provider, "Ada Nurse")
    manager = await person(Role.management, "Morgan Hayes")  # manage_providers
    support = await person(Role.support)
    expires = date(2030, 1, 6)
    pid = await provider(owner=owner, licenses=[("NY", expires)], offers={"routine-blood-draw": ("79", ())})
    assert await run(lapse_expired_credentials, now=datetime(2030, 1, 6, 23, tzinfo=UTC)) == 0
    assert await found() == [pid]

    assert await run(lapse_expired_credentials, now=NOW) == 1
    assert await run(lapse_expired_credentials, now=NOW + timedelta(hours=1)) == 0  # handled once
    assert await found() == []
    assert not await bookable(pid)
    assert await kinds_of(manager, NotificationKind.provider_standing) == ["Credentials lapsed: Ada Nurse"]
    assert await kinds_of(support, NotificationKind.provider_standing) == []
    assert await kinds_of(owner, NotificationKind.credentials_lapsed) == [
        "Your profile is hidden: a credential expired"
    ]
    page = await run(get_managed_provider, actor=manager.actor, provider_id=pid, now=NOW)
    assert page.standing == ProviderStanding.lapsed and "No valid licence" in page.standing_problems[0]

    assert await run(restore_standing_if_current, provider_id=pid, now=NOW) is False
    await factories.license_for(pid, "NY", date(2032, 1, 31))
    assert await run(restore_standing_if_current, provider_id=pid, now=NOW) is True
    assert await found() == [pid]
    assert await bookable(pid)


async def test_an_expired_document_lapses_unless_a_current_one_of_its_kind_is_approved(identity) -> None:
    pid = await provider()
    await factories.credential_document(
        pid, kind=DocumentKind.malpractice_insurance, expires_on=date(2030, 1, 1)
    )
    await factories.credential_document(
        pid, kind=DocumentKind.malpractice_insurance, expires_on=date(2031, 1, 1)
    )
    old_cpr = await factories.credential_document(pid, kind=DocumentKind.cpr_bls, expires_on=date(2030, 1, 2))
    assert old_cpr
    assert await run(lapse_expired_credentials, now=NOW) == 1  # the CPR certificate has no successor
    assert await found() == []
    await factories.credential_document(pid, kind=DocumentKind.cpr_bls, expires_on=date(2032, 1, 1))
    assert await run(restore_standing_if_current, provider_id=pid, now=NOW) is True
    assert await found() == [pid]


async def test_approving_the_replacement_document_restores_a_lapsed_provider(identity) -> None:
    pid = await provider()
    await factories.credential_document(pid, kind=DocumentKind.cpr_bls, expires_on=date(2030, 1, 2))
    assert await run(lapse_expired_credentials, now=NOW) == 1
    assert await found() == []
    replacement = await factories.credential_document(
        pid, kind=DocumentKind.cpr_bls, expires_on=date(2032, 1, 1), status=DocumentStatus.pending
    )
    hr = await person(Role.hr)  # Document Approvals (approve_documents)
    await run(approve_document, actor=hr.actor, document_id=replacement, now=NOW)
    assert await found() == [pid]  # listed again, without anyone calling the standing job


# ---- the licence-state rule ------------------------------------------------------------------------------
async def test_a_provider_is_found_and_booked_only_where_it_holds_a_valid_licence(identity) -> None:
    patient = await person(Role.patient)
    pid = await provider(zip_codes=(ZIP, HOBOKEN), licenses=[("NY", date(2030, 1, 8))])
    assert await found(ZIP) == [pid]
    assert await found(HOBOKEN) == []  # serves Hoboken, but holds no New Jersey licence
    assert await bookable(pid, ZIP)
    assert not await bookable(pid, HOBOKEN)
    with pytest.raises(ValidationFailed):
        await hold(patient, pid, HOBOKEN)
    # The New York licence ends on Tuesday: Monday can be booked, Wednesday can't.
    assert await bookable(pid, ZIP, date(2030, 1, 8))
    assert not await bookable(pid, ZIP, date(2030, 1, 9))
    with pytest.raises(ValidationFailed):
        await hold(patient, pid, ZIP, NINE + timedelta(days=2))
    assert (await hold(patient, pid, ZIP)).provider_id == pid

    await factories.license_for(pid, "NJ", date(2031, 1, 1))
    assert await found(HOBOKEN) == [pid]
    assert await bookable(pid, HOBOKEN)


async def test_licences_that_expire_drop_their_state_from_search_when_the_job_runs(identity) -> None:
    pid = await provider(
        zip_codes=(ZIP, HOBOKEN), licenses=[("NY", date(2031, 1, 1)), ("NJ", date(2030, 1, 6))]
    )
    assert await found(HOBOKEN) == [pid]
    assert await run(lapse_expired_credentials, now=NOW) == 0  # still licensed in New York: not lapsed
    assert await found(HOBOKEN) == []
    assert await found(ZIP) == [pid]


# ---- suspension ------------------------------------------------------------------------------------------
async def test_suspending_unlists_refuses_bookings_and_tells_patients_and_staff(identity) -> None:
    manager = await person(Role.management, "Morgan Hayes")
    colleague = await person(Role.owner, "Olivia Bennett")
    patient = await person(Role.patient, "Jordan Lee")
    pid = await provider("Ada Nurse", hours=factories.ALL_WEEK)
    ahead = await factories.visit(
        patient, pid, datetime.now(UTC) + timedelta(days=3), AppointmentStatus.confirmed
    )
    await factories.visit(patient, pid, datetime.now(UTC) - timedelta(days=3), AppointmentStatus.completed)

    with pytest.raises(ValidationFailed, match="reason"):
        await run(suspend_provider, actor=manager.actor, provider_id=pid, reason="  ")
    change = await run(
        suspend_provider, actor=manager.actor, provider_id=pid, reason="Complaint under review"
    )
    assert change.standing == ProviderStanding.suspended
    assert (change.upcoming_visits, change.patients_told) == (1, 1)
    assert await found() == []
    assert not await bookable(pid)
    with pytest.raises(ValidationFailed):
        await hold(patient, pid)
    with pytest.raises(ValidationFailed, match="already suspended"):
        await run(suspend_provider, actor=manager.actor, provider_id=pid, reason="Complaint under review")

    [told] = (await run(list_notifications, actor=patient.actor, tab="all")).items
    assert told.kind == NotificationKind.visit_at_risk and ahead in told.link
    for detail in ("Ada", "Nurse", "blood", "Complaint"):  # PHI-free, and the reason stays with the staff
        assert detail not in told.title + told.body
    assert await kinds_of(colleague, NotificationKind.provider_standing) == ["Suspended: Ada Nurse"]

    await run(reinstate_provider, actor=manager.actor, provider_id=pid, reason="Complaint resolved")
    assert await found() == [pid]
    assert await bookable(pid)
    audit = await run(list_provider_audit, actor=colleague.actor, provider_id=pid)
    assert [(e.action, e.reason) for e in audit] == [
        ("Reinstated", "Complaint resolved"),
        ("Suspended", "Complaint under review"),
    ]
    assert audit[0].actor == manager.email


async def test_decisions_on_an_applicant_provider_land_on_its_timeline(identity) -> None:
    owner = await person(Role.owner)
    account = await person(Role.provider, "Ada Nurse")
    pid = await provider(owner=account)
    await factories.bare_application(account, status=ApplicationStatus.approved, provider_id=pid)
    await run(suspend_provider, actor=owner.actor, provider_id=pid, reason="Licence under review")
    page = await run(get_managed_provider, actor=owner.actor, provider_id=pid)
    timeline = await run(get_applicant_timeline, actor=owner.actor, application_id=page.application_id)
    assert [e.kind for e in timeline.events] == [EventKind.suspended, EventKind.created]
    assert timeline.events[0].details["reason"] == "Licence under review"


# ---- Provider Management ---------------------------------------------------------------------------------
async def test_the_list_searches_filters_and_counts_in_sql(identity) -> None:
    manager = await person(Role.management)
    patient = await person(Role.patient)
    ada = await provider("Ada Nurse", licenses=[("NY", date(2031, 3, 1)), ("NY", date(2032, 1, 1))])
    await provider("Adam Smith", kind="doctor", zip_codes=("60614",))
    await provider("Bea Adams", verified=False)
    await factories.visit(patient, ada, datetime.now(UTC) - timedelta(days=3), AppointmentStatus.completed)

    async def names(**filters) -> list[str]:  # noqa: ANN003
        page = await run(
            list_managed_providers, actor=manager.actor, query=ManagedProviderQuery(**filters), now=NOW
        )
        return [row.name for row in page.items]

    assert await names() == ["Bea Adams", "Ada Nurse", "Adam Smith"]  # by last name
    assert await names(search="ada") == ["Bea Adams", "Ada Nurse", "Adam Smith"]
    assert await names(search="ADAM") == ["Bea Adams", "Adam Smith"]
    assert await names(search="ada n") == ["Ada Nurse"]
    assert await names(search="%") == []
    assert await names(standing=ProviderStanding.unverified) == ["Bea Adams"]
    assert await names(provider_type="doctor") == ["Adam Smith"]
    assert await names(state="IL") == ["Adam Smith"]
    page = await run(
        list_managed_providers, actor=manager.actor, query=ManagedProviderQuery(search="ada n"), now=NOW
    )
    [row] = page.items
    assert (row.visits, row.nearest_expiry, row.standing) == (1, date(2031, 3, 1), ProviderStanding.listed)


async def test_support_is_refused_everything_and_the_audit_needs_view_provider_logs(identity) -> None:
    support = await person(Role.support)
    manager = await person(Role.management)  # manage_providers, not view_provider_logs
    logs = await person(Role.management, extras=(Permission.view_provider_logs,))
    pid = await provider()
    applicant = await person(Role.patient)
    draft = await factories.bare_application(applicant)
    calls: list[factories.ServiceCall] = [
        (list_managed_providers, {"query": ManagedProviderQuery()}),
        (get_managed_provider, {"provider_id": pid}),
        (list_provider_audit, {"provider_id": pid}),
        (suspend_provider, {"provider_id": pid, "reason": "No reason at all"}),
        (reinstate_provider, {"provider_id": pid, "reason": "No reason at all"}),
        (get_onboarding_pipeline, {}),
        (get_applicant_timeline, {"application_id": draft}),
    ]
    for fn, kwargs in calls:
        with pytest.raises(PermissionDenied):
            await run(fn, actor=support.actor, **kwargs)
    assert (await run(get_managed_provider, actor=manager.actor, provider_id=pid)).id == pid
    with pytest.raises(PermissionDenied, match="view_provider_logs"):
        await run(list_provider_audit, actor=manager.actor, provider_id=pid)
    with pytest.raises(PermissionDenied):
        await run(get_onboarding_pipeline, actor=manager.actor)  # manage_onboarding is HR's
    assert await run(list_provider_audit, actor=logs.actor, provider_id=pid) == []


async def test_placing_the_order_checks_the_licence_again(identity) -> None:
    patient = await person(Role.patient)
    pid = await provider(licenses=[("NY", date(2031, 1, 1))])
    held = await hold(patient, pid)
    async with app_db.unit_of_work() as session:  # the licence turns out to end before the visit
        await session.execute(
            update(ProviderLicense)
            .where(ProviderLicense.provider_id == pid)
            .values(expires_on=date(2030, 1, 6))
        )
    line = CheckoutLine(
        hold_id=held.id,
        location=ServiceLocation.home,
        address_line="12 Main Street",
        city="New York",
        state="NY",
        zip_code=ZIP,
    )
    with pytest.raises(ValidationFailed, match="not licensed to see patients in NY"):
        await run(place_order, actor=patient.actor, lines=[line], now=NOW)
