"""Document Approvals (issue 13, staff side; SPEC §6 approve_documents, checked on every call) and the
credential files themselves.

- The list: every credential document with its standing (pending, approved, rejected, or computed from the
  expiry date: expiring within 90 days, expired), filters by standing and kind, 50 a page, with a count per
  standing; two queries whatever the page holds.
- Approving or rejecting one (a reason from the managed list for a rejection, an optional note): stored on
  the document, a timeline event (`document_approved` / `document_rejected`), an audit row; a rejection is
  told to the applicant.
- Files: `open_credential_file` gives a document's file to staff who review credentials
  (manage_verification or approve_documents; each read is audited) and to its applicant; anyone else is told
  it does not exist. `open_applicant_photo` gives an application's photo to the same people, and to everybody
  once the provider it became is listed (it is the profile photo).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events, storage
from app.principal import Principal
from app.services.enrollment._common import document_read
from app.services.enrollment._records import (
    NO_DOCUMENT,
    REVIEW_TOPIC,
    active_reasons,
    add_event,
    document_approver,
    moment,
    reason_uses,
)
from app.services.enrollment._review import tell_applicant
from app.services.enrollment._standing import restore_standing_if_current
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from models.account import AccountRead
from models.audit import AuditAction
from models.enrollment import (
    EXPIRING_WITHIN,
    ApplicationStatus,
    CredentialDocument,
    DecisionReasonRead,
    DocumentKind,
    DocumentStanding,
    DocumentStatus,
    EventKind,
    ProviderApplication,
    ReasonUse,
)
from models.enrollment_review import (
    DOCUMENTS_PAGE_SIZE,
    MAX_DOCUMENT_NOTE,
    DocumentPageRead,
    DocumentRowRead,
)
from models.provider import Provider, is_listed
from models.staff import Permission

ALREADY = "This document is already {status}."
REJECT_REASON_REQUIRED = (
    "Choose the reason the document is rejected: the applicant needs to know what to fix."
)
REASON_UNKNOWN = "The reason chosen is not on the list (any more). Please choose again."
FILE_NOT_FOUND = "This file does not exist."
REVIEWERS = frozenset({Permission.manage_verification, Permission.approve_documents})
MAX_PAGES = 1000


@dataclass(frozen=True)
class CredentialFile:
    """A file someone may open: its name, type and where it lies."""

    filename: str
    content_type: str
    path: Path


# ---- the list ---------------------------------------------------------------------------------------------
def _standing_case(today: date) -> ColumnElement[str]:
    """SQL for `document_standing` (models/enrollment.py): the same precedence, computed in the query."""
    D = CredentialDocument
    dated = and_(D.status != DocumentStatus.rejected, D.expires_on.is_not(None))
    return case(
        (and_(dated, D.expires_on < today), DocumentStanding.expired.value),
        (and_(dated, D.expires_on <= today + EXPIRING_WITHIN), DocumentStanding.expiring.value),
        else_=D.status,
    )


def _standing_condition(standing: DocumentStanding, today: date) -> ColumnElement[bool]:
    D = CredentialDocument
    soon = today + EXPIRING_WITHIN
    live = D.status != DocumentStatus.rejected
    if standing == DocumentStanding.expired:
        return and_(live, D.expires_on < today)
    if standing == DocumentStanding.expiring:
        return and_(live, D.expires_on >= today, D.expires_on <= soon)
    if standing == DocumentStanding.rejected:
        return D.status == DocumentStatus.rejected
    return and_(D.status == DocumentStatus(standing.value), or_(D.expires_on.is_(None), D.expires_on > soon))


def _row(
    document: CredentialDocument, first: str, last: str, status: ApplicationStatus, today: date
) -> DocumentRowRead:
    return DocumentRowRead(
        document=document_read(document, today),
        applicant_name=" ".join(p for p in (first, last) if p) or "(no name yet)",
        application_status=status,
        provider_id=document.provider_id,
    )


async def list_credential_documents(
    *,
    session: AsyncSession,
    actor: Principal,
    standing: str = "",
    kind: str = "",
    page: int = 1,
    today: date | None = None,
) -> DocumentPageRead:
    """Every credential document (approve_documents), 50 a page: by expiry (soonest first) when listing
    expiring or expired ones, else the oldest upload first; `standing` and `kind` filters (unknown values
    ignored) and the count per standing."""
    await document_approver(session, actor)
    today = today or moment(None).date()
    page = max(1, min(int(page), MAX_PAGES))
    D, A = CredentialDocument, ProviderApplication
    kinds = [D.kind == DocumentKind(kind)] if kind in DocumentKind.__members__ else []
    chosen = DocumentStanding(standing) if standing in DocumentStanding.__members__ else None
    conditions = [*kinds, _standing_condition(chosen, today)] if chosen else kinds
    by_expiry = chosen in (DocumentStanding.expiring, DocumentStanding.expired)
    order = (D.expires_on, D.id) if by_expiry else (D.uploaded_at, D.application_id, D.kind, D.id)
    found = (
        await session.execute(
            select(D, A.first_name, A.last_name, A.status)
            .join(A, A.id == D.application_id)
            .where(*conditions)
            .order_by(*order)
            .offset((page - 1) * DOCUMENTS_PAGE_SIZE)
            .limit(DOCUMENTS_PAGE_SIZE + 1)
        )
    ).all()
    standing_of = _standing_case(today)
    counts = dict(
        (await session.execute(select(standing_of, func.count()).where(*kinds).group_by(standing_of)))
        .tuples()
        .all()
    )
    return DocumentPageRead(
        rows=[
            _row(doc, first, last, status, today) for doc, first, last, status in found[:DOCUMENTS_PAGE_SIZE]
        ],
        page=page,
        has_more=len(found) > DOCUMENTS_PAGE_SIZE,
        counts={s.value: int(counts.get(s.value, 0)) for s in DocumentStanding},
    )


# ---- approving and rejecting --------------------------------------------------------------------------------
async def _review_document(
    session: AsyncSession,
    actor: Principal,
    document_id: str,
    status: DocumentStatus,
    reason_code: str,
    note: str,
    now: datetime | None,
) -> DocumentRowRead:
    member = await document_approver(session, actor)
    now = moment(now)
    document = await session.scalar(
        select(CredentialDocument).where(CredentialDocument.id == str(document_id)[:36]).with_for_update()
    )
    if document is None:
        raise NotFound(NO_DOCUMENT)
    if document.status == status:
        raise ValidationFailed(ALREADY.format(status=status.value))
    note = " ".join(note.split())[:MAX_DOCUMENT_NOTE]
    reason = None
    if status == DocumentStatus.rejected:
        if not reason_code:
            raise ValidationFailed(REJECT_REASON_REQUIRED)
        reasons = {r.code: r for r in await active_reasons(session, reason_uses(ReasonUse.information))}
        reason = reasons.get(str(reason_code)[:40])
        if reason is None:
            raise ValidationFailed(REASON_UNKNOWN)
    # The document's own application: its foreign key, ON DELETE CASCADE.
    application = await session.get_one(ProviderApplication, document.application_id)
    document.status, document.reviewed_by, document.reviewed_at = status, member.id, now
    document.rejection_reason = (
        (reason.label + (f" — {note}" if note else ""))[:500] if reason is not None else ""
    )
    details = {"document_id": document.id, "kind": document.kind.value}
    if reason is not None:
        details["reason"] = reason.code
    add_event(
        session,
        application_id=document.application_id,
        kind=EventKind.document_rejected if reason is not None else EventKind.document_approved,
        actor_id=member.id,
        at=now,
        details=details | {"note": bool(note)},
    )
    await audit.record_by(
        session=session,
        account=member,
        actor=actor,
        action=AuditAction.document_review,
        target=document.filename,
        details={"decision": status.value, "application_id": document.application_id, **details},
    )
    if reason is not None:
        await tell_applicant(
            session, application, "document_rejected", reasons=[reason], message=note, now=now
        )
    await events.publish_on_commit(session, REVIEW_TOPIC, {"document_id": document.id})
    await session.flush()
    return _row(document, application.first_name, application.last_name, application.status, now.date())


async def approve_document(
    *, session: AsyncSession, actor: Principal, document_id: str, note: str = "", now: datetime | None = None
) -> DocumentRowRead:
    """Approve a credential document (approve_documents), with an optional note for the timeline. A listed
    provider whose credentials had lapsed is back in good standing once every credential is current."""
    approved = await _review_document(session, actor, document_id, DocumentStatus.approved, "", note, now)
    provider_id = await session.scalar(
        select(CredentialDocument.provider_id).where(CredentialDocument.id == approved.document.id)
    )
    if provider_id is not None:
        await restore_standing_if_current(session=session, provider_id=provider_id, now=now)
    return approved


async def reject_document(
    *,
    session: AsyncSession,
    actor: Principal,
    document_id: str,
    reason: str,
    note: str = "",
    now: datetime | None = None,
) -> DocumentRowRead:
    """Reject a credential document (approve_documents) with a reason from the managed list (one that applies
    to information requests) and an optional note; the applicant is told what to replace."""
    return await _review_document(session, actor, document_id, DocumentStatus.rejected, reason, note, now)


async def list_document_reasons(*, session: AsyncSession, actor: Principal) -> list[DecisionReasonRead]:
    """The managed reasons a document may be rejected for, in their order."""
    await document_approver(session, actor)
    return await active_reasons(session, reason_uses(ReasonUse.information))


# ---- files ----------------------------------------------------------------------------------------------
async def _is_reviewer(session: AsyncSession, actor: Principal) -> tuple[AccountRead, bool]:
    account = await require_account(session=session, actor=actor)
    return account, bool(REVIEWERS & await permissions_of(session=session, account=account))


async def open_credential_file(
    *, session: AsyncSession, actor: Principal, document_id: str
) -> CredentialFile:
    """A credential document's file, for credential reviewers (audited) and its own applicant; NotFound for
    anyone else, so an id reveals nothing."""
    account, staff = await _is_reviewer(session, actor)
    document = await session.get(CredentialDocument, str(document_id)[:36])
    application = await session.get(ProviderApplication, document.application_id) if document else None
    if document is None or application is None or not (staff or application.user_id == account.id):
        raise NotFound(FILE_NOT_FOUND)
    if application.user_id != account.id:
        await audit.record_by(
            session=session,
            account=account,
            actor=actor,
            action=AuditAction.credential_file_view,
            target=document.filename,
            details={"document_id": document.id, "application_id": application.id},
        )
    return CredentialFile(document.filename, document.content_type, storage.path_of(document.storage_key))


async def open_applicant_photo(
    *, session: AsyncSession, actor: Principal, application_id: str
) -> CredentialFile:
    """An application's photo: public once its provider is listed (the profile photo); before that for
    credential reviewers and the applicant only (NotFound for anyone else)."""
    application = await session.get(ProviderApplication, str(application_id)[:36])
    if application is None or not application.photo_key:
        raise NotFound(FILE_NOT_FOUND)
    provider = await session.get(Provider, application.provider_id) if application.provider_id else None
    public = application.status == ApplicationStatus.approved and provider is not None and is_listed(provider)
    if not public:
        if not actor.is_user:
            raise NotFound(FILE_NOT_FOUND)
        account, staff = await _is_reviewer(session, actor)
        if not (staff or application.user_id == account.id):
            raise NotFound(FILE_NOT_FOUND)
    name = f"photo-{application.id[:8]}"
    return CredentialFile(name, _image_type(application.photo_key), storage.path_of(application.photo_key))


def _image_type(key: str) -> str:
    """The photo's type, from its contents (the wizard accepts images only)."""
    path = storage.path_of(key)
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError:
        return "application/octet-stream"
    kind = storage.sniff(head)
    return (
        kind.content_type
        if kind is not None and kind.content_type.startswith("image/")
        else "application/octet-stream"
    )
