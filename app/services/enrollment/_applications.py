"""The applicant's side of enrollment: start (or come back to) one's application, save each wizard step on
its own (checked, resumable), hand in and remove credential documents, submit, and resubmit after a
reviewer asked for more information.

Every command acts on the signed-in person's own application only (found by their account id, never by an
id from the screen); a document is removed only when it belongs to that application. Every status change
writes a timeline event and notifies the applicant (PHI-free words; the details are on the page).

An applicant keeps their role (a patient stays a patient, so they can still book visits) until a reviewer
approves them: approval makes them a provider with `enrollment_complete`. While the application is open
the account carries `provider_applicant`, which sends sign-in to /provider-enrollment (SPEC §2).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events, storage
from app.principal import Principal
from app.services.automation.internal import emit_event
from app.services.domain_events import ApplicationSubmitted
from app.services.enrollment._common import (
    NO_APPLICATION,
    application_read,
    change_status,
    document_read,
    record_event,
    set_applicant_flag,
)
from app.services.enrollment._rules import (
    StepInvalid,
    clean_credentials,
    clean_document_dates,
    clean_identity,
    clean_offering,
    has_npi,
    missing_documents,
)
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.addresses import zip_state
from app.services.shared.signed_in import require_account
from models.account import Role
from models.base import utcnow
from models.catalog import Service
from models.enrollment import (
    EDITABLE_STATUSES,
    ApplicationRead,
    ApplicationStatus,
    CredentialDocument,
    CredentialsUpdate,
    DocumentCreate,
    DocumentRead,
    DocumentStatus,
    EventKind,
    IdentityUpdate,
    LicenseCreate,
    OfferingUpdate,
    ProviderApplication,
    ProviderLicense,
    WizardStep,
)
from models.identity import as_utc

MAX_DOCUMENTS = 20  # per application, every kind and version together
DOCUMENT_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "application/pdf"})
NOT_EDITABLE = "Your application is with our team and cannot be changed now."
ALREADY_PROVIDER = "You are already a provider."
TOO_MANY_DOCUMENTS = (
    f"An application can hold at most {MAX_DOCUMENTS} documents. Remove one you replaced first."
)
DOCUMENT_NOT_FOUND = "This document does not exist."
DOCUMENT_REVIEWED = "This document has been reviewed and is kept on record; upload a new one instead."
DOCUMENT_TYPE = "Documents must be PDF, PNG, JPEG or WebP files."
PHOTO_TYPES = frozenset({"image/png", "image/jpeg", "image/webp"})
PHOTO_TYPE = "A photo must be a PNG, JPEG or WebP image."
REAPPLY_LATER = "You may apply again from {date}."
NOT_SUBMITTABLE = "Only a draft or an application that needs information can be sent."
INCOMPLETE_STEP = "Please complete “{step}” first."
MISSING_DOCUMENT = "Please upload your {kind}."
ZIP_OUTSIDE_LICENSES = (
    "You can only serve ZIP codes in states where you hold a licence: {zips} ({states}). Add a licence there "
    "or remove these ZIP codes."
)


async def _mine(session: AsyncSession, actor: Principal, *, lock: bool = False) -> ProviderApplication:
    account = await require_account(session=session, actor=actor)
    statement = select(ProviderApplication).where(ProviderApplication.user_id == account.id)
    if lock:
        statement = statement.with_for_update()
    row = await session.scalar(statement)
    if row is None:
        raise NotFound(NO_APPLICATION)
    return row


def _editable(row: ProviderApplication) -> None:
    if row.status not in EDITABLE_STATUSES:
        raise ValidationFailed(NOT_EDITABLE, code="not_editable")


def _saved(row: ProviderApplication, step: WizardStep, now: datetime) -> None:
    row.step = max(row.step, int(step))
    row.updated_at = now


async def get_my_application(*, session: AsyncSession, actor: Principal) -> ApplicationRead | None:
    """The signed-in person's application, or None before they start one."""
    account = await require_account(session=session, actor=actor)
    row = await session.scalar(select(ProviderApplication).where(ProviderApplication.user_id == account.id))
    return await application_read(session, row) if row is not None else None


