"""Provider enrollment and credentialing (issue 13): a person's application to become a provider, the licences
and credential documents they hand in, the timeline of everything that happened to it, and the managed list
of reasons reviewers choose from.

Life of an application (`ApplicationStatus`):

    draft ──submit──▶ submitted ──(a reviewer opens it)──▶ in_review ──▶ approved
                                     │                        │
                                     │                        ├──▶ needs_information ──resubmit──▶ submitted
                                     └────────────────────────┴──▶ rejected (may start again after reapply_after)

One application per account (`user_id` is unique): a rejected applicant starts again on the same row once
`reapply_after` has passed. `step` is the furthest wizard step saved, so the wizard resumes there. What the
applicant offers (services and prices, ZIP codes, weekly hours) is kept as JSON on the application until
approval copies it onto the provider's own tables (`provider_services`, `provider_zip_codes`,
`provider_weekly_hours`).

Licences and documents belong to the application, and also to the provider once approved (`provider_id`,
filled on approval), so a provider's credentials are kept in good standing on the same rows: the expiry job
remembers the last reminder stage it sent (`reminded_days`: 90, 30, 7) and when it handled the expiry
(`lapsed_at`). A document's "expiring" and "expired" are computed from `expires_on` (`document_standing`),
never stored. Files live in app.storage under a random key, like help-desk attachments.

`ApplicationEvent` is the timeline and the audit of every decision (who, when, what, with which reasons);
its `details` carry reason codes and ids, never the contents of documents.
"""

from __future__ import annotations

import enum
from datetime import date, datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Enum,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow
from models.provider import DEFAULT_TIME_ZONE, ProviderType

# How far ahead an expiry counts as "expiring" (staff highlight, reminders start).
EXPIRING_WITHIN = timedelta(days=90)
# The reminder stages, in days before expiry, furthest first.
REMINDER_DAYS = (90, 30, 7)


class ApplicationStatus(enum.StrEnum):
    draft = "draft"
    submitted = "submitted"
    in_review = "in_review"
    needs_information = "needs_information"
    approved = "approved"
    rejected = "rejected"

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]


_STATUS_LABELS = {
    ApplicationStatus.draft: "Draft",
    ApplicationStatus.submitted: "Submitted",
    ApplicationStatus.in_review: "In review",
    ApplicationStatus.needs_information: "Needs information",
    ApplicationStatus.approved: "Approved",
    ApplicationStatus.rejected: "Rejected",
}
# Statuses in which the applicant may edit the application (a reviewer is not looking at it).
EDITABLE_STATUSES = frozenset({ApplicationStatus.draft, ApplicationStatus.needs_information})
# Statuses waiting for staff (the verification queue).
WAITING_FOR_STAFF = frozenset({ApplicationStatus.submitted, ApplicationStatus.in_review})


class WizardStep(enum.IntEnum):
    """The applicant's wizard, in order; `ProviderApplication.step` is the furthest one saved."""

    identity = 1
    credentials = 2
    offering = 3
    documents = 4
    review = 5

    @property
    def label(self) -> str:
        return _STEP_LABELS[self]


_STEP_LABELS = {
    WizardStep.identity: "Who you are",
    WizardStep.credentials: "Credentials",
    WizardStep.offering: "What you offer",
    WizardStep.documents: "Documents",
    WizardStep.review: "Review and submit",
}


class DocumentKind(enum.StrEnum):
    license = "license"
    government_id = "government_id"
    malpractice_insurance = "malpractice_insurance"
    cpr_bls = "cpr_bls"

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]


_KIND_LABELS = {
    DocumentKind.license: "Professional licence",
    DocumentKind.government_id: "Government ID",
    DocumentKind.malpractice_insurance: "Malpractice insurance",
    DocumentKind.cpr_bls: "CPR/BLS certificate",
}


class DocumentStatus(enum.StrEnum):
    """Stored review state. Expiring/expired are computed from `expires_on` (`DocumentStanding`)."""

    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class DocumentStanding(enum.StrEnum):
    """What staff and the applicant see: the review state, or expiring/expired computed from the dates."""

    pending = "pending"
    approved = "approved"
    rejected = "rejected"
    expiring = "expiring"
    expired = "expired"


