"""Applications: anyone, signed in or not, applies to an open job with their name, e-mail, an optional
phone number, a short cover note and their CV (staged first, `_files`); the applicant gets a confirmation
e-mail through the outbox and HR a notification. HR (manage_staff only) lists them per posting, a page at a
time, filtered by status; moves them new → reviewing → interview → offer → hired, or rejected at any step,
with notes; and chooses whether a rejected applicant is told by e-mail. Every change is audited."""

from __future__ import annotations

from html import escape

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.auth.common import normalize_email
from app.auth.errors import AuthApiError
from app.outbox import send_email
from app.principal import Principal
from app.services.careers._access import require_hr
from app.services.careers._files import claim_cv, cv_read
from app.services.careers._postings import NOT_FOUND as POSTING_NOT_FOUND
from app.services.careers._postings import posting_read
from app.services.domain_events import CareerApplicationReceived
from app.services.errors import NotFound, Unavailable, ValidationFailed
from app.services.shared.rate_limits import limit
from app.services.validation import e164_phone, required_name
from app.settings import get_settings
from models.audit import AuditAction
from models.base import utcnow
from models.careers import (
    MAX_COVER_NOTE,
    MAX_NAME,
    MAX_NOTES,
    MAX_SLUG,
    PAGE_SIZE,
    ApplicationCreate,
    ApplicationListRead,
    ApplicationRead,
    ApplicationSentRead,
    ApplicationStatus,
    ApplicationUpdate,
    CareerApplication,
    CareerFile,
    CareerPosting,
    PostingStatus,
)
from models.identity import as_utc
from models.mail import OutboxStatus

S = ApplicationStatus
# Where an application may go next: forward through the steps, rejected from any open step, and a
# rejection reconsidered. Hired is final.
NEXT: dict[ApplicationStatus, tuple[ApplicationStatus, ...]] = {
    S.new: (S.reviewing, S.interview, S.rejected),
    S.reviewing: (S.interview, S.offer, S.rejected),
    S.interview: (S.offer, S.rejected),
    S.offer: (S.hired, S.rejected),
    S.hired: (),
    S.rejected: (S.reviewing,),
}
NAME_NEEDED = "Please enter your name."
NAME_TOO_LONG = f"Keep your name under {MAX_NAME} characters."
EMAIL_INVALID = "Please enter a valid e-mail address, e.g. name@example.com."
NOTE_TOO_LONG = f"Keep the cover note under {MAX_COVER_NOTE:,} characters."
CV_NEEDED = "Please upload your CV (PDF, Word or ODT)."
TOO_MANY = "You have sent several applications in the last few minutes."
SEND_FAILED = "We could not send your application just now. Please try again in a few minutes."
APPLICATION_NOT_FOUND = "This application does not exist."
NOTES_TOO_LONG = f"Keep the notes under {MAX_NOTES:,} characters."
NOT_A_STEP = "Choose the application's next step."
APPLICATIONS_PER_WINDOW = 5  # per applicant (visitor or account) in the abuse window
APPLICATIONS_PER_ADDRESS = 15  # per client address


def next_statuses(status: ApplicationStatus) -> tuple[ApplicationStatus, ...]:
    """The statuses an application in `status` may move to."""
    return NEXT[status]


def _read(row: CareerApplication, cv: CareerFile | None) -> ApplicationRead:
    return ApplicationRead(
        id=row.id,
        posting_id=row.posting_id,
        name=row.name,
        email=row.email,
        phone=row.phone,
        cover_note=row.cover_note,
        status=row.status,
        notes=row.notes,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        cv=cv_read(cv) if cv is not None else None,
    )


