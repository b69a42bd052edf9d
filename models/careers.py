"""Careers (issue 17, part 5): job postings HR writes in the staff portal (draft, open, closed), the
applications visitors send from /careers/<slug> (name, e-mail, optional phone, a short cover note and a CV),
and the CV files themselves, staged when the browser uploads them and claimed by the application they are
sent with. Applicants' personal data: only staff with manage_staff read applications and CVs
(app/services/careers checks it on every call).
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, Enum, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_TITLE = 120
MAX_TEAM = 80
MAX_CITY = 80
MAX_DESCRIPTION = 20_000  # characters of Markdown
MAX_SLUG = 80
MAX_NAME = 120
MAX_EMAIL = 254
MAX_PHONE = 32  # E.164 as stored
MAX_COVER_NOTE = 3_000
MAX_NOTES = 5_000  # HR's notes on one application
MAX_FILENAME = 120
MAX_POSTINGS = 500
PAGE_SIZE = 25  # postings and applications listed at once


class EmploymentType(enum.StrEnum):
    full_time = "full_time"
    part_time = "part_time"
    contract = "contract"
    per_diem = "per_diem"


EMPLOYMENT_LABELS: dict[EmploymentType, str] = {
    EmploymentType.full_time: "Full-time",
    EmploymentType.part_time: "Part-time",
    EmploymentType.contract: "Contract",
    EmploymentType.per_diem: "Per diem",
}


class PostingStatus(enum.StrEnum):
    draft = "draft"
    open = "open"
    closed = "closed"


POSTING_STATUS_LABELS: dict[PostingStatus, str] = {
    PostingStatus.draft: "Draft",
    PostingStatus.open: "Open",
    PostingStatus.closed: "Closed",
}


class ApplicationStatus(enum.StrEnum):
    new = "new"
    reviewing = "reviewing"
    interview = "interview"
    offer = "offer"
    hired = "hired"
    rejected = "rejected"


APPLICATION_STATUS_LABELS: dict[ApplicationStatus, str] = {
    ApplicationStatus.new: "New",
    ApplicationStatus.reviewing: "Reviewing",
    ApplicationStatus.interview: "Interview",
    ApplicationStatus.offer: "Offer",
    ApplicationStatus.hired: "Hired",
    ApplicationStatus.rejected: "Rejected",
}


class CareerPosting(Base):
    __tablename__ = "career_postings"
    __table_args__ = (Index("ix_career_postings_status", "status", "opened_at"),)

    id: Mapped[str] = id_column()
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    team: Mapped[str] = mapped_column(String(MAX_TEAM))
    remote: Mapped[bool] = mapped_column(Boolean, default=False)
    city: Mapped[str] = mapped_column(String(MAX_CITY), default="")  # empty when remote
    state: Mapped[str] = mapped_column(String(2), default="")  # a US state code; empty when remote
    employment_type: Mapped[EmploymentType] = mapped_column(
        Enum(EmploymentType, native_enum=False, length=16)
    )
    description: Mapped[str] = mapped_column(Text, default="")  # Markdown
    status: Mapped[PostingStatus] = mapped_column(Enum(PostingStatus, native_enum=False, length=16))
    opened_at: Mapped[datetime | None] = mapped_column(default=None)  # first published
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(36), default=None)


class CareerApplication(Base):
    __tablename__ = "career_applications"
    __table_args__ = (Index("ix_career_applications_posting", "posting_id", "status", "created_at"),)

    id: Mapped[str] = id_column()
    posting_id: Mapped[str] = mapped_column(ForeignKey("career_postings.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    email: Mapped[str] = mapped_column(String(MAX_EMAIL))
    phone: Mapped[str] = mapped_column(String(MAX_PHONE), default="")
    cover_note: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[ApplicationStatus] = mapped_column(Enum(ApplicationStatus, native_enum=False, length=16))
    notes: Mapped[str] = mapped_column(Text, default="")  # HR's, never shown to the applicant
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CareerFile(Base):
    """A CV: staged by `uploader` ('user:<id>' or 'visitor:<cookie id>') until an application claims it."""

    __tablename__ = "career_files"
    __table_args__ = (Index("ix_career_files_uploader", "uploader", "application_id"),)

    id: Mapped[str] = id_column()
    uploader: Mapped[str] = mapped_column(String(80))
    application_id: Mapped[str | None] = mapped_column(
        ForeignKey("career_applications.id", ondelete="CASCADE"), default=None, index=True
    )
    filename: Mapped[str] = mapped_column(String(MAX_FILENAME))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    storage_key: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = created_at_column()


# ---- schemas ------------------------------------------------------------------------------------------
class PostingRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    slug: str
    title: str
    team: str
    remote: bool
    city: str
    state: str
    employment_type: EmploymentType
    status: PostingStatus
    opened_at: datetime | None
    updated_at: datetime
    applications: int = 0  # HR's list only: how many were received
    new_applications: int = 0

    @property
    def location(self) -> str:
        return "Remote" if self.remote else f"{self.city}, {self.state}"


class PostingDetailRead(PostingRead):
    description: str  # the Markdown (HR's editor)
    description_html: str  # sanitised HTML
    can_manage: bool


class PostingListRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    postings: list[PostingRead]
    page: int
    has_more: bool


class PostingWrite(BaseModel):
    """What HR's editor sends; checked by the service with clear messages."""

    model_config = ConfigDict(frozen=True)

    title: str = Field(default="", max_length=MAX_TITLE * 2)
    team: str = Field(default="", max_length=MAX_TEAM * 2)
    remote: bool = False
    city: str = Field(default="", max_length=MAX_CITY * 2)
    state: str = Field(default="", max_length=8)
    employment_type: str = Field(default="", max_length=32)
    description: str = Field(default="", max_length=MAX_DESCRIPTION * 2)
    status: str = Field(default="draft", max_length=16)


class CvRead(BaseModel):
    """A staged or sent CV (no storage key: that never leaves the server)."""

    model_config = ConfigDict(frozen=True)

    id: str
    filename: str
    size: int
    content_type: str


class ApplicationCreate(BaseModel):
    """What the application form sends."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(default="", max_length=MAX_NAME * 2)
    email: str = Field(default="", max_length=MAX_EMAIL * 2)
    phone: str = Field(default="", max_length=64)
    cover_note: str = Field(default="", max_length=MAX_COVER_NOTE * 2)
    cv_id: str = Field(default="", max_length=36)


class ApplicationSentRead(BaseModel):
    """What the applicant is shown after sending: nothing HR writes."""

    model_config = ConfigDict(frozen=True)

    posting_title: str
    email: str


class ApplicationRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    posting_id: str
    name: str
    email: str
    phone: str
    cover_note: str
    status: ApplicationStatus
    notes: str
    created_at: datetime
    updated_at: datetime
    cv: CvRead | None


class ApplicationListRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    posting: PostingRead
    applications: list[ApplicationRead]
    counts: dict[ApplicationStatus, int]  # per status, for the filter tabs
    status: ApplicationStatus | None  # the filter shown; None: all
    page: int
    total: int


class ApplicationUpdate(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: str = Field(default="", max_length=16)
    notes: str = Field(default="", max_length=MAX_NOTES * 2)
    send_rejection_email: bool = False
