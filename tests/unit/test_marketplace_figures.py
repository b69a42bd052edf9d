"""The home page's figures are counted from the database and shown only with enough behind them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from app import db as app_db
from app.services.appointments import _figures as figures
from app.services.appointments import forget_figures, marketplace_figures
from models.account import Role
from models.booking import AppointmentStatus
from tests import factories
from tests.factories import person


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    forget_figures()
    yield
    forget_figures()


async def _figures():  # noqa: ANN202
    async with app_db.unit_of_work() as session:
        return await marketplace_figures(session=session)


async def test_a_young_marketplace_shows_no_figures(identity) -> None:
    await factories.provider("Ada Nurse", ratings=(5, 4))
    shown = await _figures()
    assert (shown.verified_providers, shown.visits_completed, shown.average_rating) == (None, None, None)


async def test_figures_count_listed_providers_completed_visits_and_weigh_ratings(
    identity, monkeypatch
) -> None:
    monkeypatch.setattr(figures, "MIN_PROVIDERS", 2)
    monkeypatch.setattr(figures, "MIN_VISITS", 2)
    monkeypatch.setattr(figures, "MIN_REVIEWS", 4)
    ada = await factories.provider("Ada Nurse", ratings=(5, 5, 5))
    await factories.provider("Bo Nurse", ratings=(3,))
    await factories.provider("Cy Hidden", ratings=(1, 1, 1, 1), verified=False)  # not listed: not counted
    patient = await person(Role.patient, "Jordan Lee")
    start = datetime.now(UTC) - timedelta(days=3)
    await factories.order(patient, ada, start, start + timedelta(hours=1), status=AppointmentStatus.completed)
    await factories.order(patient, ada, start + timedelta(hours=2), status=AppointmentStatus.cancelled)
    shown = await _figures()
    assert shown.verified_providers == 2
    assert shown.visits_completed == 2
    assert (shown.average_rating, shown.reviews) == (Decimal("4.5"), 4)  # (5 × 3 + 3) / 4, not (5 + 3) / 2


async def test_figures_are_counted_once_per_ttl(identity, monkeypatch) -> None:
    monkeypatch.setattr(figures, "MIN_PROVIDERS", 1)
    await factories.provider("Ada Nurse")
    assert (await _figures()).verified_providers == 1
    await factories.provider("Bo Nurse")
    assert (await _figures()).verified_providers == 1  # cached
    forget_figures()
    assert (await _figures()).verified_providers == 2
