"""CVs: the browser posts the file before the application is sent (ReactPy's websocket cannot carry one),
so it is staged for its uploader ('user:<id>' or 'visitor:<cookie id>') and claimed by the application sent
with it. Only PDF, Word (.docx, .doc) and OpenDocument text (.odt), at most UPLOAD_MAX_BYTES, checked by
their contents (`app.storage`); uploads are rate-limited per uploader and per address, and staged files
never sent are swept after a day; all CVs together stay under UPLOAD_STORAGE_BYTES. Downloading a CV needs manage_staff and is audited."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, storage
from app.principal import Principal
from app.services.careers._access import require_hr
from app.services.errors import NotFound, PermissionDenied, Unavailable, ValidationFailed
from app.services.shared.rate_limits import limit
from app.settings import get_settings
from models.audit import AuditAction
from models.base import utcnow
from models.careers import CareerApplication, CareerFile, CareerPosting, CvRead

STAGED_LIFETIME = timedelta(days=1)
UPLOADS_PER_WINDOW = 10  # CVs one uploader may post in the abuse window
UPLOADS_PER_ADDRESS = 30  # and one client address (an office behind one address holds several people)
NO_VISITOR = "Please reload the page before uploading your CV."
TOO_MANY = "You have uploaded several files in the last few minutes."
CV_NOT_FOUND = "This CV does not exist."
STORAGE_FULL = "We can't accept files just now. Please try again later."
CV_MISSING = "Your CV is missing or was already sent with an application. Please upload it again."


@dataclass(frozen=True)
class CvFile:
    """A CV someone may download: what it is and where it lies."""

    cv: CvRead
    path: Path


def uploader_key(actor: Principal) -> str:
    """'user:<id>' or 'visitor:<cookie id>'; '' for anyone else (nobody can stage a CV as SYSTEM)."""
    if actor.is_user and actor.user_id:
        return f"user:{actor.user_id}"
    if not actor.is_system and actor.visitor_id:
        return f"visitor:{actor.visitor_id[:64]}"
    return ""


def cv_read(row: CareerFile) -> CvRead:
    return CvRead(id=row.id, filename=row.filename, size=row.size, content_type=row.content_type)


async def _sweep_abandoned(session: AsyncSession) -> None:
    cutoff = utcnow() - STAGED_LIFETIME
    stale = CareerFile.application_id.is_(None) & (CareerFile.created_at < cutoff)
    keys = list(await session.scalars(select(CareerFile.storage_key).where(stale).limit(200)))
    if keys:
        await session.execute(delete(CareerFile).where(CareerFile.storage_key.in_(keys)))
        for key in keys:
            await storage.remove(key)


async def stage_cv(*, session: AsyncSession, actor: Principal, filename: str, data: bytes) -> CvRead:
    """Store the uploader's CV until their application claims it. ValidationFailed (code empty_file,
    too_large or unsupported_type) for a file that is not an acceptable CV; RateLimited when over."""
    uploader = uploader_key(actor)
    if not uploader:
        raise PermissionDenied(NO_VISITOR)
    settings = get_settings()
    window = settings.abuse_limit_window
    await limit("career_cv", [uploader], per_window=UPLOADS_PER_WINDOW, window=window, message=TOO_MANY)
    await limit("career_cv_ip", [actor.ip], per_window=UPLOADS_PER_ADDRESS, window=window, message=TOO_MANY)
    try:
        name, content_type = storage.check_upload(filename, data, kinds=storage.DOCUMENT_TYPES)
    except storage.UploadRejected as exc:
        raise ValidationFailed(exc.message, code=exc.code) from None
    await _sweep_abandoned(session)
    stored = (await session.execute(select(func.coalesce(func.sum(CareerFile.size), 0)))).scalar_one()
    if stored + len(data) > settings.upload_storage_bytes:
        raise Unavailable(STORAGE_FULL, code="storage_full")
    key = await storage.save(data)
    row = CareerFile(
        uploader=uploader, filename=name, content_type=content_type, size=len(data), storage_key=key
    )
    session.add(row)
    try:
        await session.flush()
    except Exception:
        await storage.remove(key)
        raise
    return cv_read(row)


async def get_staged_cv(*, session: AsyncSession, actor: Principal) -> CvRead | None:
    """The actor's newest CV uploaded but not sent yet (a reloaded form shows it again), or None."""
    uploader = uploader_key(actor)
    if not uploader:
        return None
    row = await session.scalar(
        select(CareerFile)
        .where(
            CareerFile.uploader == uploader,
            CareerFile.application_id.is_(None),
            CareerFile.created_at >= utcnow() - STAGED_LIFETIME,
        )
        .order_by(CareerFile.created_at.desc(), CareerFile.id)
        .limit(1)
    )
    return cv_read(row) if row is not None else None


async def claim_cv(session: AsyncSession, *, actor: Principal, cv_id: str, application_id: str) -> CareerFile:
    """Attach the actor's staged CV `cv_id` to the application; ValidationFailed when it is not theirs or
    not staged any more."""
    row = await session.scalar(
        select(CareerFile).where(
            CareerFile.id == cv_id[:36],
            CareerFile.uploader == uploader_key(actor),
            CareerFile.application_id.is_(None),
        )
    )
    if row is None or not uploader_key(actor):
        raise ValidationFailed(CV_MISSING)
    row.application_id = application_id
    return row


async def open_cv(*, session: AsyncSession, actor: Principal, application_id: str) -> CvFile:
    """HR: the CV sent with an application, to download; audited. NotFound for an application without one."""
    account = await require_hr(session, actor)
    found = (
        await session.execute(
            select(CareerFile, CareerApplication.name, CareerPosting.slug)
            .join(CareerApplication, CareerApplication.id == CareerFile.application_id)
            .join(CareerPosting, CareerPosting.id == CareerApplication.posting_id)
            .where(CareerFile.application_id == (application_id or "")[:36])
        )
    ).first()
    if found is None:
        raise NotFound(CV_NOT_FOUND)
    row, _applicant, posting = found
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=AuditAction.career_cv_download,
        target=f"job application {application_id}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"posting": posting, "filename": row.filename},
    )
    return CvFile(cv=cv_read(row), path=storage.path_of(row.storage_key))
