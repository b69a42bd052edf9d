"""Self-serve ad placements (issue 17 part 4): an advertiser's flight (dates, budget, one creative, the SPEC §3
placements it runs in), the creative's image, and the per-day counters views and clicks add up in.

Money is integer cents. Pricing is CPM (a price per thousand views, per placement, app/services/ads/_rules.py):
one view of a placement priced P cents per thousand costs P thousandths of a cent, so spend is kept in
"millicents" (`spent_millicents`, `cost_millicents`) and shown as whole cents; a flight's spend never passes
its budget (a conditional UPDATE, backed by a CHECK). Counters are aggregated per flight, placement and day
(EthicalAds' approach): no row per view, no visitor or IP stored. The one exception is short-lived: a
view mark says that a network (a keyed hash of the client's /24 or /48, never the address) was billed a
view of a flight in a placement during one VIEW_WINDOW; its primary key is what makes that view count
once, and marks of past windows are deleted.

Billing (issue 29 item 5): a flight's `billing` (card or invoice), its pacing (today's cap and spend on its
row), what of its spend the ledger booked as ad revenue, and its card payments (`AdPayment`, one Stripe
Checkout Session each); advertisers staff approved for invoicing (`AdAdvertiserTerms`).
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_HEADLINE = 60
MAX_BODY = 140
MAX_URL = 500
MAX_NAME = 80
MAX_REASON = 500
MAX_BUDGET_CENTS = 10_000_000  # $100,000 a flight
MIN_BUDGET_CENTS = 1_000  # $10


class Placement(enum.StrEnum):
    """SPEC §3 ad placements (the stored value is SPEC's spelling)."""

    HOME = "HOME"
    HOME_TOP = "HOME_TOP"
    HOMEPAGE_FEATURED = "HOMEPAGE_FEATURED"
    SEARCH_RESULTS = "SEARCH_RESULTS"
    PROVIDER_PROFILE = "PROVIDER_PROFILE"
    MOBILE_APP_BANNER = "MOBILE_APP_BANNER"
    CHECKOUT_PAGE = "CHECKOUT_PAGE"
    CATEGORY_PAGE = "CATEGORY_PAGE"
    SERVICES = "SERVICES"
    SERVICES_TOP = "SERVICES_TOP"
    SERVICES_MIDDLE = "SERVICES_MIDDLE"
    SERVICES_BOTTOM = "SERVICES_BOTTOM"
    BOOKING_CONFIRMATION = "BOOKING_CONFIRMATION"
    SERVICE_DETAIL_PAGE = "SERVICE_DETAIL_PAGE"


class FlightStatus(enum.StrEnum):
    review = "review"  # waiting for staff (new, or a creative edited)
    payment = "payment"  # approved, waiting for its budget to be paid by card (issue 29 item 5)
    approved = "approved"  # serves between its dates while budget is left (paid, or invoiced on terms)
    rejected = "rejected"
    paused = "paused"  # by staff; resumed to approved
    ended = "ended"  # by staff or the advertiser; final
    spent = "spent"  # its budget is used up; final

    @property
    def label(self) -> str:
        return {
            "review": "In review",
            "payment": "Awaiting payment",
            "approved": "Approved",
            "rejected": "Rejected",
            "paused": "Paused",
            "ended": "Ended",
            "spent": "Budget spent",
        }[self.value]


class AdImage(Base):
    """A creative's image, uploaded before the flight is submitted (stored like the project's other uploads)."""

    __tablename__ = "ad_images"

    id: Mapped[str] = id_column()
    owner_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    stored_name: Mapped[str] = mapped_column(String(80))
    content_type: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = created_at_column()


class AdFlight(Base):
    __tablename__ = "ad_flights"
    __table_args__ = (
        CheckConstraint("budget_cents > 0", name="budget_positive"),
        CheckConstraint("spent_millicents <= budget_cents * 1000", name="spend_within_budget"),
        CheckConstraint("ends_on >= starts_on", name="dates_in_order"),
        Index("ix_ad_flights_advertiser_created", "advertiser_id", "created_at"),
        Index("ix_ad_flights_status_created", "status", "created_at"),
    )

    id: Mapped[str] = id_column()
    advertiser_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    status: Mapped[str] = mapped_column(String(16), default=FlightStatus.review.value)
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    budget_cents: Mapped[int] = mapped_column(BigInteger)
    spent_millicents: Mapped[int] = mapped_column(BigInteger, default=0)
    headline: Mapped[str] = mapped_column(String(MAX_HEADLINE))
    body: Mapped[str] = mapped_column(String(MAX_BODY))
    link_url: Mapped[str] = mapped_column(String(MAX_URL))
    image_id: Mapped[str | None] = mapped_column(
        ForeignKey("ad_images.id", ondelete="SET NULL"), default=None
    )
    flags: Mapped[list[str]] = mapped_column(JSON, default=list)  # the health-claim screening's findings
    reason: Mapped[str] = mapped_column(String(MAX_REASON), default="")  # why rejected, paused or ended
    revision: Mapped[int] = mapped_column(Integer, default=1)  # the creative's; each edit adds one
    reviewed_by: Mapped[str | None] = mapped_column(String(36), default=None)
    reviewed_at: Mapped[datetime | None] = mapped_column(default=None)
    # Billing (issue 29 item 5, app/services/ads/_billing.py): "card" (prepaid by Stripe Checkout before it
    # serves) or "invoice" (runs on terms, invoiced afterwards for what it delivered); "" until approved.
    billing: Mapped[str] = mapped_column(String(16), default="")
    # Pacing: the UTC day `paced_on`, what the flight may spend on it (the budget left over the days left,
    # set by the day's first billed view) and what it spent on it.
    paced_on: Mapped[date | None] = mapped_column(Date, default=None)
    pace_cap_millicents: Mapped[int] = mapped_column(BigInteger, default=0)
    paced_millicents: Mapped[int] = mapped_column(BigInteger, default=0)
    # Cents of delivered spend booked in the ledger as ad revenue (card flights), and when the flight's
    # money was closed: delivered spend booked, the unspent budget refunded (or, invoiced, billed).
    booked_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    settled_at: Mapped[datetime | None] = mapped_column(default=None)
    invoice_id: Mapped[str | None] = mapped_column(String(36), default=None)  # invoiced: its invoice
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class AdPaymentStatus(enum.StrEnum):
    awaiting = "awaiting"
    paid = "paid"
    failed = "failed"


class AdPayment(Base):
    """A card payment of a flight's budget: one Stripe Checkout Session (a new one after one expired), and
    what of it was refunded when the flight ended with budget left."""

    __tablename__ = "ad_payments"
    __table_args__ = (
        Index("ix_ad_payments_flight", "flight_id", "created_at"),
        CheckConstraint("refunded_cents <= amount", name="refund_within_payment"),
    )

    id: Mapped[str] = id_column()
    flight_id: Mapped[str] = mapped_column(ForeignKey("ad_flights.id", ondelete="CASCADE"))
    checkout_session_id: Mapped[str] = mapped_column(String(255), unique=True)
    payment_intent_id: Mapped[str | None] = mapped_column(String(255), default=None)
    checkout_url: Mapped[str] = mapped_column(String(2048), default="")
    amount: Mapped[int] = mapped_column(BigInteger)  # cents: the flight's budget
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(16), default=AdPaymentStatus.awaiting.value)
    failure_reason: Mapped[str] = mapped_column(String(200), default="")
    expires_at: Mapped[datetime] = mapped_column()
    paid_at: Mapped[datetime | None] = mapped_column(default=None)
    refunded_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    refund_id: Mapped[str | None] = mapped_column(String(255), default=None)
    refunded_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()