async def start_application(*, session: AsyncSession, actor: Principal) -> ApplicationRead:
    """Open the signed-in person's application (their name filled in), or return the one they have. A
    rejected applicant starts again on the same application once `reapply_after` has passed."""
    account = await require_account(session=session, actor=actor)
    if account.enrollment_complete and account.role == Role.provider:
        raise ValidationFailed(ALREADY_PROVIDER, code="already_provider")
    now = utcnow()
    row = await session.scalar(select(ProviderApplication).where(ProviderApplication.user_id == account.id))
    if row is None:
        row = ProviderApplication(
            user_id=account.id,
            first_name=account.first_name[:80],
            last_name=account.last_name[:80],
            phone=account.phone_number[:20] if account.phone_number.startswith("+") else "",
            created_at=now,
            updated_at=now,
            status_changed_at=now,
        )
        session.add(row)
        await session.flush()
        record_event(session, row, kind=EventKind.created, actor_id=account.id, at=now)
        await emit_event(
            session=session,
            event_type="provider.onboarding_started",
            fields={"applicationId": row.id, "userId": account.id},
            now=now,
        )
    elif row.status == ApplicationStatus.rejected:
        if row.reapply_after is not None and _aware(row.reapply_after) > now:
            raise ValidationFailed(
                REAPPLY_LATER.format(date=f"{row.reapply_after:%b %-d, %Y}"), code="too_soon"
            )
        row.status, row.status_changed_at, row.updated_at = ApplicationStatus.draft, now, now
        row.decision_reasons, row.decision_message, row.decided_at, row.decided_by = [], "", None, None
        record_event(
            session, row, kind=EventKind.created, actor_id=account.id, details={"reapplied": True}, at=now
        )
    await set_applicant_flag(session, account.id, True)
    await session.flush()
    return await application_read(session, row)


def _aware(moment: datetime) -> datetime:
    return as_utc(moment)


async def save_identity(
    *, session: AsyncSession, actor: Principal, update: IdentityUpdate
) -> ApplicationRead:
    """Step 1, who you are: legal name, provider type, phone, languages, bio."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    values, errors = clean_identity(update)
    if errors:
        raise StepInvalid(errors)
    changed_type = row.provider_type != values["provider_type"]
    for name, value in values.items():
        setattr(row, name, value)
    if changed_type and not has_npi(row.provider_type):
        row.npi = ""
    _saved(row, WizardStep.identity, utcnow())
    await session.flush()
    return await application_read(session, row)


async def save_credentials(
    *, session: AsyncSession, actor: Principal, update: CredentialsUpdate, today: date | None = None
) -> ApplicationRead:
    """Step 2: the NPI (for the types that have one) and the licences (replacing those saved before)."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    if row.provider_type is None:
        raise StepInvalid({"provider_type": INCOMPLETE_STEP.format(step=WizardStep.identity.label)})
    values, errors = clean_credentials(update, row.provider_type, today or utcnow().date())
    if errors:
        raise StepInvalid(errors)
    row.npi = values["npi"]
    await session.execute(delete(ProviderLicense).where(ProviderLicense.application_id == row.id))
    now = utcnow()
    session.add_all(
        ProviderLicense(application_id=row.id, created_at=now + timedelta(microseconds=n), **licence)
        for n, licence in enumerate(values["licenses"])
    )
    _saved(row, WizardStep.credentials, now)
    await session.flush()
    return await application_read(session, row)


async def _catalog(session: AsyncSession) -> dict[str, tuple[str, int]]:
    rows = await session.execute(
        select(Service.id, Service.name, Service.location_mask).where(Service.is_active.is_(True))
    )
    return {service_id: (name, mask) for service_id, name, mask in rows.all()}


async def _license_states(session: AsyncSession, application_id: str) -> set[str]:
    return set(
        (
            await session.scalars(
                select(ProviderLicense.state).where(ProviderLicense.application_id == application_id)
            )
        ).all()
    )


