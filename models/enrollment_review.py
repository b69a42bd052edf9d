"""What the staff side of credentialing reads (issue 13): the verification queue, an application opened for
review with its checklist and timeline, and the credential documents list of Document Approvals.

No tables here: the checklist is kept as `ApplicationEvent`s of kind `checked` (who ticked what, when), the
decisions on the application's own columns (models/enrollment.py).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from models.enrollment import (
    ApplicationEventRead,
    ApplicationRead,
    ApplicationStatus,
    DecisionReasonRead,
    DocumentRead,
)
from models.provider import ProviderType

# The verification queue: applications waiting for staff, or for the applicant's answer.
QUEUE_STATUSES = (
    ApplicationStatus.submitted,
    ApplicationStatus.in_review,
    ApplicationStatus.needs_information,
)
QUEUE_PAGE_SIZE = 50
DOCUMENTS_PAGE_SIZE = 50
MAX_DECISION_MESSAGE = 2000
MAX_DOCUMENT_NOTE = 300


class QueueRowRead(BaseModel):
    """One application in the queue (what the row shows; the detail is `ApplicationReviewRead`)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    provider_type: ProviderType | None
    status: ApplicationStatus
    submitted_at: datetime | None
    status_changed_at: datetime
    license_states: list[str]
    documents: int
    npi_valid: bool | None  # None: the type has no NPI


class QueuePageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    rows: list[QueueRowRead]
    page: int
    has_more: bool
    counts: dict[str, int]  # applications per queue status (all filters but the status applied)


class CheckItemRead(BaseModel):
    """One line of the reviewer's checklist. `automatic` lines are computed from the rules (the NPI check
    digit) and cannot be ticked; the others are ticked by a reviewer and stored. `notes` are what the rules
    see (an expired licence, ZIP codes outside the licence's state); `blocking` notes prevent approval."""

    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    detail: str = ""
    automatic: bool = False
    passed: bool = False  # automatic: the rule's verdict; ticked: whether it is ticked
    checked_by: str = ""  # the reviewer's name
    checked_at: datetime | None = None
    notes: list[str] = Field(default_factory=list)
    blocking: bool = False


class OfferLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    service_id: str
    name: str
    price: str
    places: list[str]


class TimelineEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    event: ApplicationEventRead
    actor_name: str  # '' for the system or a removed account


class ApplicationReviewRead(BaseModel):
    """An application as a reviewer sees it: the form, its documents, the checklist, the timeline, the
    reasons that may be given, and whether this reviewer may decide it now."""

    model_config = ConfigDict(frozen=True)

    application: ApplicationRead
    email: str
    offers: list[OfferLine]
    checks: list[CheckItemRead]
    timeline: list[TimelineEntry]
    reasons: list[DecisionReasonRead]
    own: bool  # the reviewer's own application: they may read it, never decide it
    decidable: bool  # in a status a decision can be taken in
    blockers: list[str]  # why it cannot be approved yet ([] when it can)

    @property
    def approvable(self) -> bool:
        return self.decidable and not self.own and not self.blockers


class DocumentRowRead(BaseModel):
    """A credential document in Document Approvals, with whose it is."""

    model_config = ConfigDict(frozen=True)

    document: DocumentRead
    applicant_name: str
    application_status: ApplicationStatus
    provider_id: str | None


class DocumentPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    rows: list[DocumentRowRead]
    page: int
    has_more: bool
    counts: dict[str, int]  # documents per standing (the other filters applied)
