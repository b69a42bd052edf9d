"""Service requests (issue 17): a patient asks for a visit the catalog or directory doesn't satisfy right
now (a service, a place, a ZIP code, one to three preferred time windows, private notes), and eligible
providers answer with offers (a price, a start time inside one of the windows, a short message). The
patient accepts one: it is booked through the ordinary holds and checkout, and the other offers close.

Windows are kept as JSON on the request (at most three, read with it, never searched); `expires_at` is
fixed when the request is posted (the request lifetime, or the end of its last window if sooner), so the
expiry job and the job board filter on a column.
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column
from models.catalog import MONEY, ServiceLocation

MAX_NOTES = 1000
MAX_MESSAGE = 300
MAX_WINDOWS = 3
MAX_LISTED = 50  # requests or offers listed at once


class RequestStatus(enum.StrEnum):
    open = "open"
    offered = "offered"
    booked = "booked"
    expired = "expired"
    cancelled = "cancelled"


LIVE_REQUEST = (RequestStatus.open, RequestStatus.offered)


class OfferStatus(enum.StrEnum):
    pending = "pending"
    accepted = "accepted"
    declined = "declined"
    withdrawn = "withdrawn"
    expired = "expired"


class ServiceRequest(Base):
    __tablename__ = "service_requests"
    __table_args__ = (
        # The job board: live requests for a service and ZIP code, newest first.
        Index("ix_service_requests_board", "status", "service_id", "zip_code", "created_at"),
        Index("ix_service_requests_patient", "patient_id", "created_at"),
        Index("ix_service_requests_expiry", "status", "expires_at"),
    )

    id: Mapped[str] = id_column()
    patient_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    service_id: Mapped[str] = mapped_column(ForeignKey("services.id", ondelete="RESTRICT"))
    location: Mapped[ServiceLocation] = mapped_column(Enum(ServiceLocation, native_enum=False, length=16))
    zip_code: Mapped[str] = mapped_column(String(5))
    state: Mapped[str] = mapped_column(String(2))
    time_zone: Mapped[str] = mapped_column(String(64))  # the ZIP code's: windows are read in it
    windows: Mapped[list[dict]] = mapped_column(JSON)  # [{"starts_at": iso, "ends_at": iso}], UTC, ≤ 3
    notes: Mapped[str] = mapped_column(Text, default="")  # patient, staff with view_patient_logs, winner
    status: Mapped[RequestStatus] = mapped_column(
        Enum(RequestStatus, native_enum=False, length=16), default=RequestStatus.open
    )
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column()
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    appointment_id: Mapped[str | None] = mapped_column(
        ForeignKey("appointments.id", ondelete="SET NULL"), default=None
    )
    order_number: Mapped[str] = mapped_column(String(16), default="")


class ServiceRequestOffer(Base):
    __tablename__ = "service_request_offers"
    __table_args__ = (
        UniqueConstraint("request_id", "provider_id", name="uq_service_request_offers_request_provider"),
        Index("ix_service_request_offers_provider", "provider_id", "created_at"),
    )

    id: Mapped[str] = id_column()
    request_id: Mapped[str] = mapped_column(ForeignKey("service_requests.id", ondelete="CASCADE"))
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"))
    price: Mapped[Decimal] = mapped_column(MONEY)
    starts_at: Mapped[datetime] = mapped_column()
    message: Mapped[str] = mapped_column(String(MAX_MESSAGE), default="")
    status: Mapped[OfferStatus] = mapped_column(
        Enum(OfferStatus, native_enum=False, length=16), default=OfferStatus.pending
    )
    created_at: Mapped[datetime] = created_at_column()
    decided_at: Mapped[datetime | None] = mapped_column(default=None)


# ---- schemas -------------------------------------------------------------------------------------
class TimeWindow(BaseModel):
    """A preferred time: UTC instants."""

    model_config = ConfigDict(frozen=True)

    starts_at: datetime
    ends_at: datetime


class WindowInput(BaseModel):
    """A window as the patient typed it, in the ZIP code's local time: 'YYYY-MM-DD', 'HH:MM', 'HH:MM'."""

    model_config = ConfigDict(frozen=True)

    day: str = ""
    start: str = ""
    end: str = ""


class ServiceRequestCreate(BaseModel):
    model_config = ConfigDict(frozen=True)

    service_slug: str
    location: str
    zip_code: str
    windows: list[WindowInput]
    notes: str = ""


class OfferRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    request_id: str
    provider_id: str
    provider_name: str
    provider_rating: Decimal
    provider_reviews: int
    price: Decimal
    starts_at: datetime
    ends_at: datetime
    message: str
    status: OfferStatus
    created_at: datetime
    # What the offer is for (the provider's Jobs screen): never the patient's notes unless the job is won.
    service_name: str = ""
    zip_code: str = ""
    request_status: RequestStatus | None = None
    location: ServiceLocation | None = None
    notes: str | None = None
    order_number: str = ""


class ServiceRequestRead(BaseModel):
    """A request as its reader may see it: `notes` is None for a provider who hasn't won it."""

    model_config = ConfigDict(frozen=True)

    id: str
    service_slug: str
    service_name: str
    duration_minutes: int
    catalog_price: Decimal
    location: ServiceLocation
    zip_code: str
    area: str  # "Brooklyn, NY"
    time_zone: str
    windows: list[TimeWindow]
    notes: str | None
    status: RequestStatus
    created_at: datetime
    expires_at: datetime
    order_number: str = ""
    offers: list[OfferRead] = []
    my_offer: OfferRead | None = None  # the reading provider's own offer
    distance_miles: float | None = None  # on the job board: from the centre of the provider's service area
    payment_url: str = ""  # after accepting, with a card gateway: where the patient pays
    safety_message: str = ""  # on posting: the 911 / 988 message when the notes have a red flag (issue 27)