class AdAdvertiserTerms(Base):
    """An advertiser staff approved for invoicing: their flights run on terms instead of prepaid by card."""

    __tablename__ = "ad_advertiser_terms"

    advertiser_id: Mapped[str] = mapped_column(
        ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True
    )
    invoiced: Mapped[bool] = mapped_column(Boolean, default=True)
    set_by: Mapped[str | None] = mapped_column(String(36), default=None)
    set_at: Mapped[datetime] = mapped_column(default=utcnow)


class AdFlightPlacement(Base):
    """A placement a flight runs in, at the price per thousand views it was bought at."""

    __tablename__ = "ad_flight_placements"
    __table_args__ = (
        UniqueConstraint("flight_id", "placement", name="uq_ad_flight_placements_flight_placement"),
        Index("ix_ad_flight_placements_placement", "placement", "flight_id"),
    )

    id: Mapped[str] = id_column()
    flight_id: Mapped[str] = mapped_column(ForeignKey("ad_flights.id", ondelete="CASCADE"))
    placement: Mapped[str] = mapped_column(String(32))
    cpm_cents: Mapped[int] = mapped_column(Integer)


class AdDailyStat(Base):
    """Billable views and clicks of a flight in one placement on one (UTC) day, and what the views cost."""

    __tablename__ = "ad_daily_stats"
    __table_args__ = (
        UniqueConstraint("flight_id", "placement", "day", name="uq_ad_daily_stats_flight_placement_day"),
        Index("ix_ad_daily_stats_day", "day"),
    )

    id: Mapped[str] = id_column()
    flight_id: Mapped[str] = mapped_column(ForeignKey("ad_flights.id", ondelete="CASCADE"))
    placement: Mapped[str] = mapped_column(String(32))
    day: Mapped[date] = mapped_column(Date)
    views: Mapped[int] = mapped_column(BigInteger, default=0)
    clicks: Mapped[int] = mapped_column(BigInteger, default=0)
    cost_millicents: Mapped[int] = mapped_column(BigInteger, default=0)


