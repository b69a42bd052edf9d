"""'Was this helpful?': one answer per voter and published article, changeable, counted per article. The
voter is 'user:<id>' for a signed-in user (re-checked) or 'visitor:<id>' for the anonymous `mv_visitor`
cookie: no name, address or other personal data is stored with a vote."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import case, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.signed_in import require_account
from models.help_center import MAX_SLUG, HelpArticle, HelpStatus, HelpVote

NO_VOTER = (
    "Your browser did not keep our cookie, so we cannot count your answer. Reload the page and try again."
)
NOT_PUBLISHED = "This article does not exist or is not published."


def voter_key(actor: Principal) -> str:
    """Who answers, as stored ('' when the visitor has no cookie id)."""
    if actor.is_user:
        return f"user:{actor.user_id}"[:80]
    if actor.visitor_id:
        return f"visitor:{actor.visitor_id}"[:80]
    return ""


async def vote_counts(session: AsyncSession, article_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """(yes, no) per article id, in one grouped query."""
    if not article_ids:
        return {}
    found = await session.execute(
        select(
            HelpVote.article_id,
            func.sum(case((HelpVote.helpful.is_(True), 1), else_=0)),
            func.sum(case((HelpVote.helpful.is_(True), 0), else_=1)),
        )
        .where(HelpVote.article_id.in_(list(article_ids)))
        .group_by(HelpVote.article_id)
    )
    return {article_id: (int(yes or 0), int(no or 0)) for article_id, yes, no in found.tuples()}


async def vote_on_help_article(*, session: AsyncSession, actor: Principal, slug: str, helpful: bool) -> bool:
    """Record (or change) `actor`'s answer on a published article; returns the answer kept."""
    if actor.is_user:
        await require_account(session=session, actor=actor)  # a signed-out or ended session is refused
    voter = voter_key(actor)
    if not voter:
        raise ValidationFailed(NO_VOTER)
    article_id = await session.scalar(
        select(HelpArticle.id).where(
            HelpArticle.slug == (slug or "")[:MAX_SLUG], HelpArticle.status == HelpStatus.published
        )
    )
    if article_id is None:
        raise NotFound(NOT_PUBLISHED)
    helpful = bool(helpful)
    existing = await session.scalar(
        select(HelpVote).where(HelpVote.article_id == article_id, HelpVote.voter == voter)
    )
    if existing is not None:
        existing.helpful = helpful
    else:
        try:
            async with session.begin_nested():
                session.add(HelpVote(article_id=article_id, voter=voter, helpful=helpful))
        except IntegrityError:  # the same voter answered twice at once: the later answer wins
            row = await session.scalar(
                select(HelpVote).where(HelpVote.article_id == article_id, HelpVote.voter == voter)
            )
            if row is not None:
                row.helpful = helpful
    await session.flush()
    return helpful
