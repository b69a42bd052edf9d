"""Provider profiles (SPEC §1, §3): who the provider is, their credentials, the services they offer at their
own prices, the ZIP codes they travel to, their weekly hours and time off, and patients' reviews.

Only providers that are both verified and active are shown anywhere public. The rating on the profile
row is a cache of the reviews of completed visits (`app.services.reviews.refresh_ratings` keeps it).

Hang-off points for booking: an appointment references `providers.id` and `services.id`, becomes a busy
interval for the slot generator, and a review points back at it through `provider_reviews.appointment_id`.
"""

from __future__ import annotations

import contextlib
import enum
import unicodedata
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Enum,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    SmallInteger,
    String,
    Text,
    func,
)
from sqlalchemy import text as sa_text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column
from models.catalog import MONEY, Price, ServiceLocation

DEFAULT_TIME_ZONE = "America/New_York"


class ProviderType(enum.StrEnum):
    """SPEC §3 provider types. The value is what URLs carry; `label` is the SPEC's name."""

    doctor = "doctor"
    nurse = "nurse"
    technician = "technician"
    therapist = "therapist"
    caregiver = "caregiver"
    counselor = "counselor"
    pharmacist = "pharmacist"
    nutritionist = "nutritionist"
    wellness_coach = "wellness-coach"
    fitness_instructor = "fitness-instructor"
    beauty_professional = "beauty-professional"
    mental_health_therapist = "mental-health-therapist"
    hair_professional = "hair-professional"
    makeup_artist = "makeup-artist"
    cna = "cna"
    lvn = "lvn"
    np = "np"
    medical_assistant = "medical-assistant"
    medical_coder = "medical-coder"
    transportation = "transportation"
    marriage_counselor = "marriage-counselor"
    specialist = "specialist"

    @property
    def label(self) -> str:
        return _TYPE_LABELS.get(self, self.value.replace("-", " ").title())


_TYPE_LABELS = {ProviderType.cna: "CNA", ProviderType.lvn: "LVN", ProviderType.np: "NP"}


class Provider(Base):
    __tablename__ = "providers"
    __table_args__ = (
        # Public listings filter on verified + active and sort by rating; search narrows by type.
        Index("ix_providers_listing", "is_verified", "is_active", "rating_average", "review_count"),
        # Sorting by price: covers the ties on the lowest price (thousands at scale) with their rating.
        Index(
            "ix_providers_listing_price_rating",
            "is_verified",
            "is_active",
            "lowest_price",
            "rating_average",
            "review_count",
            "id",
        ),
        CheckConstraint("review_count >= 0", name="review_count_not_negative"),
    )

    id: Mapped[str] = id_column()
    # The identity user who owns this profile (the provider's account), if any.
    user_id: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), unique=True, default=None
    )
    first_name: Mapped[str] = mapped_column(String(80))
    last_name: Mapped[str] = mapped_column(String(80))
    provider_type: Mapped[ProviderType] = mapped_column(Enum(ProviderType, native_enum=False, length=32))
    license_type: Mapped[str] = mapped_column(String(40), default="")
    license_number: Mapped[str] = mapped_column(String(40), default="")
    license_state: Mapped[str] = mapped_column(String(2), default="")
    is_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    # Staff suspension (reason shown to staff) and credentials lapsed by the expiry job: either one unlists the
    # provider and refuses new bookings until it is cleared (`is_listed`).
    suspended_at: Mapped[datetime | None] = mapped_column(default=None)
    suspension_reason: Mapped[str] = mapped_column(String(500), default="")
    credentials_lapsed_at: Mapped[datetime | None] = mapped_column(default=None)
    bio: Mapped[str] = mapped_column(Text, default="")
    photo_url: Mapped[str] = mapped_column(String(2048), default="")
    languages: Mapped[list[str]] = mapped_column(JSON, default=list)
    time_zone: Mapped[str] = mapped_column(String(64), default=DEFAULT_TIME_ZONE)
    # Cache of the reviews of completed visits (average 0 with no reviews).
    rating_average: Mapped[Decimal] = mapped_column(Numeric(3, 2), default=Decimal("0"))
    review_count: Mapped[int] = mapped_column(Integer, default=0)
    # Caches kept by the services that write the source rows, so search needs no extra query per provider:
    # the weekly hours as text (`slots.schedule_key`) and the lowest price of the services offered.
    schedule_key: Mapped[str] = mapped_column(String(400), default="")
    lowest_price: Mapped[Decimal | None] = mapped_column(MONEY, default=None)
    # The services offered, one bit per catalog service (`Service.search_bit`, `service_mask`): a ZIP code's
    # copy lets search filter by service inside the listing indexes instead of joining the offers.
    service_mask: Mapped[int] = mapped_column(BigInteger, default=0, server_default=sa_text("0"))
    created_at: Mapped[datetime] = created_at_column()


