"""Corporate work (issue 17 part 3): enquiries from /corporate become **leads** staff work
(new → contacted → proposal → won / lost, with notes and an assignee); a won lead becomes a **contract**
with an organization: its sites, the services with agreed prices, a period and a status (draft, active,
ended). A contract's **event days** are on-site days at a Corporate Venue: each books one visit per provider
through the booking service (so each provider's no-overlap rule holds) and may be invoiced to the
organization through the invoices service.

Money in integer cents, as in invoices. Who may see a contract: staff with manage_services, the
organization's admins, and the providers booked on one of its event days (`corporate_event_visits`).
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, BigInteger, CheckConstraint, Enum, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_COMPANY = 120
MAX_CONTACT = 100
MAX_EMAIL = 320
MAX_PHONE = 32
MAX_LOCATION = 120
MAX_DATES = 200
MAX_MESSAGE = 2000
MAX_NOTE = 1000
MAX_SITES_TEXT = 500
MAX_TITLE = 120
MAX_SITES = 500
MAX_HEADCOUNT = 1_000_000
MAX_PRICE_CENTS = 10_000_000  # $100,000 a provider-day


class LeadStatus(enum.StrEnum):
    new = "new"
    contacted = "contacted"
    proposal = "proposal"
    won = "won"
    lost = "lost"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class ContractStatus(enum.StrEnum):
    draft = "draft"
    active = "active"
    ended = "ended"

    @property
    def label(self) -> str:
        return self.value.capitalize()


def _enum(kind: type[enum.Enum]) -> Enum:
    return Enum(kind, native_enum=False, length=16)


class CorporateLead(Base):
    __tablename__ = "corporate_leads"
    __table_args__ = (
        Index("ix_corporate_leads_status_created", "status", "created_at"),
        Index("ix_corporate_leads_assigned_status", "assigned_to", "status"),
        CheckConstraint("site_count > 0 AND headcount > 0", name="counts_positive"),
    )

    id: Mapped[str] = id_column()
    company: Mapped[str] = mapped_column(String(MAX_COMPANY))
    contact_name: Mapped[str] = mapped_column(String(MAX_CONTACT))
    email: Mapped[str] = mapped_column(String(MAX_EMAIL))
    phone: Mapped[str] = mapped_column(String(MAX_PHONE))  # E.164
    site_count: Mapped[int] = mapped_column(Integer)
    site_location: Mapped[str] = mapped_column(String(MAX_LOCATION))  # city or ZIP code
    headcount: Mapped[int] = mapped_column(Integer)
    services: Mapped[list[str]] = mapped_column(JSON, default=list)  # catalog slugs
    dates_wanted: Mapped[str] = mapped_column(String(MAX_DATES), default="")
    message: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[LeadStatus] = mapped_column(_enum(LeadStatus), default=LeadStatus.new)
    assigned_to: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    organization_id: Mapped[str | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="SET NULL"), default=None
    )
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class CorporateLeadNote(Base):
    __tablename__ = "corporate_lead_notes"
    __table_args__ = (Index("ix_corporate_lead_notes_lead_created", "lead_id", "created_at"),)

    id: Mapped[str] = id_column()
    lead_id: Mapped[str] = mapped_column(ForeignKey("corporate_leads.id", ondelete="CASCADE"))
    author_id: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="SET NULL"))
    author_name: Mapped[str] = mapped_column(String(MAX_CONTACT))
    body: Mapped[str] = mapped_column(String(MAX_NOTE))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CorporateContract(Base):
    __tablename__ = "corporate_contracts"
    __table_args__ = (
        Index("ix_corporate_contracts_org_status", "organization_id", "status"),
        Index("ix_corporate_contracts_status_created", "status", "created_at"),
        CheckConstraint("starts_on <= ends_on", name="period"),
    )

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(ForeignKey("organizations.id", ondelete="RESTRICT"))
    lead_id: Mapped[str | None] = mapped_column(
        ForeignKey("corporate_leads.id", ondelete="SET NULL"), default=None
    )
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    sites: Mapped[str] = mapped_column(String(MAX_SITES_TEXT), default="")
    billing_email: Mapped[str] = mapped_column(String(MAX_EMAIL))
    starts_on: Mapped[date] = mapped_column()
    ends_on: Mapped[date] = mapped_column()
    status: Mapped[ContractStatus] = mapped_column(_enum(ContractStatus), default=ContractStatus.draft)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class CorporateContractService(Base):
    __tablename__ = "corporate_contract_services"
    __table_args__ = (
        Index("uq_corporate_contract_services_contract_service", "contract_id", "service_id", unique=True),
        CheckConstraint("price_cents >= 0", name="price_not_negative"),
    )

    id: Mapped[str] = id_column()
    contract_id: Mapped[str] = mapped_column(ForeignKey("corporate_contracts.id", ondelete="CASCADE"))
    service_id: Mapped[str] = mapped_column(ForeignKey("services.id", ondelete="RESTRICT"))
    price_cents: Mapped[int] = mapped_column(BigInteger)  # agreed, per provider per event day


class CorporateEventDay(Base):
    __tablename__ = "corporate_event_days"
    __table_args__ = (Index("ix_corporate_event_days_contract_starts", "contract_id", "starts_at"),)

    id: Mapped[str] = id_column()
    contract_id: Mapped[str] = mapped_column(ForeignKey("corporate_contracts.id", ondelete="CASCADE"))
    service_id: Mapped[str] = mapped_column(ForeignKey("services.id", ondelete="RESTRICT"))
    starts_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime] = mapped_column()
    address_line: Mapped[str] = mapped_column(String(200))
    zip_code: Mapped[str] = mapped_column(String(5))
    price_cents: Mapped[int] = mapped_column(BigInteger)  # per provider: the contract's price when booked
    invoice_id: Mapped[str | None] = mapped_column(
        ForeignKey("invoices.id", ondelete="SET NULL"), default=None
    )
    created_at: Mapped[datetime] = created_at_column()


class CorporateEventVisit(Base):
    """One provider's visit on an event day: the appointment the booking service wrote."""

    __tablename__ = "corporate_event_visits"
    __table_args__ = (
        Index("ix_corporate_event_visits_day", "event_day_id"),
        Index("ix_corporate_event_visits_provider", "provider_id", "event_day_id"),
    )

    id: Mapped[str] = id_column()
    event_day_id: Mapped[str] = mapped_column(ForeignKey("corporate_event_days.id", ondelete="CASCADE"))
    appointment_id: Mapped[str] = mapped_column(
        ForeignKey("appointments.id", ondelete="CASCADE"), unique=True
    )
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="RESTRICT"))