class AdViewMark(Base):
    """A network was billed a view of the flight in the placement during window `period` (seconds since the
    epoch // VIEW_WINDOW). Inserted ON CONFLICT DO NOTHING: only the insert that writes it bills the view."""

    __tablename__ = "ad_view_marks"
    __table_args__ = (Index("ix_ad_view_marks_period", "period"),)

    flight_id: Mapped[str] = mapped_column(ForeignKey("ad_flights.id", ondelete="CASCADE"), primary_key=True)
    placement: Mapped[str] = mapped_column(String(32), primary_key=True)
    network: Mapped[str] = mapped_column(String(32), primary_key=True)  # HMAC of the truncated address
    period: Mapped[int] = mapped_column(BigInteger, primary_key=True)


# ---- schemas ---------------------------------------------------------------------------------------------


class AdCreative(BaseModel):
    """What an advertiser types for the creative (checked by app/services/ads/_rules.py)."""

    headline: str = ""
    body: str = ""
    link_url: str = ""
    image_id: str = ""


class FlightCreate(BaseModel):
    name: str = ""
    placements: list[str] = []
    starts_on: str = ""  # YYYY-MM-DD as typed
    ends_on: str = ""
    budget: str = ""  # dollars as typed, e.g. "250" or "250.00"
    creative: AdCreative = AdCreative()


class PriceRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    placement: str
    label: str
    where: str
    cpm_cents: int
    capacity: int
    used: bool  # False: not sold (the reason is `where`)


class AvailabilityRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    placement: str
    label: str
    capacity: int
    booked: int  # the most flights running on one day of the range
    free: int


class FlightRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    advertiser_id: str
    advertiser_name: str
    name: str
    status: FlightStatus
    starts_on: date
    ends_on: date
    budget_cents: int
    spent_cents: int
    headline: str
    body: str
    link_url: str
    image_url: str
    placements: tuple[str, ...]
    flags: tuple[str, ...]
    reason: str
    revision: int
    created_at: datetime
    billing: str = ""  # "card", "invoice", or "" before approval
    paid_cents: int = 0  # card: what the advertiser paid (the budget), once paid
    refunded_cents: int = 0  # card: unspent budget refunded when the flight ended
    settled: bool = False  # its money is closed (delivered spend booked, the rest refunded or invoiced)
    invoice_number: str = ""  # invoiced on terms: the invoice it was billed on, once issued
    invoiced_advertiser: bool = False  # staff approved the advertiser for invoicing


class StatementDayRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    day: date
    views: int
    clicks: int
    spent_cents: int


class AdStatementRead(BaseModel):
    """A flight's spend statement: its money and delivery to date, and its spend per day."""

    model_config = ConfigDict(frozen=True)

    flight: FlightRead
    views: int
    clicks: int
    spent_cents: int
    remaining_cents: int  # of the budget, not spent (refunded once the flight has ended early)
    daily_cap_cents: int  # what it may spend today (pacing), 0 when it is not running
    paid_at: datetime | None
    refunded_at: datetime | None
    days: list[StatementDayRead]  # the days it ran, oldest first


class FlightPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[FlightRead]
    total: int
    page: int
    page_size: int


class LiveAd(BaseModel):
    """An approved flight as the serving snapshot holds it (no figures, no advertiser's account)."""

    model_config = ConfigDict(frozen=True)

    flight_id: str
    advertiser_name: str
    headline: str
    body: str
    link_url: str
    image_url: str
    placements: frozenset[str]
    starts_on: date
    ends_on: date
    prices: tuple[tuple[str, int], ...] = ()  # (placement, price per thousand views in cents)


class FigureRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    flight_name: str
    placement: str  # "" on a flight's total row
    views: int
    clicks: int
    spent_cents: int
    budget_cents: int

    @property
    def ctr(self) -> float:
        return self.clicks / self.views if self.views else 0.0


class DayRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    day: date
    views: int
    clicks: int
    spent_cents: int


class AdFiguresRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    flights: list[FigureRow]  # one per flight (placement "")
    placements: list[FigureRow]  # one per flight and placement
    days: list[DayRow]  # the advertiser's views and clicks per day, oldest first
    views: int
    clicks: int
    spent_cents: int
    budget_cents: int
