"""Display rules of the marketplace screens: visit lengths, slot times in the visitor's zone, ratings, the
visitor's zone from the `tz` cookie, and the search filters read from (and written back to) the URL."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from components.format import format_minutes, format_rating, format_slot
from medivisit.ui import visitor_time_zone
from models.catalog import ServiceLocation
from models.provider import ProviderQuery, ProviderType, SearchSort


@pytest.mark.parametrize(
    ("minutes", "text"), [(20, "20 min"), (60, "1 hr"), (90, "1 hr 30 min"), (120, "2 hr")]
)
def test_visit_length(minutes: int, text: str) -> None:
    assert format_minutes(minutes) == text


def test_slot_in_the_visitors_zone() -> None:
    moment = datetime(2026, 11, 23, 14, 0, tzinfo=UTC)
    assert format_slot(moment, "America/New_York") == "Mon, Nov 23, 2026, 9:00 AM EST"
    assert format_slot(moment, "America/Los_Angeles") == "Mon, Nov 23, 2026, 6:00 AM PST"
    assert (
        format_slot(datetime(2026, 7, 1, 16, 30, tzinfo=UTC), "America/Chicago")
        == "Wed, Jul 1, 2026, 11:30 AM CDT"
    )


def test_rating_has_one_decimal() -> None:
    assert (format_rating(Decimal("4.66")), format_rating(Decimal("5")), format_rating(4.25)) == (
        "4.7",
        "5.0",
        "4.3",
    )


@pytest.mark.parametrize(
    ("cookie", "zone"),
    [("America/Chicago", "America/Chicago"), ("Europe/Paris", "Europe/Paris"), (None, "America/New_York"),
     ("Not/AZone", "America/New_York"), ("../../etc/passwd", "America/New_York"), ("", "America/New_York")],
)  # fmt: skip
def test_visitor_zone_from_the_cookie(cookie, zone) -> None:
    assert visitor_time_zone(cookie) == zone


def test_filters_from_the_url_and_back() -> None:
    params = {
        "service": ["IV-Hydration"],
        "zip": ["10001"],
        "type": ["np"],
        "location": ["corporate-venue"],
        "date": ["2030-01-07"],
        "sort": ["price"],
        "page": ["3"],
    }
    query = ProviderQuery.from_params(params)
    assert query == ProviderQuery(
        service="iv-hydration",
        zip_code="10001",
        provider_type=ProviderType.np,
        location=ServiceLocation.corporate_venue,
        day=date(2030, 1, 7),
        sort=SearchSort.price,
        page=3,
    )
    assert query.to_params(page=1) == {
        "service": "iv-hydration",
        "zip": "10001",
        "type": "np",
        "location": "corporate-venue",
        "date": "2030-01-07",
        "sort": "price",
    }


def test_malformed_filters_are_dropped() -> None:
    params = {
        "service": ["<script>"],
        "zip": ["1000"],
        "type": ["wizard"],
        "location": ["moon"],
        "date": ["tomorrow"],
        "sort": ["random"],
        "page": ["-4"],
    }
    query = ProviderQuery.from_params(params, default_sort=SearchSort.soonest)
    assert query == ProviderQuery(sort=SearchSort.soonest, page=1)
    assert ProviderQuery.from_params({"page": ["x"]}).page == 1
