"""What a visit costs at a given moment (SPEC §1, §9): the 24-hour flash sale takes 30% off IV therapy.

The rules are pure functions of a service's category, its price and a moment; the browser never sends a
price. `price_at` is the rule; `price_for` applies it with the sale configured in the settings
(FLASH_SALE_ENABLED, FLASH_SALE_DAY, FLASH_SALE_TIME_ZONE) or switched at run time in the admin console
(app/flags.py); `flash_sale_running` says whether that sale runs
now (the banner and the sale notes are shown only then).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

from app import flags
from app.settings import get_settings
from models.catalog import Price

SALE_CATEGORY = "iv-therapy"
SALE_PERCENT = 30
CENT = Decimal("0.01")


@dataclass(frozen=True)
class FlashSale:
    """A discount on one category between two moments (UTC, end excluded)."""

    category_slug: str
    percent: int
    starts_at: datetime
    ends_at: datetime

    def covers(self, category_slug: str, at: datetime) -> bool:
        return category_slug == self.category_slug and self.starts_at <= at < self.ends_at


def flash_sale_on(
    at: datetime, *, day: date | None, time_zone: str, enabled: bool = True
) -> FlashSale | None:
    """The 24-hour IV-therapy sale running at `at`: on `day` only (a calendar day in `time_zone`), or on
    every day when `day` is None. None when no sale runs at that moment."""
    if not enabled:
        return None
    zone = ZoneInfo(time_zone)
    today = at.astimezone(zone).date()
    if day is not None and today != day:
        return None
    starts = datetime.combine(today, time(), zone)
    ends = datetime.combine(today + timedelta(days=1), time(), zone)
    return FlashSale(SALE_CATEGORY, SALE_PERCENT, starts.astimezone(UTC), ends.astimezone(UTC))


def configured_sale(at: datetime) -> FlashSale | None:
    settings = get_settings()
    return flash_sale_on(
        at,
        day=flags.flash_sale_day(),
        time_zone=settings.flash_sale_time_zone,
        enabled=flags.flash_sale_enabled(),
    )


def flash_sale_running(at: datetime | None = None) -> bool:
    """Whether the configured sale runs at `at` (default now): off when disabled, and when FLASH_SALE_DAY
    names another day in the sale's time zone."""
    return configured_sale(at or datetime.now(UTC)) is not None


def price_at(*, category_slug: str, price: Decimal, at: datetime, sale: FlashSale | None) -> Price:
    """The price to charge at `at` and the original price, rounded to the cent."""
    original = Decimal(price).quantize(CENT, rounding=ROUND_HALF_UP)
    if sale is None or not sale.covers(category_slug, at):
        return Price(charge=original, original=original)
    charge = (original * (100 - sale.percent) / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    return Price(charge=charge, original=original, discount_percent=sale.percent, sale_ends_at=sale.ends_at)


def price_for(*, category_slug: str, price: Decimal, at: datetime | None = None) -> Price:
    """`price_at` with the configured sale, at `at` (default: now)."""
    at = at or datetime.now(UTC)
    return price_at(category_slug=category_slug, price=price, at=at, sale=configured_sale(at))
