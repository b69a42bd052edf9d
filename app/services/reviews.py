"""Reviews and the rating they add up to: the average of the reviews of completed visits, with their count.

Writing reviews from a screen comes with booking; for now reviews are added by seeders and by the booking
work through `add_review` and `mark_visit_completed`, which keep the rating cached on the provider row.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import NotFound, ValidationFailed
from models.identity import as_utc
from models.provider import Provider, RatingRead, Review, ReviewRead

NO_PROVIDER = "No provider has this id."
BAD_RATING = "A rating is a whole number from 1 to 5."


def rating_summary(reviews: Iterable[tuple[int, bool]]) -> RatingRead:
    """(rating, visit_completed) pairs → the average of completed visits' ratings (2 decimals) and their count."""
    eligible = [rating for rating, completed in reviews if completed]
    if not eligible:
        return RatingRead()
    average = (Decimal(sum(eligible)) / len(eligible)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return RatingRead(average=average, count=len(eligible))


def review_read(row: Review) -> ReviewRead:
    return ReviewRead(
        id=row.id,
        provider_id=row.provider_id,
        author_name=row.author_name,
        appointment_id=row.appointment_id,
        visit_completed=row.visit_completed,
        rating=row.rating,
        comment=row.comment,
        created_at=as_utc(row.created_at),
    )


async def refresh_ratings(*, session: AsyncSession, provider_ids: Iterable[str]) -> None:
    """Recompute the cached rating of these providers from their reviews of completed visits."""
    ids = list(dict.fromkeys(provider_ids))
    if not ids:
        return
    rows = await session.execute(
        select(Review.provider_id, Review.rating, Review.visit_completed).where(Review.provider_id.in_(ids))
    )
    pairs: dict[str, list[tuple[int, bool]]] = {pid: [] for pid in ids}
    for provider_id, rating, completed in rows:
        pairs[provider_id].append((rating, completed))
    for provider_id, reviews in pairs.items():
        summary = rating_summary(reviews)
        await session.execute(
            update(Provider)
            .where(Provider.id == provider_id)
            .values(rating_average=summary.average, review_count=summary.count)
        )


async def add_review(
    *,
    session: AsyncSession,
    provider_id: str,
    rating: int,
    comment: str = "",
    author_id: str | None = None,
    author_name: str = "",
    appointment_id: str | None = None,
    visit_completed: bool = False,
) -> ReviewRead:
    """Record a review (internal: seeders and, later, booking). It counts once its visit is completed."""
    if not isinstance(rating, int) or not 1 <= rating <= 5:
        raise ValidationFailed(BAD_RATING)
    if await session.get(Provider, provider_id) is None:
        raise NotFound(NO_PROVIDER)
    row = Review(
        provider_id=provider_id,
        rating=rating,
        comment=comment.strip()[:4000],
        author_id=author_id,
        author_name=author_name.strip()[:120],
        appointment_id=appointment_id,
        visit_completed=visit_completed,
    )
    session.add(row)
    await session.flush()
    await refresh_ratings(session=session, provider_ids=[provider_id])
    return review_read(row)


async def mark_visit_completed(*, session: AsyncSession, appointment_id: str) -> int:
    """The visit of `appointment_id` is completed: its review (if any) now counts. Returns rows changed."""
    provider_ids = (
        await session.scalars(select(Review.provider_id).where(Review.appointment_id == appointment_id))
    ).all()
    if not provider_ids:
        return 0
    await session.execute(
        update(Review).where(Review.appointment_id == appointment_id).values(visit_completed=True)
    )
    await refresh_ratings(session=session, provider_ids=provider_ids)
    return len(provider_ids)


async def count_eligible_reviews(*, session: AsyncSession, provider_id: str) -> int:
    return (
        await session.scalar(
            select(func.count()).where(Review.provider_id == provider_id, Review.visit_completed.is_(True))
        )
        or 0
    )