class ProviderService(Base):
    """A service a provider offers, at the provider's own price and at some of the service's locations."""

    __tablename__ = "provider_services"
    __table_args__ = (
        # Search by service in price order reads this index alone (provider and places included).
        Index(
            "ix_provider_services_service_price_offer", "service_id", "price", "provider_id", "location_mask"
        ),
        Index("ix_provider_services_type_service", "provider_type", "service_id"),
        # A provider's offers with their price and places: search's probes per candidate (an offer at a place
        # of visit, the lowest price in scope) read the index alone, not the table.
        Index("ix_provider_services_provider_offer", "provider_id", "service_id", "price", "location_mask"),
        CheckConstraint("price >= 0", name="price_not_negative"),
    )

    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), primary_key=True)
    service_id: Mapped[str] = mapped_column(ForeignKey("services.id", ondelete="RESTRICT"), primary_key=True)
    price: Mapped[Decimal] = mapped_column(MONEY)
    location_mask: Mapped[int] = mapped_column(Integer)  # a subset of the service's locations
    # The provider's type (it never changes): "does a nurse offer IV therapy?" is one index probe.
    provider_type: Mapped[ProviderType | None] = mapped_column(
        Enum(ProviderType, native_enum=False, length=32), default=None
    )


# A partial index's condition, as each dialect writes `ProviderZip.listed == true()` (which search uses).
LISTED_ZIP: dict[str, Any] = {"postgresql_where": sa_text("listed"), "sqlite_where": sa_text("listed = 1")}


class ProviderZip(Base):
    """One ZIP code a provider travels to (the service area). Keyed ZIP first: search looks up by ZIP.

    Search by ZIP code reads these rows alone: each carries a copy of what search filters and sorts the
    provider's matches by (`LISTING_COPY`), kept by every command that changes the provider's
    (`listing_values`), so a ZIP code's listed providers are one index range in rating order, or per
    (time zone, weekly hours) group, instead of thousands of probes into `providers`.
    """

    __tablename__ = "provider_zip_codes"
    __table_args__ = (Index("ix_provider_zip_codes_provider_id", "provider_id"),)

    zip_code: Mapped[str] = mapped_column(String(5), primary_key=True)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), primary_key=True)
    # Copies of the provider's row (see `listing_values`); `listed` is `is_listed` (verified, active, neither
    # suspended nor lapsed).
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    provider_type: Mapped[ProviderType | None] = mapped_column(
        Enum(ProviderType, native_enum=False, length=32), default=None
    )
    time_zone: Mapped[str] = mapped_column(String(64), default=DEFAULT_TIME_ZONE)
    schedule_key: Mapped[str] = mapped_column(String(400), default="")
    rating_average: Mapped[Decimal] = mapped_column(Numeric(3, 2), default=Decimal("0"))
    review_count: Mapped[int] = mapped_column(Integer, default=0)
    lowest_price: Mapped[Decimal | None] = mapped_column(MONEY, default=None)
    service_mask: Mapped[int] = mapped_column(BigInteger, default=0, server_default=sa_text("0"))