def _outside_licences(zip_codes: list[str], states: set[str]) -> str | None:
    outside = [(z, zip_state(z)) for z in zip_codes if zip_state(z) not in states]
    if not outside:
        return None
    zips = ", ".join(z for z, _ in outside[:5]) + ("…" if len(outside) > 5 else "")
    return ZIP_OUTSIDE_LICENSES.format(zips=zips, states=", ".join(sorted({s or "?" for _, s in outside})))


async def save_offering(
    *, session: AsyncSession, actor: Principal, update: OfferingUpdate
) -> ApplicationRead:
    """Step 3, what you offer: services with prices and places, ZIP codes (in licensed states), weekly hours."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    values, errors = clean_offering(update, await _catalog(session))
    if "zip_codes" not in errors and values["zip_codes"]:
        problem = _outside_licences(values["zip_codes"], await _license_states(session, row.id))
        if problem:
            errors["zip_codes"] = problem
    if errors:
        raise StepInvalid(errors)
    for name, value in values.items():
        setattr(row, name, value)
    _saved(row, WizardStep.offering, utcnow())
    await session.flush()
    return await application_read(session, row)


async def add_document(
    *,
    session: AsyncSession,
    actor: Principal,
    document: DocumentCreate,
    data: bytes,
    today: date | None = None,
) -> DocumentRead:
    """Step 4: hand in one credential document (PDF or image, type- and size-checked) with its dates."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    values, errors = clean_document_dates(document, today or utcnow().date())
    if errors:
        raise StepInvalid(errors)
    try:
        name, content_type = storage.check_upload(document.filename, data)
    except storage.UploadRejected as exc:
        raise ValidationFailed(exc.message, code=exc.code) from None
    if content_type not in DOCUMENT_TYPES:
        raise ValidationFailed(DOCUMENT_TYPE, code="unsupported_type")
    count = (
        await session.execute(
            select(func.count())
            .select_from(CredentialDocument)
            .where(CredentialDocument.application_id == row.id)
        )
    ).scalar_one()
    if count >= MAX_DOCUMENTS:
        raise ValidationFailed(TOO_MANY_DOCUMENTS, code="too_many_uploads")
    now = utcnow()
    key = await storage.save(data)
    document_row = CredentialDocument(
        application_id=row.id,
        kind=document.kind,
        filename=name,
        content_type=content_type,
        size=len(data),
        storage_key=key,
        uploaded_at=now,
        **values,
    )
    session.add(document_row)
    try:
        await session.flush()
    except Exception:
        await storage.remove(key)
        raise
    kinds = (
        await session.scalars(
            select(CredentialDocument.kind).where(
                CredentialDocument.application_id == row.id,
                CredentialDocument.status != DocumentStatus.rejected,
            )
        )
    ).all()
    _saved(row, WizardStep.documents if not missing_documents(list(kinds)) else WizardStep.offering, now)
    await session.flush()
    return document_read(document_row)


async def remove_document(*, session: AsyncSession, actor: Principal, document_id: str) -> ApplicationRead:
    """Remove a document of one's own application that no reviewer has looked at yet."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    document = await session.get(CredentialDocument, document_id)
    if document is None or document.application_id != row.id:
        raise NotFound(DOCUMENT_NOT_FOUND)
    if document.status != DocumentStatus.pending or document.reviewed_at is not None:
        raise ValidationFailed(DOCUMENT_REVIEWED, code="reviewed")
    key = document.storage_key
    await session.delete(document)
    row.updated_at = utcnow()
    await session.flush()
    await storage.remove(key)
    return await application_read(session, row)


async def set_photo(
    *, session: AsyncSession, actor: Principal, filename: str, data: bytes
) -> ApplicationRead:
    """Step 1: the applicant's photo (PNG, JPEG or WebP), shown to patients once they are listed; replaces
    the one before."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    try:
        _name, content_type = storage.check_upload(filename, data)
    except storage.UploadRejected as exc:
        raise ValidationFailed(exc.message, code=exc.code) from None
    if content_type not in PHOTO_TYPES:
        raise ValidationFailed(PHOTO_TYPE, code="unsupported_type")
    old, row.photo_key = row.photo_key, await storage.save(data)
    row.updated_at = utcnow()
    try:
        await session.flush()
    except Exception:
        await storage.remove(row.photo_key)
        raise
    if old:
        await storage.remove(old)
    return await application_read(session, row)


