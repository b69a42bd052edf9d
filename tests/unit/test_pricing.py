"""The flash-sale price rule (SPEC §1, §9): 30% off IV therapy, for the sale's day only, computed on the
server from the service and the moment."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from app.services.catalog import _pricing as pricing
from app.services.catalog import flash_sale_on, price_at, price_for
from app.settings import get_settings

SALE_DAY = date(2030, 3, 14)
ZONE = "America/New_York"
NOON = datetime(2030, 3, 14, 16, 0, tzinfo=UTC)  # 12:00 in New York on the sale day


def sale_at(moment: datetime):  # noqa: ANN201
    return flash_sale_on(moment, day=SALE_DAY, time_zone=ZONE)


def test_iv_therapy_is_30_percent_off_on_the_sale_day() -> None:
    price = price_at(category_slug="iv-therapy", price=Decimal("149"), at=NOON, sale=sale_at(NOON))
    assert price.charge == Decimal("104.30") and price.original == Decimal("149.00")
    assert price.on_sale and price.discount_percent == 30
    assert price.sale_ends_at == datetime(2030, 3, 15, 4, 0, tzinfo=UTC)  # midnight in New York


@pytest.mark.parametrize("category", ["phlebotomy", "nursing", "diagnostics"])
def test_other_categories_are_never_discounted(category: str) -> None:
    price = price_at(category_slug=category, price=Decimal("79"), at=NOON, sale=sale_at(NOON))
    assert price.charge == price.original == Decimal("79.00") and not price.on_sale


@pytest.mark.parametrize(
    "moment",
    [
        datetime(2030, 3, 14, 3, 59, 59, tzinfo=UTC),  # 23:59:59 the day before, in New York
        datetime(2030, 3, 15, 4, 0, tzinfo=UTC),  # midnight after the sale day: the sale is over
        NOON + timedelta(days=1),
        NOON - timedelta(days=7),
    ],
)
def test_iv_therapy_is_full_price_on_any_other_day(moment: datetime) -> None:
    price = price_at(category_slug="iv-therapy", price=Decimal("149"), at=moment, sale=sale_at(moment))
    assert price.charge == price.original == Decimal("149.00")


def test_a_sale_only_covers_its_own_window() -> None:
    """A sale object computed for one day does not discount a moment outside it."""
    sale = sale_at(NOON)
    later = price_at(category_slug="iv-therapy", price=Decimal("149"), at=NOON + timedelta(days=1), sale=sale)
    assert not later.on_sale


def test_discount_rounds_half_up_to_the_cent() -> None:
    price = price_at(category_slug="iv-therapy", price=Decimal("199.95"), at=NOON, sale=sale_at(NOON))
    assert price.charge == Decimal("139.97")  # 139.965 → 139.97


def test_without_a_set_day_the_sale_runs_every_day_like_the_banner() -> None:
    for offset in range(3):
        moment = NOON + timedelta(days=offset)
        sale = flash_sale_on(moment, day=None, time_zone=ZONE)
        assert sale is not None and sale.starts_at <= moment < sale.ends_at
        assert sale.ends_at - sale.starts_at == timedelta(hours=24)


def test_disabled_sale_discounts_nothing() -> None:
    assert flash_sale_on(NOON, day=None, time_zone=ZONE, enabled=False) is None


def test_price_for_uses_the_configured_sale_day(monkeypatch) -> None:
    monkeypatch.setenv("FLASH_SALE_DAY", SALE_DAY.isoformat())
    monkeypatch.setenv("FLASH_SALE_TIME_ZONE", ZONE)
    get_settings.cache_clear()
    try:
        assert price_for(category_slug="iv-therapy", price=Decimal("100"), at=NOON).charge == Decimal("70.00")
        tomorrow = price_for(category_slug="iv-therapy", price=Decimal("100"), at=NOON + timedelta(days=1))
        assert tomorrow.charge == Decimal("100.00")
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert pricing.SALE_PERCENT == 30