# ---- schemas ------------------------------------------------------------------------------------
class EnquiryCreate(BaseModel):
    """The /corporate form as typed (the service checks it and says what is wrong, by field)."""

    company: str = ""
    contact_name: str = ""
    email: str = ""
    phone: str = ""
    site_count: str = "1"
    site_location: str = ""
    headcount: str = ""
    services: list[str] = Field(default_factory=list)
    dates_wanted: str = ""
    message: str = ""


class LeadNoteRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    author_name: str
    body: str
    created_at: datetime


class LeadRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    company: str
    contact_name: str
    email: str
    phone: str
    site_count: int
    site_location: str
    headcount: int
    services: list[str]  # service names
    service_slugs: list[str]
    dates_wanted: str
    message: str
    status: LeadStatus
    assigned_to: str | None
    assigned_name: str
    organization_id: str | None
    contract_id: str | None
    created_at: datetime
    notes: list[LeadNoteRead] = Field(default_factory=list)


class LeadPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[LeadRead]
    total: int
    page: int
    page_size: int


class ContractServiceInput(BaseModel):
    service_slug: str
    price: str  # dollars as typed, e.g. "1,200" or "950.00"


class ContractCreate(BaseModel):
    title: str = ""
    sites: str = ""
    billing_email: str = ""
    starts_on: date
    ends_on: date
    services: list[ContractServiceInput] = Field(default_factory=list)


class ContractServiceRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    service_id: str
    service_slug: str
    service_name: str
    price_cents: int


class EventVisitRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    appointment_id: str
    provider_id: str
    provider_name: str
    status: str


class EventDayRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    service_name: str
    starts_at: datetime
    ends_at: datetime
    address_line: str
    zip_code: str
    time_zone: str  # the venue's (its ZIP code's)
    price_cents: int  # per provider
    visits: list[EventVisitRead]
    invoice_number: str | None


class ContractRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    organization_id: str
    organization_name: str
    lead_id: str | None
    title: str
    sites: str
    billing_email: str
    starts_on: date
    ends_on: date
    status: ContractStatus
    services: list[ContractServiceRead]
    event_days: list[EventDayRead]


class EventProviderRead(BaseModel):
    """A provider staff may book on an event day (verified, active, offering the service)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    provider_type: str


class ContractPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[ContractRead]
    total: int
    page: int
    page_size: int
