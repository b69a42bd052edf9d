"""Shared by the enrollment commands (the applicant's and staff's): reading an application as a schema,
the timeline, notifying the applicant, and the `provider_applicant` flag kept on the account."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.services.domain_events import ApplicationStatusChanged
from models.base import utcnow
from models.enrollment import (
    ApplicationEvent,
    ApplicationEventRead,
    ApplicationRead,
    ApplicationStatus,
    CredentialDocument,
    DecisionReason,
    DecisionReasonRead,
    DocumentRead,
    EventKind,
    HoursRead,
    LicenseRead,
    OfferRead,
    ProviderApplication,
    ProviderLicense,
    document_standing,
)
from models.identity import User, as_utc

ENROLLMENT_PATH = "/provider-enrollment"
NO_APPLICATION = "You have not started an application yet."


def _utc(moment: datetime | None) -> datetime | None:
    """Aware UTC (SQLite hands back naive datetimes)."""
    return None if moment is None else as_utc(moment)


def license_read(row: ProviderLicense) -> LicenseRead:
    return LicenseRead(
        id=row.id,
        application_id=row.application_id,
        provider_id=row.provider_id,
        license_type=row.license_type,
        state=row.state,
        number=row.number,
        expires_on=row.expires_on,
        reminded_days=row.reminded_days,
        lapsed_at=_utc(row.lapsed_at),
    )


def document_read(row: CredentialDocument, today: date | None = None) -> DocumentRead:
    return DocumentRead(
        id=row.id,
        application_id=row.application_id,
        provider_id=row.provider_id,
        kind=row.kind,
        filename=row.filename,
        content_type=row.content_type,
        size=row.size,
        issued_on=row.issued_on,
        expires_on=row.expires_on,
        status=row.status,
        standing=document_standing(row.status, row.expires_on, today or utcnow().date()),
        reviewed_by=row.reviewed_by,
        reviewed_at=_utc(row.reviewed_at),
        rejection_reason=row.rejection_reason,
        uploaded_at=_utc(row.uploaded_at),
        reminded_days=row.reminded_days,
        lapsed_at=_utc(row.lapsed_at),
    )


async def application_read(
    session: AsyncSession, row: ProviderApplication, today: date | None = None
) -> ApplicationRead:
    """The application with its licences (in the order given) and documents (newest first), the documents'
    standing as of `today`."""
    licenses = (
        await session.scalars(
            select(ProviderLicense)
            .where(ProviderLicense.application_id == row.id)
            .order_by(ProviderLicense.created_at, ProviderLicense.id)
        )
    ).all()
    documents = (
        await session.scalars(
            select(CredentialDocument)
            .where(CredentialDocument.application_id == row.id)
            .order_by(CredentialDocument.uploaded_at.desc(), CredentialDocument.id)
        )
    ).all()
    return ApplicationRead(
        id=row.id,
        user_id=row.user_id,
        status=row.status,
        step=row.step,
        first_name=row.first_name,
        last_name=row.last_name,
        provider_type=row.provider_type,
        phone=row.phone,
        photo_key=row.photo_key,
        languages=list(row.languages or []),
        bio=row.bio,
        npi=row.npi,
        offers=[OfferRead(**offer) for offer in row.offers or []],
        zip_codes=list(row.zip_codes or []),
        weekly_hours=[HoursRead(**hours) for hours in row.weekly_hours or []],
        time_zone=row.time_zone,
        submitted_at=_utc(row.submitted_at),
        status_changed_at=_utc(row.status_changed_at),
        decided_at=_utc(row.decided_at),
        decided_by=row.decided_by,
        decision_reasons=list(row.decision_reasons or []),
        decision_message=row.decision_message,
        reapply_after=_utc(row.reapply_after),
        provider_id=row.provider_id,
        last_nudged_at=_utc(row.last_nudged_at),
        created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
        licenses=[license_read(r) for r in licenses],
        documents=[document_read(r, today) for r in documents],
    )


def record_event(
    session: AsyncSession,
    application: ProviderApplication,
    *,
    kind: EventKind,
    actor_id: str | None,
    details: dict[str, Any] | None = None,
    at: datetime | None = None,
) -> ApplicationEvent:
    """Add a line to the application's timeline (the audit of decisions): ids and codes only."""
    event = ApplicationEvent(
        application_id=application.id, kind=kind, actor_id=actor_id, details=details or {}, at=at or utcnow()
    )
    session.add(event)
    return event


def event_read(row: ApplicationEvent) -> ApplicationEventRead:
    return ApplicationEventRead(
        id=row.id,
        application_id=row.application_id,
        at=_utc(row.at),
        actor_id=row.actor_id,
        kind=row.kind,
        details=dict(row.details or {}),
    )


async def change_status(
    session: AsyncSession,
    application: ProviderApplication,
    status: ApplicationStatus,
    *,
    now: datetime | None = None,
    notify_applicant: bool = True,
) -> None:
    """Move the application to `status` (its clock restarts) and tell the applicant, PHI-free."""
    now = now or utcnow()
    application.status = status
    application.status_changed_at = now
    application.updated_at = now
    if notify_applicant:
        await events.publish_event(
            session,
            ApplicationStatusChanged(
                application_id=application.id, user_id=application.user_id, status=status.value, at=now
            ),
        )


async def set_applicant_flag(session: AsyncSession, user_id: str, applying: bool) -> None:
    """`provider_applicant` in the account's app_metadata (server-side, like `enrollment_complete`): sign-in
    then lands on /provider-enrollment while the application is open."""
    user = await session.get(User, user_id)
    if user is None:
        return
    metadata = dict(user.raw_app_meta_data or {})
    if bool(metadata.get("provider_applicant")) == applying:
        return
    if applying:
        metadata["provider_applicant"] = True
    else:
        metadata.pop("provider_applicant", None)
    user.raw_app_meta_data = metadata


async def list_decision_reasons(
    *, session: AsyncSession, include_inactive: bool = False
) -> list[DecisionReasonRead]:
    """The managed list of reasons, in order (public words: the applicant reads them on their page)."""
    statement = select(DecisionReason).order_by(DecisionReason.position, DecisionReason.code)
    if not include_inactive:
        statement = statement.where(DecisionReason.active.is_(True))
    return [
        DecisionReasonRead(
            code=r.code,
            label=r.label,
            advice=r.advice,
            applies_to=r.applies_to,
            position=r.position,
            active=r.active,
        )
        for r in (await session.scalars(statement)).all()
    ]
