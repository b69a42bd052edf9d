"""The marketplace's own figures for the home page: verified providers, visits completed, average rating.

Every figure is counted from the database, never typed in, and shown only when there is enough behind it
(MIN_VISITS completed visits, MIN_REVIEWS reviews): a new marketplace says nothing rather than "0 visits" or
a rating from three reviews. The figures change slowly and the home page is the busiest screen, so they are
counted at most once per FIGURES_TTL per process, in three aggregate queries.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.providers import LISTED
from models.booking import Appointment, AppointmentStatus
from models.provider import Provider

MIN_PROVIDERS = 5
MIN_VISITS = 50
MIN_REVIEWS = 20
FIGURES_TTL = 600.0  # seconds


@dataclass(frozen=True)
class MarketplaceFigures:
    verified_providers: int | None  # None: too few to say
    visits_completed: int | None
    average_rating: Decimal | None  # one decimal, over `reviews` reviews
    reviews: int


_cached: tuple[float, MarketplaceFigures] | None = None


async def marketplace_figures(*, session: AsyncSession) -> MarketplaceFigures:
    """The home page's trust figures (see the module); public, no actor needed."""
    global _cached
    now = time.monotonic()
    if _cached is not None and _cached[0] > now:
        return _cached[1]
    providers = await session.scalar(select(func.count()).select_from(Provider).where(*LISTED)) or 0
    visits = (
        await session.scalar(
            select(func.count())
            .select_from(Appointment)
            .where(Appointment.status == AppointmentStatus.completed)
        )
        or 0
    )
    # Each listed provider's average is kept with its review count: the overall average weighs them.
    total, reviews = (
        await session.execute(
            select(
                func.sum(Provider.rating_average * Provider.review_count), func.sum(Provider.review_count)
            ).where(*LISTED)
        )
    ).one()
    reviews = int(reviews or 0)
    average = (
        (Decimal(total) / reviews).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        if reviews >= MIN_REVIEWS
        else None
    )
    figures = MarketplaceFigures(
        verified_providers=providers if providers >= MIN_PROVIDERS else None,
        visits_completed=visits if visits >= MIN_VISITS else None,
        average_rating=average,
        reviews=reviews,
    )
    _cached = (now + FIGURES_TTL, figures)
    return figures


def forget_figures() -> None:
    """Count afresh on the next call (tests, or after seeding)."""
    global _cached
    _cached = None