# Provider Management's search by name: a case-insensitive prefix of the last name (in name order) or of the
# first name.
Index(
    "ix_providers_last_name_lower",
    func.lower(Provider.last_name),
    func.lower(Provider.first_name),
    Provider.id,
)
Index("ix_providers_first_name_lower", func.lower(Provider.first_name))
# Soonest-first ranking walks each (time zone, weekly hours) group of listed providers in rating order (type
# included for the type filter); its leading columns list the groups (a loose index scan).
Index(
    "ix_providers_listing_schedule_rating",
    Provider.is_verified,
    Provider.is_active,
    Provider.time_zone,
    Provider.schedule_key,
    Provider.rating_average.desc(),
    Provider.review_count.desc(),
    Provider.id,
    Provider.provider_type,
)
# A type's providers in rating order (listing flags included: a page of listed ones reads the index alone).
Index(
    "ix_providers_type_rating",
    Provider.provider_type,
    Provider.rating_average.desc(),
    Provider.review_count.desc(),
    Provider.id,
    Provider.is_verified,
    Provider.is_active,
)
# A ZIP code's listed providers in rating order, and per schedule group in rating order.
Index(
    "ix_provider_zip_codes_listed_rating",
    ProviderZip.zip_code,
    ProviderZip.rating_average.desc(),
    ProviderZip.review_count.desc(),
    ProviderZip.provider_id,
    ProviderZip.provider_type,
    ProviderZip.service_mask,
    **LISTED_ZIP,
)
Index(
    "ix_provider_zip_codes_listed_schedule",
    ProviderZip.zip_code,
    ProviderZip.time_zone,
    ProviderZip.schedule_key,
    ProviderZip.rating_average.desc(),
    ProviderZip.review_count.desc(),
    ProviderZip.provider_id,
    ProviderZip.provider_type,
    ProviderZip.service_mask,
    **LISTED_ZIP,
)
# A ZIP code's listed providers by lowest price (then rating): a price page in a service or category reads only
# those whose lowest price is within the page's bound, and one without a service is an index range.
Index(
    "ix_provider_zip_codes_listed_price",
    ProviderZip.zip_code,
    ProviderZip.lowest_price,
    ProviderZip.rating_average.desc(),
    ProviderZip.review_count.desc(),
    ProviderZip.provider_id,
    ProviderZip.provider_type,
    ProviderZip.service_mask,
    **LISTED_ZIP,
)

LISTING_COPY = (
    "provider_type",
    "time_zone",
    "schedule_key",
    "rating_average",
    "review_count",
    "lowest_price",
    "service_mask",
)


def is_listed(provider: Provider | dict) -> bool:
    """Whether a provider is public (listed, bookable): verified, active, not suspended, credentials not
    lapsed. `LISTED_CONDITIONS` is the same rule in SQL."""
    get = provider.get if isinstance(provider, dict) else lambda name: getattr(provider, name, None)
    return bool(
        get("is_verified")
        and get("is_active")
        and get("suspended_at") is None
        and get("credentials_lapsed_at") is None
    )


_LISTING_STATE = ("is_verified", "is_active", "suspended_at", "credentials_lapsed_at")

# `is_listed` in SQL, for the statements that read `providers` (ZIP-code rows carry it as `listed`).
LISTED_CONDITIONS = (
    Provider.is_verified.is_(True),
    Provider.is_active.is_(True),
    Provider.suspended_at.is_(None),
    Provider.credentials_lapsed_at.is_(None),
)
LISTED_SQL = "is_verified AND is_active AND suspended_at IS NULL AND credentials_lapsed_at IS NULL"


def listing_values(provider: Provider | dict) -> dict:
    """What a provider's ZIP-code rows copy from it (a Provider or a row as a dict)."""
    get = provider.get if isinstance(provider, dict) else lambda name: getattr(provider, name)
    return {"listed": is_listed(provider)} | {name: get(name) for name in LISTING_COPY}


