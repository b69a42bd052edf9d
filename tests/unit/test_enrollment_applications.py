"""The applicant's side of provider enrollment (issue 13) on SQLite and PostgreSQL: one application per
account, each wizard step saved on its own and checked, resumable; documents type-checked and owned;
submitting needs every step and all four documents; needs-information → resubmitted; notifications and the
timeline at each status change; the sign-in landing of an applicant."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from app import db as app_db
from app import storage
from app.services.catalog.internal import ensure_reference_catalog
from app.services.enrollment import (
    StepInvalid,
    add_document,
    get_my_application,
    list_decision_reasons,
    open_credential_file,
    remove_document,
    remove_photo,
    save_credentials,
    save_identity,
    save_offering,
    set_photo,
    start_application,
    status_summary,
    submit_application,
    withdraw_application,
)
from app.services.enrollment._rules import NPI_CHECK_DIGIT
from app.services.enrollment.internal import ensure_decision_reasons
from app.services.errors import NotFound, ValidationFailed
from app.services.notifications import list_notifications
from app.settings import get_settings
from components.guards import auth_redirect_target, enrollment_rule
from models.account import Role
from models.base import utcnow
from models.catalog import Service
from models.enrollment import (
    ApplicationEvent,
    ApplicationStatus,
    CredentialsUpdate,
    DocumentCreate,
    DocumentKind,
    EventKind,
    HoursCreate,
    IdentityUpdate,
    LicenseCreate,
    OfferCreate,
    OfferingUpdate,
    ProviderApplication,
)
from models.notification import Notification, NotificationKind
from tests.factories import person, present, run

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
NEXT_YEAR = (date.today() + timedelta(days=400)).isoformat()
IDENTITY = IdentityUpdate(
    first_name=" Nia ",
    last_name="Okafor",
    provider_type="nurse",
    phone="(212) 555-0100",
    languages=["English"],
)
CREDENTIALS = CredentialsUpdate(
    npi="1234567893",
    licenses=[LicenseCreate(license_type="RN", state="NY", number="RN-1", expires_on=NEXT_YEAR)],
)


@pytest.fixture
async def enrolling(configured, monkeypatch, tmp_path):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        await ensure_decision_reasons(session=session)
    yield
    get_settings.cache_clear()


async def offering() -> OfferingUpdate:
    async with app_db.unit_of_work() as session:
        service = await session.scalar(select(Service).where(Service.slug == "routine-blood-draw"))
    return OfferingUpdate(
        offers=[OfferCreate(service_id=service.id, price="85", location_mask=service.location_mask)],
        zip_codes=["10001", "10011"],
        weekly_hours=[HoursCreate(weekday=0, start_minute=540, end_minute=1020)],
        time_zone="America/New_York",
    )


async def upload_all(actor) -> None:
    for kind in DocumentKind:
        await run(
            add_document,
            actor=actor,
            document=DocumentCreate(
                kind=kind, filename=f"{kind.value}.pdf", issued_on="2024-01-01", expires_on=NEXT_YEAR
            ),
            data=PDF,
        )


async def test_an_application_is_saved_step_by_step_and_submitted(enrolling) -> None:
    applicant = await person(name="Nia Okafor")
    assert await run(get_my_application, actor=applicant.actor) is None
    started = await run(start_application, actor=applicant.actor)
    assert started.status == ApplicationStatus.draft and started.first_name == "Nia" and started.step == 0
    assert (await run(start_application, actor=applicant.actor)).id == started.id  # one per account

    saved = await run(save_identity, actor=applicant.actor, update=IDENTITY)
    assert (saved.first_name, saved.phone, saved.step) == ("Nia", "+12125550100", 1)
    # Half-way: what was saved is there when the person comes back.
    again = present(await run(get_my_application, actor=applicant.actor))
    assert present(again.provider_type).value == "nurse" and again.step == 1

    with pytest.raises(StepInvalid) as refused:
        await run(
            save_credentials,
            actor=applicant.actor,
            update=CREDENTIALS.model_copy(update={"npi": "1234567890"}),
        )
    assert refused.value.errors == {"npi": NPI_CHECK_DIGIT}
    saved = await run(save_credentials, actor=applicant.actor, update=CREDENTIALS)
    assert saved.npi == "1234567893" and [x.state for x in saved.licenses] == ["NY"] and saved.step == 2

    saved = await run(save_offering, actor=applicant.actor, update=await offering())
    assert saved.zip_codes == ["10001", "10011"] and saved.offers[0].price == "85.00" and saved.step == 3

    with pytest.raises(StepInvalid) as refused:
        await run(submit_application, actor=applicant.actor)
    assert set(refused.value.errors) == {f"document.{kind.value}" for kind in DocumentKind}
    await upload_all(applicant.actor)
    reviewer, agent = await person(Role.management), await person(Role.support)
    submitted = await run(submit_application, actor=applicant.actor)
    assert submitted.status == ApplicationStatus.submitted and submitted.submitted_at is not None
    assert len(submitted.documents) == 4
    # The staff who verify applications (manage_verification) are told, with no name in the words.
    waiting = await run(list_notifications, actor=reviewer.actor, tab="all")
    assert [(n.kind, n.title, n.link) for n in waiting.items] == [
        (
            NotificationKind.verification_waiting,
            "A new provider application is waiting for review",
            f"/staff/verifications?application={submitted.id}",
        )
    ]
    assert (await run(list_notifications, actor=agent.actor, tab="all")).items == ()

    with pytest.raises(ValidationFailed, match="cannot be changed"):
        await run(save_identity, actor=applicant.actor, update=IDENTITY)
    async with app_db.unit_of_work() as session:
        kinds = (await session.scalars(select(ApplicationEvent.kind).order_by(ApplicationEvent.at))).all()
        titles = (
            await session.scalars(select(Notification.title).where(Notification.recipient_id == applicant.id))
        ).all()
    assert kinds == [EventKind.created, EventKind.submitted]
    assert titles == ["We received your provider application"]


async def test_steps_refuse_what_is_wrong_with_field_errors(enrolling) -> None:
    applicant = await person()
    await run(start_application, actor=applicant.actor)
    with pytest.raises(StepInvalid) as refused:
        await run(save_identity, actor=applicant.actor, update=IdentityUpdate(phone="12"))
    assert set(refused.value.errors) == {"first_name", "last_name", "provider_type", "phone"}
    await run(save_identity, actor=applicant.actor, update=IDENTITY)
    await run(save_credentials, actor=applicant.actor, update=CREDENTIALS)
    bad = (await offering()).model_copy(update={"zip_codes": ["00000"], "offers": []})
    with pytest.raises(StepInvalid) as refused:
        await run(save_offering, actor=applicant.actor, update=bad)
    assert set(refused.value.errors) == {"zip_codes", "offers"}
    # The licence-state rule: a ZIP code in a state without a licence is refused.
    with pytest.raises(StepInvalid, match="states where you hold a licence") as refused:
        await run(
            save_offering,
            actor=applicant.actor,
            update=(await offering()).model_copy(update={"zip_codes": ["60614"]}),
        )
    with pytest.raises(ValidationFailed, match="PDF, PNG, JPEG or WebP"):
        await run(
            add_document,
            actor=applicant.actor,
            document=DocumentCreate(kind=DocumentKind.license, filename="a.txt", expires_on=NEXT_YEAR),
            data=b"plain text",
        )
    with pytest.raises(ValidationFailed, match="do not match its name"):
        await run(
            add_document,
            actor=applicant.actor,
            document=DocumentCreate(kind=DocumentKind.license, filename="a.pdf", expires_on=NEXT_YEAR),
            data=PNG,
        )


async def test_documents_belong_to_their_applicant(enrolling) -> None:
    applicant, other = await person(), await person()
    await run(start_application, actor=applicant.actor)
    await run(start_application, actor=other.actor)
    document = await run(
        add_document,
        actor=applicant.actor,
        document=DocumentCreate(kind=DocumentKind.government_id, filename="id.png"),
        data=PNG,
    )
    assert (
        await run(open_credential_file, actor=applicant.actor, document_id=document.id)
    ).path.read_bytes() == PNG
    with pytest.raises(NotFound):
        await run(open_credential_file, actor=other.actor, document_id=document.id)
    with pytest.raises(NotFound):
        await run(remove_document, actor=other.actor, document_id=document.id)
    management = await person(Role.management)  # holds manage_verification
    assert (
        await run(open_credential_file, actor=management.actor, document_id=document.id)
    ).filename == "id.png"
    support = await person(Role.support)
    with pytest.raises(NotFound):
        await run(open_credential_file, actor=support.actor, document_id=document.id)
    left = await run(remove_document, actor=applicant.actor, document_id=document.id)
    assert left.documents == []


async def test_needs_information_then_resubmitted_and_withdrawn(enrolling) -> None:
    applicant = await person()
    await run(start_application, actor=applicant.actor)
    await run(save_identity, actor=applicant.actor, update=IDENTITY)
    await run(save_credentials, actor=applicant.actor, update=CREDENTIALS)
    await run(save_offering, actor=applicant.actor, update=await offering())
    await upload_all(applicant.actor)
    await run(submit_application, actor=applicant.actor)
    async with app_db.unit_of_work() as session:  # what a reviewer's "request information" leaves
        row = await session.scalar(select(ProviderApplication))
        row.status = ApplicationStatus.needs_information
        row.decision_reasons, row.decision_message = ["document_unreadable"], "The ID photo is blurred."
    application = present(await run(get_my_application, actor=applicant.actor))
    reasons = {r.code: r for r in await run(list_decision_reasons)}
    summary = status_summary(application, reasons, utcnow())
    assert summary.title == "Needs information" and summary.message == "The ID photo is blurred."
    assert summary.reasons[0][0] == "A document is unreadable" and "clear scan" in summary.reasons[0][1]
    await run(save_identity, actor=applicant.actor, update=IDENTITY.model_copy(update={"bio": "Fixed"}))
    resent = await run(submit_application, actor=applicant.actor)
    assert resent.status == ApplicationStatus.submitted
    taken_back = await run(withdraw_application, actor=applicant.actor)
    assert taken_back.status == ApplicationStatus.draft
    async with app_db.unit_of_work() as session:
        kinds = (await session.scalars(select(ApplicationEvent.kind).order_by(ApplicationEvent.at))).all()
    assert kinds[-2:] == [EventKind.resubmitted, EventKind.withdrawn]


async def test_a_rejected_applicant_may_apply_again_after_the_date(enrolling) -> None:
    applicant = await person()
    await run(start_application, actor=applicant.actor)
    async with app_db.unit_of_work() as session:
        row = await session.scalar(select(ProviderApplication))
        row.status = ApplicationStatus.rejected
        row.reapply_after = utcnow() + timedelta(days=30)
    application = present(await run(get_my_application, actor=applicant.actor))
    summary = status_summary(application, {}, utcnow())
    assert summary.title == "Rejected" and "You may apply again from" in summary.text
    with pytest.raises(ValidationFailed, match="apply again from"):
        await run(start_application, actor=applicant.actor)
    async with app_db.unit_of_work() as session:
        row = await session.scalar(select(ProviderApplication))
        row.reapply_after = utcnow() - timedelta(days=1)
    assert (await run(start_application, actor=applicant.actor)).status == ApplicationStatus.draft


async def test_an_applicant_lands_on_enrollment_after_sign_in(enrolling) -> None:
    applicant = await person()
    assert auth_redirect_target(None, applicant.account) == "/dashboard"
    await run(start_application, actor=applicant.actor)
    from app.services.accounts.internal import get_account

    account = present(await run(get_account, user_id=applicant.id))
    assert account.role == Role.patient and account.provider_applicant
    assert auth_redirect_target(None, account) == "/provider-enrollment"
    assert present(enrollment_rule(None)).to == "/login?redirect=/provider-enrollment"
    assert enrollment_rule(account) is None


async def test_the_photo_is_an_image_replaced_and_removable(enrolling) -> None:
    applicant = await person()
    await run(start_application, actor=applicant.actor)
    with pytest.raises(ValidationFailed, match="PNG, JPEG or WebP"):
        await run(set_photo, actor=applicant.actor, filename="me.pdf", data=PDF)
    first = await run(set_photo, actor=applicant.actor, filename="me.png", data=PNG)
    second = await run(set_photo, actor=applicant.actor, filename="me-again.png", data=PNG)
    assert first.photo_key and second.photo_key and second.photo_key != first.photo_key
    assert not storage.path_of(first.photo_key).exists()  # the replaced file is gone
    removed = await run(remove_photo, actor=applicant.actor)
    assert removed.photo_key == "" and not storage.path_of(second.photo_key).exists()