def _checked(data: ApplicationCreate) -> dict[str, str]:
    name = required_name(data.name, message=NAME_NEEDED)
    if len(name) > MAX_NAME:
        raise ValidationFailed(NAME_TOO_LONG)
    try:
        email = normalize_email(data.email)
    except AuthApiError:
        raise ValidationFailed(EMAIL_INVALID) from None
    note = data.cover_note.strip()
    if len(note) > MAX_COVER_NOTE:
        raise ValidationFailed(NOTE_TOO_LONG)
    if not data.cv_id.strip():
        raise ValidationFailed(CV_NEEDED)
    return {"name": name, "email": email, "phone": e164_phone(data.phone), "cover_note": note}


def _confirmation_html(name: str, title: str) -> str:
    brand = escape(get_settings().brand_name)
    return (
        f"<p>Hello {escape(name)},</p>"
        f"<p>Thank you for applying for <strong>{escape(title)}</strong> at {brand}. We have your application "
        "and your CV, and a member of our team will read them.</p>"
        "<p>We will write to you at this address about the next steps, whatever our decision.</p>"
        f"<p>The {brand} team</p>"
    )


def _rejection_html(name: str, title: str) -> str:
    brand = escape(get_settings().brand_name)
    return (
        f"<p>Hello {escape(name)},</p>"
        f"<p>Thank you for your interest in the <strong>{escape(title)}</strong> role at {brand} and for the "
        "time you gave your application. After careful consideration, we will not be moving forward with it.</p>"
        "<p>We wish you every success, and you are welcome to apply for other roles on our careers page.</p>"
        f"<p>The {brand} team</p>"
    )


async def apply_for_job(
    *, session: AsyncSession, actor: Principal, slug: str, data: ApplicationCreate
) -> ApplicationSentRead:
    """Send an application to the open posting `slug` with the CV the actor staged (`data.cv_id`).
    Anyone may apply (rate-limited per applicant and per address); the applicant is e-mailed a
    confirmation and HR notified. ValidationFailed, NotFound, RateLimited or Unavailable otherwise, and then
    nothing is kept (the form keeps what was typed)."""
    values = _checked(data)
    posting = await session.scalar(
        select(CareerPosting).where(
            CareerPosting.slug == (slug or "")[:MAX_SLUG], CareerPosting.status == PostingStatus.open
        )
    )
    if posting is None:
        raise NotFound(POSTING_NOT_FOUND)
    window = get_settings().abuse_limit_window
    applicant = actor.user_id or actor.visitor_id
    await limit(
        "career_applications",
        [applicant],
        per_window=APPLICATIONS_PER_WINDOW,
        window=window,
        message=TOO_MANY,
    )
    await limit(
        "career_applications_ip",
        [actor.ip],
        per_window=APPLICATIONS_PER_ADDRESS,
        window=window,
        message=TOO_MANY,
    )
    row = CareerApplication(posting_id=posting.id, status=ApplicationStatus.new, notes="", **values)
    session.add(row)
    await session.flush()
    await claim_cv(session, actor=actor, cv_id=data.cv_id.strip(), application_id=row.id)
    sent = await send_email(
        session=session,
        recipients=[row.email],
        subject=f"Your application for {posting.title}",
        html=_confirmation_html(row.name, posting.title),
    )
    if sent.status == OutboxStatus.failed:
        raise Unavailable(SEND_FAILED)  # the unit of work rolls back: nothing half-sent is kept
    await events.publish_event(
        session,
        CareerApplicationReceived(
            application_id=row.id, posting_slug=posting.slug, posting_title=posting.title
        ),
    )
    return ApplicationSentRead(posting_title=posting.title, email=row.email)