class WeeklyHours(Base):
    """Working hours on one weekday (0 = Monday) in the provider's time zone, as minutes after midnight."""

    __tablename__ = "provider_weekly_hours"
    __table_args__ = (
        CheckConstraint("weekday BETWEEN 0 AND 6", name="weekday_range"),
        CheckConstraint(
            "start_minute >= 0 AND start_minute < end_minute AND end_minute <= 1440", name="span"
        ),
    )

    id: Mapped[str] = id_column()
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), index=True)
    weekday: Mapped[int] = mapped_column(SmallInteger)
    start_minute: Mapped[int] = mapped_column(SmallInteger)
    end_minute: Mapped[int] = mapped_column(SmallInteger)


class TimeOff(Base):
    """A stretch of time (UTC) the provider does not take visits."""

    __tablename__ = "provider_time_off"
    __table_args__ = (
        Index("ix_provider_time_off_provider_ends", "provider_id", "ends_at"),
        CheckConstraint("starts_at < ends_at", name="span"),
    )

    id: Mapped[str] = id_column()
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime] = mapped_column()
    reason: Mapped[str] = mapped_column(String(200), default="")


class Review(Base):
    """A patient's review of a provider. Only reviews of completed visits count towards the rating.

    `appointment_id` is the visit reviewed (one review per visit); `visit_completed` is set when that visit
    is marked completed. Sample providers' reviews (`seed --providers`) have no appointment.
    """

    __tablename__ = "provider_reviews"
    __table_args__ = (CheckConstraint("rating BETWEEN 1 AND 5", name="rating_range"),)

    id: Mapped[str] = id_column()
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), index=True)
    author_id: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    author_name: Mapped[str] = mapped_column(String(120), default="")
    appointment_id: Mapped[str | None] = mapped_column(
        ForeignKey("appointments.id", ondelete="SET NULL"), unique=True, default=None
    )
    visit_completed: Mapped[bool] = mapped_column(Boolean, default=False)
    rating: Mapped[int] = mapped_column(SmallInteger)
    comment: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = created_at_column()


# ---- read schemas ------------------------------------------------------------------------------
class RatingRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    average: Decimal = Decimal("0")
    count: int = 0


class WeeklyHoursRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    weekday: int
    start: time
    end: time


class ProviderServiceRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    service_id: str
    service_slug: str
    service_name: str
    category_slug: str
    duration_minutes: int
    price: Price
    locations: list[ServiceLocation]


class ProviderRead(BaseModel):
    """A provider's profile."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str | None
    name: str
    first_name: str
    last_name: str
    provider_type: ProviderType
    license_type: str
    license_number: str
    license_state: str
    is_verified: bool
    is_active: bool
    bio: str
    photo_url: str
    languages: list[str]
    time_zone: str
    rating: RatingRead
    suspended_at: datetime | None = None
    credentials_lapsed_at: datetime | None = None
    services: list[ProviderServiceRead] = Field(default_factory=list)
    zip_codes: list[str] = Field(default_factory=list)
    weekly_hours: list[WeeklyHoursRead] = Field(default_factory=list)

    @property
    def listed(self) -> bool:
        """Public and bookable (`is_listed`)."""
        return is_listed({name: getattr(self, name) for name in _LISTING_STATE})


class ProviderCard(BaseModel):
    """One search result: enough to choose a provider, with the next time they can come."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    provider_type: ProviderType
    license_type: str
    license_state: str
    photo_url: str
    bio: str
    languages: list[str]
    rating: RatingRead
    services: list[str]  # names of the matching services the provider offers
    price: Price | None  # for the chosen service, else the lowest matching price
    price_is_from: bool
    next_slot: datetime | None
    slot_minutes: int | None  # the chosen service's visit length (without one, the slot fits any in scope)