def document_standing(status: DocumentStatus, expires_on: date | None, today: date) -> DocumentStanding:
    """A document's standing on `today`: expired once `expires_on` has passed, expiring within 90 days
    (unless rejected: a rejected document's dates do not matter), else its review status."""
    if status != DocumentStatus.rejected and expires_on is not None:
        if expires_on < today:
            return DocumentStanding.expired
        if expires_on - today <= EXPIRING_WITHIN:
            return DocumentStanding.expiring
    return DocumentStanding(status.value)


class EventKind(enum.StrEnum):
    created = "created"
    submitted = "submitted"
    info_requested = "info_requested"
    resubmitted = "resubmitted"
    in_review = "in_review"
    approved = "approved"
    rejected = "rejected"
    document_approved = "document_approved"
    document_rejected = "document_rejected"
    nudged = "nudged"
    suspended = "suspended"
    reinstated = "reinstated"
    lapsed = "lapsed"
    withdrawn = "withdrawn"
    checked = "checked"  # a reviewer ticked (or unticked) a checklist item: details.item, details.checked


class ReasonUse(enum.StrEnum):
    """Which decision a reason may be given for."""

    information = "information"
    rejection = "rejection"
    both = "both"


def _enum(kind: type[enum.Enum], length: int = 24) -> Enum:
    return Enum(kind, native_enum=False, length=length)


class ProviderApplication(Base):
    __tablename__ = "provider_applications"
    __table_args__ = (
        # The verification queue: applications in a status, oldest first.
        Index("ix_provider_applications_queue", "status", "status_changed_at"),
        # Nudges: drafts not touched for days.
        Index("ix_provider_applications_idle", "status", "updated_at"),
        CheckConstraint("step BETWEEN 0 AND 5", name="step_range"),
    )

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), unique=True)
    status: Mapped[ApplicationStatus] = mapped_column(
        _enum(ApplicationStatus), default=ApplicationStatus.draft
    )
    step: Mapped[int] = mapped_column(SmallInteger, default=0)  # the furthest WizardStep saved (0: none)
    # Who you are.
    first_name: Mapped[str] = mapped_column(String(80), default="")
    last_name: Mapped[str] = mapped_column(String(80), default="")
    provider_type: Mapped[ProviderType | None] = mapped_column(
        Enum(ProviderType, native_enum=False, length=32), default=None
    )
    phone: Mapped[str] = mapped_column(String(20), default="")  # E.164
    photo_key: Mapped[str] = mapped_column(String(64), default="")  # app.storage key, '' for none
    languages: Mapped[list[str]] = mapped_column(JSON, default=list)
    bio: Mapped[str] = mapped_column(Text, default="")
    # Credentials ('' when the type has no NPI; licences are rows of provider_licenses).
    npi: Mapped[str] = mapped_column(String(10), default="")
    # What you offer: [{service_id, price (a decimal string), location_mask}], ['10001', …],
    # [{weekday, start_minute, end_minute}], an IANA time zone.
    offers: Mapped[list[dict]] = mapped_column(JSON, default=list)
    zip_codes: Mapped[list[str]] = mapped_column(JSON, default=list)
    weekly_hours: Mapped[list[dict]] = mapped_column(JSON, default=list)
    time_zone: Mapped[str] = mapped_column(String(64), default=DEFAULT_TIME_ZONE)
    # The decision and its dates.
    submitted_at: Mapped[datetime | None] = mapped_column(default=None)
    status_changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(default=None)
    decided_by: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    decision_reasons: Mapped[list[str]] = mapped_column(JSON, default=list)  # DecisionReason codes
    decision_message: Mapped[str] = mapped_column(Text, default="")
    reapply_after: Mapped[datetime | None] = mapped_column(default=None)  # after a rejection
    provider_id: Mapped[str | None] = mapped_column(
        ForeignKey("providers.id", ondelete="SET NULL"), default=None
    )  # set on approval
    last_nudged_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ProviderLicense(Base):
    """A professional licence: of the application, and of the provider once approved. A licence recorded on
    a provider who never applied (seeded, imported, created from the command line) has no application."""

    __tablename__ = "provider_licenses"
    __table_args__ = (
        Index("ix_provider_licenses_application_id", "application_id"),
        Index("ix_provider_licenses_provider_expires", "provider_id", "expires_on"),
        Index("ix_provider_licenses_state", "state"),
    )

    id: Mapped[str] = id_column()
    application_id: Mapped[str | None] = mapped_column(
        ForeignKey("provider_applications.id", ondelete="CASCADE"), default=None
    )
    provider_id: Mapped[str | None] = mapped_column(
        ForeignKey("providers.id", ondelete="SET NULL"), default=None
    )
    license_type: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(String(2))
    number: Mapped[str] = mapped_column(String(40))
    expires_on: Mapped[date] = mapped_column()
    # Good standing (the expiry job): the last reminder stage sent (90/30/7) and when the expiry was handled.
    reminded_days: Mapped[int | None] = mapped_column(SmallInteger, default=None)
    lapsed_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CredentialDocument(Base):
    """An uploaded credential document (a file in app.storage) with its dates and review."""

    __tablename__ = "credential_documents"
    __table_args__ = (
        Index("ix_credential_documents_application_id", "application_id"),
        Index("ix_credential_documents_provider_id", "provider_id"),
        Index("ix_credential_documents_status_uploaded", "status", "uploaded_at"),
        Index("ix_credential_documents_expires_on", "expires_on"),
    )

    id: Mapped[str] = id_column()
    application_id: Mapped[str] = mapped_column(ForeignKey("provider_applications.id", ondelete="CASCADE"))
    provider_id: Mapped[str | None] = mapped_column(
        ForeignKey("providers.id", ondelete="SET NULL"), default=None
    )
    kind: Mapped[DocumentKind] = mapped_column(_enum(DocumentKind))
    filename: Mapped[str] = mapped_column(String(200))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    storage_key: Mapped[str] = mapped_column(String(200), unique=True)
    issued_on: Mapped[date | None] = mapped_column(default=None)
    expires_on: Mapped[date | None] = mapped_column(default=None)
    status: Mapped[DocumentStatus] = mapped_column(_enum(DocumentStatus), default=DocumentStatus.pending)
    reviewed_by: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    reviewed_at: Mapped[datetime | None] = mapped_column(default=None)
    rejection_reason: Mapped[str] = mapped_column(String(500), default="")
    uploaded_at: Mapped[datetime] = mapped_column(default=utcnow)
    reminded_days: Mapped[int | None] = mapped_column(SmallInteger, default=None)
    lapsed_at: Mapped[datetime | None] = mapped_column(default=None)


