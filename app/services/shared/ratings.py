"""A provider's rating: the average of the reviews of completed visits (2 decimals), with their count."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from models.provider import RatingRead


def rating_summary(reviews: Iterable[tuple[int, bool]]) -> RatingRead:
    """(rating, visit_completed) pairs → the average of completed visits' ratings (2 decimals) and their count."""
    eligible = [rating for rating, completed in reviews if completed]
    if not eligible:
        return RatingRead()
    average = (Decimal(sum(eligible)) / len(eligible)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return RatingRead(average=average, count=len(eligible))
