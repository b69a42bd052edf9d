"""A search result card is written once for every search and tab that shows the same provider with the same
figures (components/provider_ui.py), and written again when anything on it changes."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from components.provider_ui import provider_card
from models.catalog import Price
from models.provider import ProviderCard, ProviderType, RatingRead
from tests.ui.harness import text


def _card(**changes: object) -> ProviderCard:
    fields = {
        "id": "p1",
        "name": "Grace Okafor",
        "provider_type": ProviderType.nurse,
        "license_type": "RN",
        "license_state": "NY",
        "photo_url": "",
        "bio": "Ten years of home nursing.",
        "languages": ["English", "Spanish"],
        "rating": RatingRead(average=Decimal("4.8"), count=12),
        "services": ["Routine blood draw"],
        "price": Price(charge=Decimal("79"), original=Decimal("79")),
        "price_is_from": False,
        "next_slot": datetime(2026, 12, 1, 15, 0, tzinfo=UTC),
        "slot_minutes": None,
    }
    return ProviderCard(**{**fields, **changes})


def test_the_same_card_is_written_once_and_a_changed_one_again() -> None:
    first = provider_card(_card(), "America/New_York")
    assert provider_card(_card(), "America/New_York") is first  # an equal card from another search
    later = provider_card(_card(next_slot=datetime(2026, 12, 2, 15, 0, tzinfo=UTC)), "America/New_York")
    assert later is not first and "Wed, Dec 2, 2026, 10:00 AM EST" in text(later)
    elsewhere = provider_card(_card(), "America/Chicago")
    assert "9:00 AM CST" in text(elsewhere) and "10:00 AM EST" in text(first)