class ApplicationEvent(Base):
    """One line of an application's timeline, and the audit of a decision (actor None: the system)."""

    __tablename__ = "application_events"
    __table_args__ = (Index("ix_application_events_application_at", "application_id", "at"),)

    id: Mapped[str] = id_column()
    application_id: Mapped[str] = mapped_column(ForeignKey("provider_applications.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor_id: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    kind: Mapped[EventKind] = mapped_column(_enum(EventKind))
    details: Mapped[dict] = mapped_column(JSON, default=dict)


class DecisionReason(Base):
    """A reason a reviewer may give (the managed list): what the applicant reads, and what to do about it."""

    __tablename__ = "decision_reasons"

    code: Mapped[str] = mapped_column(String(40), primary_key=True)
    label: Mapped[str] = mapped_column(String(200))
    advice: Mapped[str] = mapped_column(String(400), default="")  # what the applicant should fix
    applies_to: Mapped[ReasonUse] = mapped_column(_enum(ReasonUse, 16), default=ReasonUse.both)
    position: Mapped[int] = mapped_column(SmallInteger, default=0)
    active: Mapped[bool] = mapped_column(Boolean, default=True)


# ---- input schemas ----------------------------------------------------------------------------------------
# Sizes: every text is cut to its column by the rules; lists are bounded here so nothing huge is parsed.
MAX_LANGUAGES = 10
MAX_LICENSES = 10
MAX_OFFERS = 40
MAX_ZIP_CODES = 200
MAX_HOURS = 21
MAX_BIO = 2000


class IdentityUpdate(BaseModel):
    """Step 1, who you are. Strings as typed; the rules clean and check them."""

    model_config = ConfigDict(frozen=True)

    first_name: str = Field("", max_length=200)
    last_name: str = Field("", max_length=200)
    provider_type: str = Field("", max_length=40)
    phone: str = Field("", max_length=64)
    languages: list[str] = Field(default_factory=list, max_length=MAX_LANGUAGES)
    bio: str = Field("", max_length=MAX_BIO * 2)


class LicenseCreate(BaseModel):
    model_config = ConfigDict(frozen=True)

    license_type: str = Field("", max_length=80)
    state: str = Field("", max_length=20)
    number: str = Field("", max_length=80)
    expires_on: str = Field("", max_length=20)  # ISO date as typed (a date input's value)


class CredentialsUpdate(BaseModel):
    """Step 2: the NPI (for the types that have one) and every licence."""

    model_config = ConfigDict(frozen=True)

    npi: str = Field("", max_length=40)
    licenses: list[LicenseCreate] = Field(default_factory=list, max_length=MAX_LICENSES)


class OfferCreate(BaseModel):
    model_config = ConfigDict(frozen=True)

    service_id: str = Field(max_length=36)
    price: str = Field("", max_length=20)
    location_mask: int = Field(0, ge=0, le=1023)


class HoursCreate(BaseModel):
    model_config = ConfigDict(frozen=True)

    weekday: int = Field(ge=0, le=6)
    start_minute: int = Field(ge=0, le=1440)
    end_minute: int = Field(ge=0, le=1440)


class OfferingUpdate(BaseModel):
    """Step 3, what you offer."""

    model_config = ConfigDict(frozen=True)

    offers: list[OfferCreate] = Field(default_factory=list, max_length=MAX_OFFERS)
    zip_codes: list[str] = Field(default_factory=list, max_length=MAX_ZIP_CODES)
    weekly_hours: list[HoursCreate] = Field(default_factory=list, max_length=MAX_HOURS)
    time_zone: str = Field(DEFAULT_TIME_ZONE, max_length=64)


class DocumentCreate(BaseModel):
    """Step 4: one document's description (the file's bytes travel beside it)."""

    model_config = ConfigDict(frozen=True)

    kind: DocumentKind
    filename: str = Field(max_length=300)
    issued_on: str = Field("", max_length=20)
    expires_on: str = Field("", max_length=20)


class DecisionCreate(BaseModel):
    """A reviewer's decision: reason codes from the managed list and an optional message."""

    model_config = ConfigDict(frozen=True)

    reasons: list[str] = Field(default_factory=list, max_length=10)
    message: str = Field("", max_length=2000)


# ---- read schemas -----------------------------------------------------------------------------------------
class LicenseRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    application_id: str | None
    provider_id: str | None
    license_type: str
    state: str
    number: str
    expires_on: date
    reminded_days: int | None = None
    lapsed_at: datetime | None = None


class DocumentRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    application_id: str
    provider_id: str | None
    kind: DocumentKind
    filename: str
    content_type: str
    size: int
    issued_on: date | None
    expires_on: date | None
    status: DocumentStatus
    standing: DocumentStanding
    reviewed_by: str | None
    reviewed_at: datetime | None
    rejection_reason: str
    uploaded_at: datetime
    reminded_days: int | None = None
    lapsed_at: datetime | None = None


class OfferRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    service_id: str
    price: str
    location_mask: int


class HoursRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    weekday: int
    start_minute: int
    end_minute: int


class DecisionReasonRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    label: str
    advice: str
    applies_to: ReasonUse
    position: int
    active: bool


class ApplicationEventRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    application_id: str
    at: datetime
    actor_id: str | None
    kind: EventKind
    details: dict


class ApplicationRead(BaseModel):
    """An application with its licences and documents (the applicant's and the reviewer's view)."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    status: ApplicationStatus
    step: int
    first_name: str
    last_name: str
    provider_type: ProviderType | None
    phone: str
    photo_key: str
    languages: list[str]
    bio: str
    npi: str
    offers: list[OfferRead]
    zip_codes: list[str]
    weekly_hours: list[HoursRead]
    time_zone: str
    submitted_at: datetime | None
    status_changed_at: datetime
    decided_at: datetime | None
    decided_by: str | None
    decision_reasons: list[str]
    decision_message: str
    reapply_after: datetime | None
    provider_id: str | None
    last_nudged_at: datetime | None
    created_at: datetime
    updated_at: datetime
    licenses: list[LicenseRead] = Field(default_factory=list)
    documents: list[DocumentRead] = Field(default_factory=list)

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.first_name, self.last_name) if part)
