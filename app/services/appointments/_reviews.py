"""Reviews and the rating they add up to: the average of the reviews of completed visits, with their count.

Patients review their completed visits with `review_visit` (once per visit); seeders add reviews directly
with `add_review`. `add_review` and `mark_visit_completed` keep the rating cached on the provider row.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers import LISTED
from app.services.shared.ratings import rating_summary
from app.services.shared.signed_in import require_account
from models.account import AccountRead
from models.booking import Appointment, AppointmentStatus
from models.identity import as_utc
from models.provider import Provider, ProviderZip, Review, ReviewRead

NO_PROVIDER = "No provider has this id."
BAD_RATING = "A rating is a whole number from 1 to 5."
MAX_COMMENT = 2000
NO_VISIT = "No visit has this id."
NOT_YOUR_VISIT = "Only the patient of a visit can review it."
NOT_COMPLETED = "You can review a visit once it is completed."
ALREADY_REVIEWED = "You have already reviewed this visit."
COMMENT_TOO_LONG = f"Please keep your review under {MAX_COMMENT:,} characters."


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
        values = {"rating_average": summary.average, "review_count": summary.count}
        await session.execute(update(Provider).where(Provider.id == provider_id).values(**values))
        # The copy search reads by ZIP code (models.provider.listing_values).
        await session.execute(
            update(ProviderZip).where(ProviderZip.provider_id == provider_id).values(**values)
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
    """Record a review (internal: seeders and `review_visit`). It counts once its visit is completed."""
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


def public_author_name(account: AccountRead) -> str:
    """How a review is signed on the provider's profile: first name and last initial ('Jordan L.')."""
    first, last = account.first_name.strip(), account.last_name.strip()
    if not first:
        return "Patient"
    return f"{first} {last[0]}." if last else first


async def review_visit(
    *, session: AsyncSession, actor: Principal, appointment_id: str, rating: int, comment: str
) -> ReviewRead:
    """The patient of a completed visit reviews it, once: 1 to 5 stars and a comment of at most
    MAX_COMMENT characters. It counts toward the provider's rating at once."""
    account = await require_account(session=session, actor=actor)
    visit = await session.get(Appointment, appointment_id)
    if visit is None or visit.status is AppointmentStatus.held:
        raise NotFound(NO_VISIT)
    if visit.patient_id != account.id:
        raise PermissionDenied(NOT_YOUR_VISIT)
    if visit.status is not AppointmentStatus.completed:
        raise ValidationFailed(NOT_COMPLETED)
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT:
        raise ValidationFailed(COMMENT_TOO_LONG)
    if await session.scalar(select(Review.id).where(Review.appointment_id == appointment_id)):
        raise ValidationFailed(ALREADY_REVIEWED)
    try:
        # Two submissions at once: the unique appointment_id refuses the second.
        async with session.begin_nested():
            return await add_review(
                session=session,
                provider_id=visit.provider_id,
                rating=rating,
                comment=comment,
                author_id=account.id,
                author_name=public_author_name(account),
                appointment_id=appointment_id,
                visit_completed=True,
            )
    except IntegrityError:
        raise ValidationFailed(ALREADY_REVIEWED) from None


LATEST_REVIEWS = 10


async def list_reviews(
    *, session: AsyncSession, provider_id: str, limit: int = LATEST_REVIEWS
) -> list[ReviewRead]:
    """The latest reviews of completed visits of a listed provider, newest first (at most 50)."""
    rows = await session.scalars(
        select(Review)
        .join(Provider, Provider.id == Review.provider_id)
        .where(Review.provider_id == provider_id, Review.visit_completed.is_(True), *LISTED)
        .order_by(Review.created_at.desc(), Review.id.desc())
        .limit(max(1, min(limit, 50)))
    )
    return [review_read(row) for row in rows]
