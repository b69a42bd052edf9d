"""Careers (`app.services.careers`, issue 17 part 5) on SQLite and, with TEST_DATABASE_URL, PostgreSQL: HR
publishes a posting, a visitor applies with a CV and is e-mailed a confirmation, HR sees the application,
downloads the CV (audited) and moves it to interview; only manage_staff reads applications and CVs; a CV is
a real PDF, Word or ODT file and only its uploader can send it; applications are rate-limited; a rejected
applicant is e-mailed only when HR chooses."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from sqlalchemy import select

from app import db as app_db
from app.principal import Principal
from app.services.careers import (
    apply_for_job,
    get_application,
    get_posting,
    get_staged_cv,
    list_applications,
    list_open_postings,
    list_postings,
    open_cv,
    save_posting,
    stage_cv,
    update_application,
)
from app.services.errors import NotFound, PermissionDenied, RateLimited, ValidationFailed
from app.services.validation import INVALID_PHONE
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.careers import (
    ApplicationCreate,
    ApplicationStatus,
    ApplicationUpdate,
    PostingStatus,
    PostingWrite,
)
from models.mail import OutboxMessage
from models.notification import Notification, NotificationKind
from tests.factories import person, run

PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
NURSE = PostingWrite(
    title="Home Care Nurse Coordinator",
    team="Provider operations",
    city="Chicago",
    state="IL",
    employment_type="full_time",
    description="## What you'll do\n\nMatch **nurses** with patients.\n\n<script>alert(1)</script>",
    status="draft",
)


def visitor(name: str) -> Principal:
    """A signed-out browser of its own, from an address of its own."""
    return Principal.visitor(f"visitor-{name}").from_client(
        ip=f"203.0.113.{sum(map(ord, name)) % 250}", user_agent="t"
    )


def docx() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", "<w:document/>")
    return buffer.getvalue()


def odt() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", "<office:document-content/>")
    return buffer.getvalue()


async def applied(actor: Principal, slug: str, *, email: str = "ada@example.com", data: bytes = PDF):  # noqa: ANN201
    cv = await run(stage_cv, actor=actor, filename="Ada CV.pdf", data=data)
    form = ApplicationCreate(
        name="Ada Lovelace", email=email, phone="(312) 555-0142", cover_note="Hi!", cv_id=cv.id
    )
    return await run(apply_for_job, actor=actor, slug=slug, data=form)


async def outbox_to(address: str) -> list[OutboxMessage]:
    async with app_db.unit_of_work() as session:
        rows = await session.scalars(select(OutboxMessage).order_by(OutboxMessage.created_at))
        return [row for row in rows if address in row.recipients]


async def test_hr_publishes_a_visitor_applies_and_hr_moves_the_application_to_interview(identity) -> None:
    hr = await person(Role.hr)
    ada = visitor("ada")
    draft = await run(save_posting, actor=hr.actor, data=NURSE)
    assert draft.status is PostingStatus.draft and draft.slug == "home-care-nurse-coordinator"
    assert "<script>" not in draft.description_html and "<strong>nurses</strong>" in draft.description_html
    with pytest.raises(NotFound):
        await run(get_posting, actor=ada, slug=draft.slug)  # a draft is HR's only
    assert await run(list_open_postings, actor=ada) == []

    opened = await run(
        save_posting, actor=hr.actor, slug=draft.slug, data=NURSE.model_copy(update={"status": "open"})
    )
    assert opened.opened_at is not None
    assert [p.title for p in await run(list_open_postings, actor=ada)] == ["Home Care Nurse Coordinator"]
    assert (await run(get_posting, actor=ada, slug=draft.slug)).location == "Chicago, IL"

    assert await run(get_staged_cv, actor=ada) is None
    sent = await applied(ada, draft.slug)
    assert await run(get_staged_cv, actor=ada) is None  # the CV went with the application
    assert sent.email == "ada@example.com" and sent.posting_title == opened.title
    (confirmation,) = await outbox_to("ada@example.com")
    assert confirmation.subject == "Your application for Home Care Nurse Coordinator"
    async with app_db.unit_of_work() as session:
        told = await session.scalars(
            select(Notification.recipient_id).where(
                Notification.kind == NotificationKind.career_application.value
            )
        )
        assert hr.id in set(told)

    listed = await run(list_applications, actor=hr.actor, slug=draft.slug)
    (application,) = listed.applications
    assert (application.name, application.phone, application.status) == (
        "Ada Lovelace",
        "+13125550142",
        "new",
    )
    assert application.cv is not None and application.cv.filename == "Ada CV.pdf"
    assert listed.counts == {ApplicationStatus.new: 1}
    assert (await run(list_postings, actor=hr.actor)).postings[0].new_applications == 1

    cv = await run(open_cv, actor=hr.actor, application_id=application.id)
    assert cv.path.read_bytes() == PDF and cv.cv.content_type == "application/pdf"
    moved = await run(
        update_application,
        actor=hr.actor,
        application_id=application.id,
        data=ApplicationUpdate(status="interview", notes="Strong on scheduling; call Tuesday."),
    )
    assert moved.status is ApplicationStatus.interview and moved.notes.startswith("Strong")
    async with app_db.unit_of_work() as session:
        actions = list(await session.scalars(select(AuditEntry.action).where(AuditEntry.actor_id == hr.id)))
    assert actions.count(AuditAction.career_posting_edit) == 2
    assert AuditAction.career_cv_download in actions and AuditAction.career_application_update in actions


async def test_only_staff_with_manage_staff_read_applications_and_cvs(identity) -> None:
    owner, support = await person(Role.owner), await person(Role.support)
    posting = await run(save_posting, actor=owner.actor, data=NURSE.model_copy(update={"status": "open"}))
    await applied(visitor("grace"), posting.slug)
    application = (await run(list_applications, actor=owner.actor, slug=posting.slug)).applications[0]
    for someone in (support.actor, visitor("grace")):
        for call, kwargs in (
            (list_applications, {"slug": posting.slug}),
            (get_application, {"application_id": application.id}),
            (open_cv, {"application_id": application.id}),
            (list_postings, {}),
            (save_posting, {"data": NURSE}),
            (
                update_application,
                {"application_id": application.id, "data": ApplicationUpdate(status="rejected")},
            ),
        ):
            with pytest.raises(PermissionDenied):
                await run(call, actor=someone, **kwargs)


async def test_a_cv_is_a_real_document_sent_only_by_its_uploader_and_applying_is_rate_limited(
    identity,
) -> None:
    hr = await person(Role.hr)
    posting = await run(save_posting, actor=hr.actor, data=NURSE.model_copy(update={"status": "open"}))
    ada, eve = visitor("ada"), visitor("eve")
    for name, data in (
        ("cv.pdf", b"MZ\x90\x00 an executable"),
        ("cv.docx", PDF),
        ("cv.odt", b"PK\x03\x04junk"),
    ):
        with pytest.raises(ValidationFailed) as refused:
            await run(stage_cv, actor=ada, filename=name, data=data)
        assert refused.value.code == "unsupported_type"
    assert (await run(stage_cv, actor=ada, filename="cv.docx", data=docx())).content_type.endswith("document")
    assert (await run(stage_cv, actor=ada, filename="cv.odt", data=odt())).content_type.endswith("text")

    adas = await run(stage_cv, actor=ada, filename="cv.pdf", data=PDF)
    assert await run(get_staged_cv, actor=ada) == adas  # a reloaded form shows it again
    stolen = ApplicationCreate(name="Eve", email="eve@example.com", cv_id=adas.id)
    with pytest.raises(ValidationFailed, match="CV is missing"):
        await run(apply_for_job, actor=eve, slug=posting.slug, data=stolen)
    bad_phone = stolen.model_copy(update={"name": "Ada", "email": "ada@example.com", "phone": "12"})
    with pytest.raises(ValidationFailed, match=re.escape(INVALID_PHONE)):
        await run(apply_for_job, actor=ada, slug=posting.slug, data=bad_phone)
    with pytest.raises(ValidationFailed, match="cover note"):
        await run(
            apply_for_job,
            actor=ada,
            slug=posting.slug,
            data=bad_phone.model_copy(update={"phone": "", "cover_note": "x" * 3001}),
        )
    assert (await run(list_applications, actor=hr.actor, slug=posting.slug)).total == 0  # nothing kept

    zed = visitor("zed")
    for _ in range(5):
        await applied(zed, posting.slug, email="zed@example.com")
    with pytest.raises(RateLimited):
        await applied(zed, posting.slug, email="zed@example.com")


async def test_a_rejected_applicant_is_emailed_only_when_hr_chooses(identity) -> None:
    hr = await person(Role.hr)
    posting = await run(save_posting, actor=hr.actor, data=NURSE.model_copy(update={"status": "open"}))
    await applied(visitor("ann"), posting.slug, email="ann@example.com")
    await applied(visitor("bob"), posting.slug, email="bob@example.com")
    ann, bob = sorted(
        (await run(list_applications, actor=hr.actor, slug=posting.slug)).applications, key=lambda a: a.email
    )
    with pytest.raises(ValidationFailed, match="next step"):
        await run(
            update_application, actor=hr.actor, application_id=ann.id, data=ApplicationUpdate(status="hired")
        )
    for application, tell in ((ann, False), (bob, True)):
        await run(
            update_application,
            actor=hr.actor,
            application_id=application.id,
            data=ApplicationUpdate(status="rejected", send_rejection_email=tell),
        )
    assert len(await outbox_to("ann@example.com")) == 1  # the confirmation only
    assert len(await outbox_to("bob@example.com")) == 2
    rejected = await run(list_applications, actor=hr.actor, slug=posting.slug, status="rejected")
    assert rejected.total == 2 and rejected.counts == {ApplicationStatus.rejected: 2}