async def list_applications(
    *,
    session: AsyncSession,
    actor: Principal,
    slug: str,
    status: str | None = None,
    page: int = 1,
) -> ApplicationListRead:
    """HR: the applications to posting `slug`, newest first, PAGE_SIZE a page, optionally of one status,
    with the count of each status (one grouped query) and each CV's name (one joined query)."""
    await require_hr(session, actor)
    posting = await session.scalar(select(CareerPosting).where(CareerPosting.slug == (slug or "")[:MAX_SLUG]))
    if posting is None:
        raise NotFound(POSTING_NOT_FOUND)
    wanted = ApplicationStatus(status) if status and status in ApplicationStatus.__members__ else None
    grouped = await session.execute(
        select(CareerApplication.status, func.count())
        .where(CareerApplication.posting_id == posting.id)
        .group_by(CareerApplication.status)
    )
    counts = {ApplicationStatus(s): int(n) for s, n in grouped.tuples()}
    total = counts.get(wanted, 0) if wanted else sum(counts.values())
    page = max(1, min(int(page), max(1, -(-total // PAGE_SIZE))))
    query = (
        select(CareerApplication, CareerFile)
        .outerjoin(CareerFile, CareerFile.application_id == CareerApplication.id)
        .where(CareerApplication.posting_id == posting.id)
        .order_by(CareerApplication.created_at.desc(), CareerApplication.id)
        .offset((page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    )
    if wanted:
        query = query.where(CareerApplication.status == wanted)
    rows = (await session.execute(query)).tuples()
    return ApplicationListRead(
        posting=posting_read(posting),
        applications=[_read(row, cv) for row, cv in rows],
        counts=counts,
        status=wanted,
        page=page,
        total=total,
    )


async def _application(
    session: AsyncSession, application_id: str, *, lock: bool = False
) -> tuple[CareerApplication, CareerFile | None, CareerPosting]:
    """The application with its CV (if any) and posting, in one query; NotFound otherwise."""
    query = (
        select(CareerApplication, CareerFile, CareerPosting)
        .join(CareerPosting, CareerPosting.id == CareerApplication.posting_id)
        .outerjoin(CareerFile, CareerFile.application_id == CareerApplication.id)
        .where(CareerApplication.id == (application_id or "")[:36])
    )
    found = (await session.execute(query.with_for_update(of=CareerApplication) if lock else query)).first()
    if found is None:
        raise NotFound(APPLICATION_NOT_FOUND)
    row, cv, posting = found
    return row, cv, posting


async def get_application(*, session: AsyncSession, actor: Principal, application_id: str) -> ApplicationRead:
    """HR: one application with its CV's name."""
    await require_hr(session, actor)
    row, cv, _posting = await _application(session, application_id)
    return _read(row, cv)


async def update_application(
    *, session: AsyncSession, actor: Principal, application_id: str, data: ApplicationUpdate
) -> ApplicationRead:
    """HR: move an application to one of its next steps (`data.status`; empty keeps it) and/or change the
    notes. A move to rejected e-mails the applicant only when `data.send_rejection_email`. Audited."""
    account = await require_hr(session, actor)
    notes = data.notes.strip()
    if len(notes) > MAX_NOTES:
        raise ValidationFailed(NOTES_TOO_LONG)
    row, cv, posting = await _application(session, application_id, lock=True)
    before = row.status
    target = data.status.strip().lower()
    if target and target != before.value:
        if target not in ApplicationStatus.__members__ or ApplicationStatus(target) not in NEXT[before]:
            raise ValidationFailed(NOT_A_STEP)
        row.status = ApplicationStatus(target)
    notes_changed = notes != row.notes
    row.notes = notes
    emailed = False
    if row.status == ApplicationStatus.rejected and before != row.status and data.send_rejection_email:
        sent = await send_email(
            session=session,
            recipients=[row.email],
            subject=f"Your application for {posting.title}",
            html=_rejection_html(row.name, posting.title),
        )
        if sent.status == OutboxStatus.failed:
            raise Unavailable(
                "The e-mail to the applicant could not be sent. Nothing was changed; try again."
            )
        emailed = True
    if before == row.status and not notes_changed:
        return _read(row, cv)
    row.updated_at = utcnow()
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=AuditAction.career_application_update,
        target=f"job application {row.id}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={
            "posting": posting.slug,
            "from": before.value,
            "to": row.status.value,
            "notes_changed": notes_changed,
            "emailed": emailed,
        },
    )
    await session.flush()
    return _read(row, cv)