class FeaturedProvider(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    provider_type: ProviderType
    license_type: str
    license_state: str
    photo_url: str
    bio: str
    rating: RatingRead
    services: list[str]


class SearchSort(enum.StrEnum):
    soonest = "soonest"
    rating = "rating"
    price = "price"


MAX_PAGE_SIZE = 20


class ProviderQuery(BaseModel):
    """Filters of provider search, as the URL carries them. Unknown or malformed values are dropped."""

    model_config = ConfigDict(frozen=True)

    service: str | None = None  # a service slug or a category slug
    provider_type: ProviderType | None = None
    zip_code: str | None = None
    location: ServiceLocation | None = None
    day: date | None = None  # in the visitor's time zone
    sort: SearchSort = SearchSort.rating
    page: int = 1
    per_page: int = MAX_PAGE_SIZE

    # field name -> query-string name
    PARAMS: ClassVar[dict[str, str]] = {
        "service": "service",
        "provider_type": "type",
        "zip_code": "zip",
        "location": "location",
        "day": "date",
    }

    @classmethod
    def from_params(
        cls, params: dict[str, list[str]], *, default_sort: SearchSort = SearchSort.rating
    ) -> ProviderQuery:
        def first(name: str) -> str:
            values = params.get(name) or [""]
            return values[0].strip()

        values: dict = {}
        service = first("service").lower()
        if service and len(service) <= 80 and all(c.isalnum() or c == "-" for c in service):
            values["service"] = service
        for field, enum_type, name in (
            ("provider_type", ProviderType, "type"),
            ("location", ServiceLocation, "location"),
        ):
            with contextlib.suppress(ValueError):
                values[field] = enum_type(first(name))
        # Full-width digits ('１０００１') are digits (NFKC); a ZIP+4 searches its five-digit ZIP.
        zip_code = unicodedata.normalize("NFKC", first("zip"))[:10]
        zip_code = (
            zip_code[:5]
            if len(zip_code) == 10 and zip_code[5] == "-" and zip_code[6:].isdigit()
            else zip_code
        )
        if len(zip_code) == 5 and zip_code.isascii() and zip_code.isdigit():
            values["zip_code"] = zip_code
        with contextlib.suppress(ValueError):
            values["day"] = date.fromisoformat(first("date"))
        try:
            values["sort"] = SearchSort(first("sort"))
        except ValueError:
            values["sort"] = default_sort
        with contextlib.suppress(ValueError):
            values["page"] = max(1, min(int(first("page")), 10_000))
        return cls(**values)

    def to_params(self, **changes: object) -> dict[str, str]:
        """The query string values of this query with `changes` applied (empty values left out)."""
        query = self.model_copy(update=changes)
        params = {
            name: str(getattr(query, field) or "")
            for field, name in self.PARAMS.items()
            if getattr(query, field) is not None
        }
        params["sort"] = query.sort.value
        if query.page > 1:
            params["page"] = str(query.page)
        return {k: v for k, v in params.items() if v}


class ProviderPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[ProviderCard]
    # How many providers match; with `more`, only a lower bound (search stops counting at a cap that is
    # always past the page shown, so there is a next page exactly when `page < pages` or `more`).
    total: int
    page: int
    per_page: int
    query: ProviderQuery
    notes: list[str] = Field(default_factory=list)  # e.g. 'No service is called "x".'
    more: bool = False

    @property
    def pages(self) -> int:
        """Pages known to exist (more may follow when `more`)."""
        return max(1, -(-self.total // self.per_page))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages or self.more


class ReviewRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    provider_id: str
    author_name: str
    appointment_id: str | None
    visit_completed: bool
    rating: int
    comment: str
    created_at: datetime


class TimeOffRead(BaseModel):
    """A stretch of time off (UTC) a provider takes no visits in."""

    model_config = ConfigDict(frozen=True)

    id: str
    provider_id: str
    starts_at: datetime
    ends_at: datetime
    reason: str


class DaySlots(BaseModel):
    """The open start times (UTC) of a provider on one calendar day of the visitor's time zone."""

    model_config = ConfigDict(frozen=True)

    day: date
    starts: list[datetime]
