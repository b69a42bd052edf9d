"""The service catalog (SPEC §1, §3): four categories and the services in them, each with a list price in
US dollars, a visit length, preparation instructions and the places a visit may happen.

Service locations are stored as a small bit mask (five SPEC §3 values); the read schemas expose them as a
list of `ServiceLocation`. Descriptive copy of the categories stays in `components/catalog_copy.py`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Integer, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column

MONEY = Numeric(10, 2)


class ServiceLocation(enum.StrEnum):
    """Where a visit happens (SPEC §3). The value is what URLs carry; `label` is what people read."""

    home = "home"
    office = "office"
    clinic = "clinic"
    virtual = "virtual"
    corporate_venue = "corporate-venue"

    @property
    def label(self) -> str:
        return LOCATION_LABELS[self]

    @property
    def bit(self) -> int:
        return LOCATION_BITS[self]

    @classmethod
    def from_label(cls, label: str) -> ServiceLocation:
        return next(location for location, text in LOCATION_LABELS.items() if text == label)


LOCATION_LABELS: dict[ServiceLocation, str] = {
    ServiceLocation.home: "Home",
    ServiceLocation.office: "Office",
    ServiceLocation.clinic: "Clinic",
    ServiceLocation.virtual: "Virtual",
    ServiceLocation.corporate_venue: "Corporate Venue",
}


LOCATION_BITS: dict[ServiceLocation, int] = {
    location: 1 << index for index, location in enumerate(ServiceLocation)
}


def locations_mask(locations: Iterable[ServiceLocation | str]) -> int:
    mask = 0
    for location in locations:
        mask |= ServiceLocation(location).bit
    return mask


def locations_of(mask: int) -> list[ServiceLocation]:
    return [location for location, bit in LOCATION_BITS.items() if mask & bit]


class ServiceCategory(Base):
    __tablename__ = "service_categories"

    id: Mapped[str] = id_column()
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(Integer, default=0)


class Service(Base):
    __tablename__ = "services"
    __table_args__ = (
        CheckConstraint("price >= 0", name="price_not_negative"),
        CheckConstraint("duration_minutes > 0", name="duration_positive"),
    )

    id: Mapped[str] = id_column()
    category_id: Mapped[str] = mapped_column(
        ForeignKey("service_categories.id", ondelete="RESTRICT"), index=True
    )
    slug: Mapped[str] = mapped_column(String(80), unique=True)
    name: Mapped[str] = mapped_column(String(160))
    description: Mapped[str] = mapped_column(Text, default="")
    preparation: Mapped[str] = mapped_column(Text, default="")
    duration_minutes: Mapped[int] = mapped_column(Integer)
    price: Mapped[Decimal] = mapped_column(MONEY)  # list price in USD; providers set their own
    location_mask: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer, default=0)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    # The service's bit in `Provider.service_mask` (0-62, assigned once, in order of creation); None past
    # 63 services: search then checks the offers themselves.
    search_bit: Mapped[int | None] = mapped_column(Integer, default=None, unique=True)


MAX_SEARCH_BITS = 63  # a signed 64-bit mask


def service_mask(bits: Iterable[int | None]) -> int:
    """The mask of the services with these bits (`Service.search_bit`; None adds nothing)."""
    mask = 0
    for bit in bits:
        if bit is not None:
            mask |= 1 << bit
    return mask


# ---- read schemas ------------------------------------------------------------------------------
class Price(BaseModel):
    """What a visit costs at a given moment: `charge` is what is billed, `original` the price before any
    sale. Always computed on the server (`app.services.pricing`)."""

    model_config = ConfigDict(frozen=True)

    charge: Decimal
    original: Decimal
    discount_percent: int = 0
    sale_ends_at: datetime | None = None

    @property
    def on_sale(self) -> bool:
        return self.charge < self.original


class ServiceRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    slug: str
    name: str
    category_slug: str
    description: str
    preparation: str
    duration_minutes: int
    price: Price
    locations: list[ServiceLocation]


class CategoryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    slug: str
    name: str
    services: list[ServiceRead]
