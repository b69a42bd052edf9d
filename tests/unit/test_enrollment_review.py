"""Credential verification, staff side (issue 13): who may use Verification Requests and Document Approvals
(a support member nothing, each permission its own screen), the queue (filters, order, pages, a fixed number
of queries), opening (audited; submitted → in review), the checklist, the decisions' state machine with the
managed reasons, approval publishing the provider (found by search in its ZIP code, with open slots, the
account a provider with enrollment complete), document approvals with computed expiring / expired, the
credential files' access, and the timeline and audit rows each step leaves. SQLite, and PostgreSQL when
TEST_DATABASE_URL is set."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import event, select

from app import db as app_db
from app.services.accounts.internal import get_account
from app.services.enrollment import (
    approve_application,
    approve_document,
    get_application_review,
    list_credential_documents,
    list_reviewer_reasons,
    list_verification_queue,
    open_applicant_photo,
    open_application,
    open_credential_file,
    reject_application,
    reject_document,
    request_information,
    set_check,
)
from app.services.enrollment._review import OWN_APPLICATION, REASON_REQUIRED
from app.services.enrollment.internal import ensure_decision_reasons
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers import search_providers
from app.services.providers.internal import list_slots
from app.settings import get_settings
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.enrollment import (
    ApplicationEvent,
    ApplicationStatus,
    CredentialDocument,
    DecisionCreate,
    DecisionReason,
    DocumentKind,
    DocumentStanding,
    EventKind,
    ProviderApplication,
    ProviderLicense,
    ReasonUse,
)
from models.mail import OutboxMessage
from models.notification import Notification
from models.provider import Provider, ProviderQuery
from models.staff import Permission
from tests import factories
from tests.conftest import html_part

NOW = datetime(2030, 1, 7, 15, 0, tzinfo=UTC)  # a Monday
S = ApplicationStatus


@pytest.fixture(autouse=True)
def uploads(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()


@pytest.fixture(autouse=True)
async def reasons(configured) -> None:  # noqa: ANN001 - the managed reasons, as `seed` puts them in
    async with app_db.unit_of_work() as session:
        await ensure_decision_reasons(session=session)


async def _call(fn, **kw):  # noqa: ANN001, ANN202
    return await factories.run(fn, **kw)


async def _events(application_id: str) -> list[tuple[EventKind, dict]]:
    async with app_db.unit_of_work() as session:
        rows = await session.scalars(
            select(ApplicationEvent)
            .where(ApplicationEvent.application_id == application_id)
            .order_by(ApplicationEvent.at, ApplicationEvent.id)
        )
        return [(row.kind, row.details) for row in rows]


async def _audit(action: AuditAction) -> list[AuditEntry]:
    async with app_db.unit_of_work() as session:
        return list(await session.scalars(select(AuditEntry).where(AuditEntry.action == action.value)))


async def _row(application_id: str) -> ProviderApplication:
    async with app_db.unit_of_work() as session:
        return await session.get(ProviderApplication, application_id)


async def _tick_all(reviewer: factories.Person, application_id: str) -> None:
    review = await _call(get_application_review, actor=reviewer.actor, application_id=application_id)
    for check in review.checks:
        if not check.automatic:
            await _call(
                set_check,
                actor=reviewer.actor,
                application_id=application_id,
                item=check.key,
                checked=True,
            )


# ---- permissions --------------------------------------------------------------------------------------
VERIFICATION_CALLS: dict[str, factories.ServiceCall] = {
    "queue": (list_verification_queue, {}),
    "review": (get_application_review, {"application_id": "A"}),
    "open": (open_application, {"application_id": "A"}),
    "check": (set_check, {"application_id": "A", "item": "x", "checked": True}),
    "reasons": (list_reviewer_reasons, {"use": "information"}),
    "approve": (approve_application, {"application_id": "A"}),
    "information": (
        request_information,
        {"application_id": "A", "decision": DecisionCreate(reasons=["other"])},
    ),
    "reject": (reject_application, {"application_id": "A", "decision": DecisionCreate(reasons=["other"])}),
}
DOCUMENT_CALLS: dict[str, factories.ServiceCall] = {
    "documents": (list_credential_documents, {}),
    "approve_document": (approve_document, {"document_id": "D"}),
    "reject_document": (reject_document, {"document_id": "D", "reason": "document_unreadable"}),
}


async def _ids() -> tuple[str, str]:
    application_id = await factories.application()
    async with app_db.unit_of_work() as session:
        document_id = await session.scalar(
            select(CredentialDocument.id).where(CredentialDocument.application_id == application_id).limit(1)
        )
    return application_id, document_id


def _args(kw: dict, application_id: str, document_id: str) -> dict:
    return {k: (application_id if v == "A" else document_id if v == "D" else v) for k, v in kw.items()}


async def test_a_support_member_is_refused_every_verification_and_document_call(configured) -> None:
    support = await factories.person(Role.support, "Sam Support")
    patient = await factories.person(Role.patient, "Pat Patient")
    application_id, document_id = await _ids()
    for who in (support, patient):
        for fn, kw in (*VERIFICATION_CALLS.values(), *DOCUMENT_CALLS.values()):
            with pytest.raises(PermissionDenied):
                await _call(fn, actor=who.actor, **_args(kw, application_id, document_id))
    assert (await _row(application_id)).status == S.submitted
    assert await _audit(AuditAction.application_view) == []


async def test_each_screen_needs_its_own_permission(configured) -> None:
    management = await factories.person(Role.management, "Morgan Manager")  # manage_verification
    hr = await factories.person(Role.hr, "Harper Hr")  # approve_documents
    application_id, document_id = await _ids()
    for name, (fn, kw) in DOCUMENT_CALLS.items():
        if name == "documents":
            with pytest.raises(PermissionDenied, match="approve_documents"):
                await _call(fn, actor=management.actor, **_args(kw, application_id, document_id))
    with pytest.raises(PermissionDenied, match="manage_verification"):
        await _call(list_verification_queue, actor=hr.actor)
    assert (await _call(list_verification_queue, actor=management.actor)).rows[0].id == application_id
    assert (await _call(list_credential_documents, actor=hr.actor)).rows
    # An extra permission is enough; an inactive member has none.
    support_plus = await factories.person(Role.support, extras=(Permission.manage_verification,))
    assert (await _call(list_verification_queue, actor=support_plus.actor)).rows
    inactive = await factories.person(Role.management, active=False)
    with pytest.raises(PermissionDenied):
        await _call(list_verification_queue, actor=inactive.actor)


# ---- the queue -------------------------------------------------------------------------------------------
async def test_the_queue_is_oldest_first_filtered_and_paged_in_a_fixed_number_of_queries(configured) -> None:
    management = await factories.person(Role.management)
    base = datetime.now(UTC) - timedelta(days=30)
    oldest = await factories.application(name="Olga Oldest", submitted_at=base)
    newer = await factories.application(
        name="Nina Newer",
        submitted_at=base + timedelta(days=3),
        kind="technician",
        npi="",
        licenses=(("Phlebotomy", "CA", "PT-1", date(2031, 1, 1)),),
        zip_codes=("90026",),
    )
    waiting = await factories.application(name="Wade Waiting", submitted_at=base + timedelta(days=1))
    await factories.application(name="Dora Draft", status=S.draft)
    async with app_db.unit_of_work() as session:
        (await session.get(ProviderApplication, waiting)).status = S.needs_information

    page = await _call(list_verification_queue, actor=management.actor)
    assert [row.id for row in page.rows] == [oldest, waiting, newer]
    assert page.counts == {"submitted": 2, "in_review": 0, "needs_information": 1} and not page.has_more
    assert page.rows[0].license_states == ["NY"] and page.rows[0].documents == 4
    assert page.rows[0].npi_valid is True and page.rows[2].npi_valid is None
    by_status = await _call(list_verification_queue, actor=management.actor, status="needs_information")
    assert [row.id for row in by_status.rows] == [waiting]
    by_type = await _call(list_verification_queue, actor=management.actor, provider_type="technician")
    assert [row.id for row in by_type.rows] == [newer]
    by_state = await _call(list_verification_queue, actor=management.actor, state="ca")
    assert [row.id for row in by_state.rows] == [newer] and by_state.counts["submitted"] == 1
    ignored = await _call(list_verification_queue, actor=management.actor, status="approved", state="ZZ")
    assert len(ignored.rows) == 3

    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:  # noqa: ANN001
        statements.append(statement)

    async def queries() -> int:
        statements.clear()
        engine = app_db.get_database().engine.sync_engine
        event.listen(engine, "before_cursor_execute", count)
        try:
            await _call(list_verification_queue, actor=management.actor)
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return len(
            [
                s
                for s in statements
                if "provider_applications" in s or "provider_licenses" in s or "credential_documents" in s
            ]
        )

    few = await queries()
    for i in range(50):
        await factories.application(
            name=f"Many Applicant{i}", documents=(), submitted_at=base + timedelta(days=5, hours=i)
        )
    assert await queries() == few == 4
    first = await _call(list_verification_queue, actor=management.actor)
    second = await _call(list_verification_queue, actor=management.actor, page=2)
    assert len(first.rows) == 50 and first.has_more and len(second.rows) == 3 and not second.has_more
    assert first.rows[0].id == oldest
    assert {r.id for r in first.rows}.isdisjoint({r.id for r in second.rows})


# ---- opening, checklist, decisions ---------------------------------------------------------------------
async def test_opening_is_audited_and_moves_a_submitted_application_to_in_review(configured) -> None:
    management = await factories.person(Role.management, "Morgan Manager")
    applicant = await factories.person(Role.patient, "Nia Applicant")
    application_id = await factories.application(applicant)
    status = await _call(open_application, actor=management.actor, application_id=application_id, now=NOW)
    assert status == S.in_review
    again = await _call(open_application, actor=management.actor, application_id=application_id, now=NOW)
    assert again == S.in_review
    assert [kind for kind, _ in await _events(application_id)] == [EventKind.submitted, EventKind.in_review]
    views = await _audit(AuditAction.application_view)
    assert len(views) == 2 and views[0].target == f"application {application_id}"
    assert views[0].actor_id == management.id and views[0].details["applicant_id"] == applicant.id
    async with app_db.unit_of_work() as session:
        notes = list(
            await session.scalars(select(Notification).where(Notification.recipient_id == applicant.id))
        )
    assert [n.kind for n in notes] == ["enrollment_decision"] and "being reviewed" in notes[0].title
    with pytest.raises(NotFound):
        await _call(open_application, actor=management.actor, application_id="nope")


async def test_the_checklist_computes_the_npi_and_stores_ticks_until_a_resubmission(configured) -> None:
    management = await factories.person(Role.management, "Morgan Manager")
    application_id = await factories.application(npi="1234567890")  # wrong check digit
    await _call(open_application, actor=management.actor, application_id=application_id, now=NOW)
    review = await _call(get_application_review, actor=management.actor, application_id=application_id)
    npi, *others = review.checks
    assert npi.automatic and not npi.passed and "check digit" in npi.detail
    assert [c.key.split(":")[0] for c in others] == ["license"] + ["document"] * 4
    assert not review.approvable and any("NPI" in b for b in review.blockers)
    with pytest.raises(ValidationFailed):
        await _call(
            set_check, actor=management.actor, application_id=application_id, item="npi", checked=True
        )
    await _tick_all(management, application_id)
    review = await _call(get_application_review, actor=management.actor, application_id=application_id)
    assert all(c.passed for c in review.checks[1:]) and review.checks[1].checked_by == "Morgan Manager"
    assert review.blockers == [review.checks[0].notes[0]]
    with pytest.raises(ValidationFailed, match="NPI"):
        await _call(approve_application, actor=management.actor, application_id=application_id)
    # Sent back, fixed and resubmitted: the checklist starts again.
    await _call(
        request_information,
        actor=management.actor,
        application_id=application_id,
        decision=DecisionCreate(reasons=["npi_mismatch"], message="Please check your NPI."),
    )
    with pytest.raises(ValidationFailed):
        await _call(
            set_check,
            actor=management.actor,
            application_id=application_id,
            item=review.checks[1].key,
            checked=False,
        )
    await _resubmit(application_id, npi="1234567893")
    review = await _call(get_application_review, actor=management.actor, application_id=application_id)
    assert review.checks[0].passed and not any(c.passed for c in review.checks[1:])


async def _resubmit(application_id: str, **changes: object) -> None:
    """What the applicant's wizard does on resubmission (the applicant side is another module's)."""
    moment = datetime.now(UTC)
    async with app_db.unit_of_work() as session:
        row = await session.get(ProviderApplication, application_id)
        for name, value in changes.items():
            setattr(row, name, value)
        row.status, row.status_changed_at, row.submitted_at = S.submitted, moment, moment
        session.add(
            ApplicationEvent(
                application_id=row.id, kind=EventKind.resubmitted, actor_id=row.user_id, at=moment
            )
        )


async def test_decisions_follow_the_state_machine_with_reasons_that_fit(configured, smtp) -> None:
    management = await factories.person(Role.management, "Morgan Manager")
    applicant = await factories.person(Role.patient, "Nia Applicant")
    application_id = await factories.application(applicant)

    def decide(fn, reasons=(), message=""):  # noqa: ANN001, ANN202
        return _call(
            fn,
            actor=management.actor,
            application_id=application_id,
            decision=DecisionCreate(reasons=list(reasons), message=message),
        )

    with pytest.raises(ValidationFailed, match=REASON_REQUIRED):
        await decide(request_information)
    with pytest.raises(ValidationFailed, match="cannot be given when you request information"):
        await decide(request_information, ["area_not_served"])  # a rejection reason
    with pytest.raises(ValidationFailed, match="cannot be given when you reject"):
        await decide(reject_application, ["document_unreadable"])  # an information reason
    with pytest.raises(ValidationFailed, match="not on the list"):
        await decide(request_information, ["no_such_reason"])
    with pytest.raises(ValidationFailed, match="takes no reasons"):
        await decide(approve_application, ["other"])
    async with app_db.unit_of_work() as session:
        (await session.get(DecisionReason, "dates_mismatch")).active = False
    with pytest.raises(ValidationFailed, match="not on the list"):
        await decide(request_information, ["dates_mismatch"])
    offered = await _call(list_reviewer_reasons, actor=management.actor, use="information")
    assert "dates_mismatch" not in {r.code for r in offered}
    assert {r.applies_to for r in offered} == {ReasonUse.information, ReasonUse.both}

    smtp.clear()
    review = await decide(
        request_information, ["document_unreadable", "name_mismatch"], "The ID scan is blurry."
    )
    row = await _row(application_id)
    assert row.status == S.needs_information and row.decision_reasons == [
        "document_unreadable",
        "name_mismatch",
    ]
    assert row.decision_message == "The ID scan is blurry." and row.decided_by == management.id
    assert review.application.status == S.needs_information and not review.approvable
    [mail] = smtp.wait_for(1)
    body = html_part(mail)
    assert "needs more information" in mail["Subject"] and "A document is unreadable" in body
    assert "Upload a clear scan" in body and "The ID scan is blurry." in body
    with pytest.raises(ValidationFailed, match="cannot be approved"):
        await decide(approve_application)
    with pytest.raises(ValidationFailed, match="cannot be sent back"):
        await decide(request_information, ["other"])

    before = datetime.now(UTC)
    await decide(reject_application, ["disciplinary_action"])
    row = await _row(application_id)
    days = get_settings().enrollment_reapply_days
    assert row.status == S.rejected and days == 90
    assert (
        before + timedelta(days=days) - timedelta(minutes=1)
        <= factories.present(row.reapply_after).replace(tzinfo=UTC)
        <= datetime.now(UTC) + timedelta(days=days)
    )
    for fn in (approve_application, request_information, reject_application):
        with pytest.raises(ValidationFailed):
            await decide(fn, [] if fn is approve_application else ["other"])
    kinds = [kind for kind, _ in await _events(application_id)]
    assert kinds == [EventKind.submitted, EventKind.info_requested, EventKind.rejected]
    decisions = await _audit(AuditAction.application_decision)
    assert [d.details["decision"] for d in decisions] == ["needs_information", "rejected"]
    assert (
        decisions[1].details["reasons"] == ["disciplinary_action"] and decisions[1].actor_id == management.id
    )
    async with app_db.unit_of_work() as session:
        titles = list(
            await session.scalars(
                select(Notification.title)
                .where(Notification.recipient_id == applicant.id)
                .order_by(Notification.created_at)
            )
        )
    assert len(titles) == 2 and "not approved" in titles[1]
    # PHI-free and message-free notifications: the reviewer's words go only to the e-mail and status page.
    assert not any("blurry" in title for title in titles)


async def test_nobody_reviews_their_own_application(configured) -> None:
    management = await factories.person(Role.management, "Morgan Manager")
    application_id = await factories.application(management)
    status = await _call(open_application, actor=management.actor, application_id=application_id)
    assert status == S.submitted  # read, audited, not taken into review
    review = await _call(get_application_review, actor=management.actor, application_id=application_id)
    assert review.own and not review.approvable
    with pytest.raises(PermissionDenied, match=OWN_APPLICATION):
        await _call(
            set_check,
            actor=management.actor,
            application_id=application_id,
            item=review.checks[1].key,
            checked=True,
        )
    for fn in (approve_application, request_information, reject_application):
        with pytest.raises(PermissionDenied, match=OWN_APPLICATION):
            await _call(
                fn,
                actor=management.actor,
                application_id=application_id,
                decision=DecisionCreate(reasons=["other"]) if fn is not approve_application else None,
            )


# ---- approval publishes the provider ------------------------------------------------------------------
async def test_approving_publishes_a_bookable_provider_found_in_its_zip_code(configured, smtp) -> None:
    management = await factories.person(Role.management, "Morgan Manager")
    applicant = await factories.person(Role.patient, "Nia Applicant")
    application_id = await factories.application(
        applicant, zip_codes=("10001", "10011"), offers={"routine-blood-draw": ("85.00", 1)}
    )

    async def search(zip_code: str) -> list[str]:
        async with app_db.unit_of_work() as session:
            found = await search_providers(session=session, query=ProviderQuery(zip_code=zip_code), now=NOW)
        return [card.id for card in found.items]

    assert await search("10011") == []
    await _call(open_application, actor=management.actor, application_id=application_id)
    with pytest.raises(ValidationFailed, match="Tick every checklist item"):
        await _call(approve_application, actor=management.actor, application_id=application_id)
    await _tick_all(management, application_id)
    smtp.clear()
    review = await _call(
        approve_application,
        actor=management.actor,
        application_id=application_id,
        decision=DecisionCreate(message="Welcome to the team!"),
    )
    provider_id = review.application.provider_id
    assert review.application.status == S.approved and provider_id
    assert await search("10011") == [provider_id] and await search("10001") == [provider_id]
    async with app_db.unit_of_work() as session:
        provider = await session.get(Provider, provider_id)
        slots = await list_slots(
            session=session,
            provider_id=provider_id,
            duration_minutes=30,
            day=date(2030, 1, 8),
            time_zone=factories.NY,
            now=NOW,
        )
        licences = list(await session.scalars(select(ProviderLicense.provider_id)))
        documents = list(await session.scalars(select(CredentialDocument.provider_id)))
    assert slots and provider.is_verified and provider.is_active and provider.user_id == applicant.id
    assert (provider.first_name, provider.last_name, provider.license_state) == ("Nia", "Applicant", "NY")
    assert provider.languages == ["English", "Spanish"] and provider.time_zone == factories.NY
    assert set(licences) == {provider_id} and set(documents) == {provider_id}
    account = await _call(get_account, user_id=applicant.id)
    assert account.role == Role.provider and account.enrollment_complete
    role_changes = await _audit(AuditAction.role_change)
    assert role_changes[-1].actor_id == management.id and role_changes[-1].details["to"] == "provider"
    [decision] = await _audit(AuditAction.application_decision)
    assert decision.details["decision"] == "approved" and decision.details["provider_id"] == provider_id
    [mail] = smtp.wait_for(1)
    assert "approved" in mail["Subject"] and "Welcome to the team!" in html_part(mail)
    with pytest.raises(ValidationFailed):
        await _call(approve_application, actor=management.actor, application_id=application_id)


async def test_an_approval_that_fails_changes_nothing(configured) -> None:
    """One unit of work: a staff applicant cannot become a provider, and nothing of the approval stays."""
    management = await factories.person(Role.management, "Morgan Manager")
    hr = await factories.person(Role.hr, "Harper Hr")
    application_id = await factories.application(hr)
    await _tick_all(management, application_id)
    with pytest.raises(ValidationFailed, match="hr account"):
        await _call(approve_application, actor=management.actor, application_id=application_id)
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(Provider.id).where(Provider.user_id == hr.id)) is None
    assert (await _row(application_id)).status == S.submitted
    assert await _audit(AuditAction.application_decision) == []


# ---- document approvals ----------------------------------------------------------------------------------
async def test_document_approvals_list_standings_and_record_each_decision(configured) -> None:
    hr = await factories.person(Role.hr, "Harper Hr")
    applicant = await factories.person(Role.patient, "Nia Applicant")
    application_id = await factories.application(applicant)
    today = date(2030, 1, 7)
    async with app_db.unit_of_work() as session:
        docs = {d.kind: d for d in await session.scalars(select(CredentialDocument))}
        docs[DocumentKind.cpr_bls].expires_on = today + timedelta(days=30)  # expiring
        docs[DocumentKind.malpractice_insurance].expires_on = today - timedelta(days=1)  # expired
        ids = {kind: d.id for kind, d in docs.items()}

    page = await _call(list_credential_documents, actor=hr.actor, today=today)
    assert page.counts == {"pending": 2, "approved": 0, "rejected": 0, "expiring": 1, "expired": 1}
    standings = {row.document.kind: row.document.standing for row in page.rows}
    assert standings[DocumentKind.cpr_bls] == DocumentStanding.expiring
    assert standings[DocumentKind.malpractice_insurance] == DocumentStanding.expired
    expiring = await _call(list_credential_documents, actor=hr.actor, standing="expiring", today=today)
    assert [row.document.id for row in expiring.rows] == [ids[DocumentKind.cpr_bls]]
    assert expiring.rows[0].applicant_name == "Nia Applicant"
    ids_only = await _call(list_credential_documents, actor=hr.actor, kind="government_id", today=today)
    assert [row.document.kind for row in ids_only.rows] == [DocumentKind.government_id]

    approved = await _call(approve_document, actor=hr.actor, document_id=ids[DocumentKind.license], now=NOW)
    assert approved.document.status == "approved" and approved.document.reviewed_by == hr.id
    with pytest.raises(ValidationFailed, match="already approved"):
        await _call(approve_document, actor=hr.actor, document_id=ids[DocumentKind.license])
    with pytest.raises(ValidationFailed, match="Choose the reason"):
        await _call(reject_document, actor=hr.actor, document_id=ids[DocumentKind.government_id], reason="")
    with pytest.raises(ValidationFailed, match="not on the list"):
        await _call(
            reject_document,
            actor=hr.actor,
            document_id=ids[DocumentKind.government_id],
            reason="area_not_served",
        )
    rejected = await _call(
        reject_document,
        actor=hr.actor,
        document_id=ids[DocumentKind.government_id],
        reason="document_unreadable",
        note="x" * 5000,
        now=NOW + timedelta(minutes=1),
    )
    assert rejected.document.standing == DocumentStanding.rejected
    assert rejected.document.rejection_reason.startswith("A document is unreadable — xxx")
    assert len(rejected.document.rejection_reason) <= 500
    page = await _call(list_credential_documents, actor=hr.actor, today=today)
    assert page.counts == {"pending": 0, "approved": 1, "rejected": 1, "expiring": 1, "expired": 1}
    kinds = [(kind, details.get("reason")) for kind, details in await _events(application_id)]
    assert kinds[1:] == [
        (EventKind.document_approved, None),
        (EventKind.document_rejected, "document_unreadable"),
    ]
    reviews = await _audit(AuditAction.document_review)
    assert [(r.details["decision"], r.target) for r in reviews] == [
        ("approved", "licence.png"),
        ("rejected", "id-card.png"),
    ]
    async with app_db.unit_of_work() as session:
        [note] = await session.scalars(select(Notification).where(Notification.recipient_id == applicant.id))
        outbox = list(await session.scalars(select(OutboxMessage)))
    assert "needs replacing" in note.title and any("unreadable" in m.html for m in outbox)


# ---- the files ---------------------------------------------------------------------------------------
async def test_credential_files_open_for_reviewers_audited_and_for_their_applicant_only(configured) -> None:
    management = await factories.person(Role.management)
    support = await factories.person(Role.support)
    applicant = await factories.person(Role.patient, "Nia Applicant")
    stranger = await factories.person(Role.patient, "Sly Stranger")
    application_id = await factories.application(applicant)
    async with app_db.unit_of_work() as session:
        document = await session.scalar(
            select(CredentialDocument).where(CredentialDocument.kind == DocumentKind.license)
        )
    found = await _call(open_credential_file, actor=management.actor, document_id=document.id)
    assert found.path.read_bytes().startswith(b"\x89PNG") and found.content_type == "image/png"
    assert (
        await _call(open_credential_file, actor=applicant.actor, document_id=document.id)
    ).filename == "licence.png"
    for who in (support, stranger):
        with pytest.raises(NotFound):
            await _call(open_credential_file, actor=who.actor, document_id=document.id)
    [view] = await _audit(AuditAction.credential_file_view)
    assert view.actor_id == management.id and view.details == {
        "document_id": document.id,
        "application_id": application_id,
    }
    with pytest.raises(NotFound):  # no photo on this application
        await _call(open_applicant_photo, actor=management.actor, application_id=application_id)