async def remove_photo(*, session: AsyncSession, actor: Principal) -> ApplicationRead:
    """Take the applicant's photo away (patients then see their initials)."""
    row = await _mine(session, actor, lock=True)
    _editable(row)
    old, row.photo_key = row.photo_key, ""
    row.updated_at = utcnow()
    await session.flush()
    if old:
        await storage.remove(old)
    return await application_read(session, row)


def completeness_errors(application: ApplicationRead, today: date) -> dict[str, str]:
    """What stops the application from being sent, by step (the review page lists them, linked)."""
    errors: dict[str, str] = {}
    _values, identity = clean_identity(
        IdentityUpdate(
            first_name=application.first_name,
            last_name=application.last_name,
            provider_type=application.provider_type.value if application.provider_type else "",
            phone=application.phone,
            languages=application.languages,
            bio=application.bio,
        )
    )
    if identity or application.step < WizardStep.identity:
        errors["identity"] = INCOMPLETE_STEP.format(step=WizardStep.identity.label)
    _values, credentials = clean_credentials(
        CredentialsUpdate(
            npi=application.npi,
            licenses=[
                LicenseCreate(
                    license_type=x.license_type,
                    state=x.state,
                    number=x.number,
                    expires_on=x.expires_on.isoformat(),
                )
                for x in application.licenses
            ],
        ),
        application.provider_type,
        today,
    )
    if credentials or application.step < WizardStep.credentials:
        errors["credentials"] = next(
            iter(credentials.values()), INCOMPLETE_STEP.format(step=WizardStep.credentials.label)
        )
    if not application.offers or not application.zip_codes or not application.weekly_hours:
        errors["offering"] = INCOMPLETE_STEP.format(step=WizardStep.offering.label)
    else:
        problem = _outside_licences(application.zip_codes, {x.state for x in application.licenses})
        if problem:
            errors["offering"] = problem
    handed_in = [d.kind for d in application.documents if d.status != DocumentStatus.rejected]
    for kind in missing_documents(handed_in):
        errors[f"document.{kind.value}"] = MISSING_DOCUMENT.format(kind=kind.label.lower())
    return errors


async def submit_application(
    *, session: AsyncSession, actor: Principal, today: date | None = None
) -> ApplicationRead:
    """Send the application to our team: every step complete and all four kinds of document handed in. An
    application that needed information goes back to the queue (resubmitted)."""
    row = await _mine(session, actor, lock=True)
    if row.status not in EDITABLE_STATUSES:
        raise ValidationFailed(NOT_SUBMITTABLE, code="not_editable")
    current = await application_read(session, row)
    errors = completeness_errors(current, today or utcnow().date())
    if errors:
        raise StepInvalid(errors)
    now = utcnow()
    resubmitted = row.status == ApplicationStatus.needs_information
    row.step = int(WizardStep.review)
    row.submitted_at = now
    record_event(
        session,
        row,
        kind=EventKind.resubmitted if resubmitted else EventKind.submitted,
        actor_id=current.user_id,
        at=now,
    )
    await change_status(session, row, ApplicationStatus.submitted, now=now)
    await events.publish_event(
        session, ApplicationSubmitted(application_id=row.id, resubmitted=resubmitted, at=now)
    )
    await session.flush()
    return await application_read(session, row)


async def withdraw_application(*, session: AsyncSession, actor: Principal) -> ApplicationRead:
    """Take a sent application back to draft (before a reviewer decides), to change something."""
    row = await _mine(session, actor, lock=True)
    if row.status not in (ApplicationStatus.submitted, ApplicationStatus.needs_information):
        raise ValidationFailed(
            "Only an application waiting for review can be taken back.", code="not_withdrawable"
        )
    now = utcnow()
    record_event(session, row, kind=EventKind.withdrawn, actor_id=row.user_id, at=now)
    await change_status(session, row, ApplicationStatus.draft, now=now, notify_applicant=False)
    await session.flush()
    return await application_read(session, row)
