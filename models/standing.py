"""Schemas of the staff side of providers (issue 13): the onboarding pipeline and board, an applicant's
timeline, Provider Management's list and a provider's page, and the audit of decisions about a provider.
No tables: the rows are models.enrollment's, models.provider's, models.booking's and the audit log's.
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field

from models.enrollment import ApplicationStatus, DocumentRead, EventKind, LicenseRead
from models.provider import ProviderType

MANAGED_PAGE_SIZE = 50
BOARD_LIMIT = 25  # applications shown per status column (the oldest in status first)
MAX_SEARCH = 80
MAX_REASON = 500
MIN_REASON = 5


class ProviderStanding(enum.StrEnum):
    """What Provider Management shows for a provider, most urgent first."""

    suspended = "suspended"
    lapsed = "lapsed"
    unverified = "unverified"
    inactive = "inactive"
    listed = "listed"

    @property
    def label(self) -> str:
        return {"lapsed": "Credentials lapsed"}.get(self.value, self.value.capitalize())


# ---- onboarding ------------------------------------------------------------------------------------------
class OnboardingCard(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str  # the applicant's legal name, or their account's e-mail while it is blank
    provider_type: ProviderType | None
    status: ApplicationStatus
    step: int
    status_changed_at: datetime
    days_in_status: int
    last_nudged_at: datetime | None


class OnboardingColumn(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: ApplicationStatus
    count: int
    cards: list[OnboardingCard]


class OnboardingPipeline(BaseModel):
    model_config = ConfigDict(frozen=True)

    columns: list[OnboardingColumn]
    total: int


class TimelineEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    at: datetime
    kind: EventKind
    actor: str  # the staff member's name or e-mail, "Applicant", or "System"
    details: dict


class ApplicantTimeline(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    email: str
    provider_type: ProviderType | None
    status: ApplicationStatus
    step: int
    created_at: datetime
    status_changed_at: datetime
    last_nudged_at: datetime | None
    provider_id: str | None
    events: list[TimelineEntry]


# ---- provider management ---------------------------------------------------------------------------------
class ManagedProviderQuery(BaseModel):
    """Provider Management's filters, as the URL carries them."""

    model_config = ConfigDict(frozen=True)

    search: str = Field("", max_length=MAX_SEARCH)
    standing: ProviderStanding | None = None
    provider_type: ProviderType | None = None
    state: str = Field("", max_length=2)
    page: int = Field(1, ge=1, le=10_000)


class ManagedProviderRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    provider_type: ProviderType
    standing: ProviderStanding
    rating: float
    review_count: int
    visits: int  # completed visits
    nearest_expiry: date | None  # the soonest expiry among the licences still valid
    license_state: str


class ManagedProviderPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[ManagedProviderRow]
    total: int
    more: bool  # `total` is a lower bound (counting stopped at a cap)
    page: int
    per_page: int
    has_next: bool


class VisitSummary(BaseModel):
    model_config = ConfigDict(frozen=True)

    completed: int = 0
    cancelled: int = 0
    upcoming: int = 0  # pending or confirmed, not started yet
    last_visit_at: datetime | None = None
    next_visit_at: datetime | None = None


class ManagedProvider(BaseModel):
    """A provider's page in Provider Management (the audit is separate: view_provider_logs)."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str | None
    name: str
    email: str
    provider_type: ProviderType
    standing: ProviderStanding
    is_verified: bool
    is_active: bool
    suspended_at: datetime | None
    suspension_reason: str
    credentials_lapsed_at: datetime | None
    standing_problems: list[str]
    bio: str
    languages: list[str]
    time_zone: str
    rating: float
    review_count: int
    zip_codes: list[str]
    services: list[str]
    licenses: list[LicenseRead]
    documents: list[DocumentRead]
    visits: VisitSummary
    application_id: str | None
    application_status: ApplicationStatus | None


class ProviderAuditEntry(BaseModel):
    """One decision about a provider: a line of its application's timeline or an audit-log row."""

    model_config = ConfigDict(frozen=True)

    at: datetime
    action: str
    actor: str
    reason: str
    details: dict


class StandingChange(BaseModel):
    """What a suspension or reinstatement did."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    standing: ProviderStanding
    upcoming_visits: int  # visits ahead, flagged to staff (and their patients told) on a suspension
    patients_told: int
