"""Reading the forum, public: the categories with their topic counts, topics by latest activity (all, one
category, or the member's bookmarks), paginated, and one topic's posts in order. Everyone sees published
posts; an author also sees their own posts that wait for review or were hidden or rejected (with why), and
a moderator sees every post. Each page costs a fixed number of queries (authors, likes and flags of the
page at once)."""

from __future__ import annotations

from sqlalchemy import false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied
from app.services.forum._access import authors_of, is_forum_moderator, silenced_until
from app.services.forum._posting import NO_TOPIC
from app.services.safety import find_red_flag
from app.services.shared.markdown import render_markdown
from app.services.shared.signed_in import require_account
from models.forum import (
    POSTS_PAGE,
    TOPICS_PAGE,
    ForumAuthorRead,
    ForumCategory,
    ForumCategoryRead,
    ForumFlag,
    ForumLike,
    ForumMember,
    ForumPost,
    ForumPostRead,
    ForumTopic,
    ForumTopicListRead,
    ForumTopicRead,
    ForumTopicSummaryRead,
    ForumTopicUser,
    PostStatus,
    ReviewReason,
)
from models.identity import as_utc

MAX_PAGES = 1_000
NO_CATEGORY = "This forum category does not exist."


def _page(page: int) -> int:
    try:
        return max(1, min(int(page), MAX_PAGES))
    except (TypeError, ValueError):
        return 1


async def _viewer(session: AsyncSession, actor: Principal) -> str:
    """The signed-in viewer's id ('' for a visitor; an ended session reads as a visitor too)."""
    if not actor.is_user:
        return ""
    try:
        return (await require_account(session=session, actor=actor)).id
    except PermissionDenied:  # a signed-out tab still reads the public forum
        return ""


def _emergency(post: ForumPost) -> str:
    """The red-flag message again for its author while the post waits (the words are read, never kept)."""
    if post.status != PostStatus.pending or post.review_reason != ReviewReason.safety:
        return ""
    red = find_red_flag(post.body)
    return red.message if red is not None else ""


async def list_forum_categories(*, session: AsyncSession, actor: Principal) -> list[ForumCategoryRead]:
    """The categories in order, each with its number of published topics (one grouped query)."""
    del actor  # public
    counts = (
        select(ForumTopic.category_id, func.count().label("n"))
        .where(ForumTopic.status == PostStatus.published)
        .group_by(ForumTopic.category_id)
        .subquery()
    )
    found = await session.execute(
        select(ForumCategory, counts.c.n)
        .outerjoin(counts, counts.c.category_id == ForumCategory.id)
        .order_by(ForumCategory.position, ForumCategory.name)
    )
    return [
        ForumCategoryRead(
            id=c.id, slug=c.slug, name=c.name, description=c.description, topic_count=int(n or 0)
        )
        for c, n in found.tuples()
    ]


def _summary(
    topic: ForumTopic, category: ForumCategory, authors: dict[str, ForumAuthorRead]
) -> ForumTopicSummaryRead:
    return ForumTopicSummaryRead(
        id=topic.id,
        slug=topic.slug,
        title=topic.title,
        category_slug=category.slug,
        category_name=category.name,
        author=authors[topic.author_id],
        status=topic.status,
        reply_count=topic.reply_count,
        answered=topic.accepted_post_id is not None,
        created_at=as_utc(topic.created_at),
        last_activity_at=as_utc(topic.last_activity_at),
    )


async def list_topics(
    *,
    session: AsyncSession,
    actor: Principal,
    category: str | None = None,
    page: int = 1,
    bookmarks: bool = False,
) -> ForumTopicListRead:
    """Topics by latest activity, TOPICS_PAGE a page: published ones, and the viewer's own waiting ones."""
    page = _page(page)
    viewer = await _viewer(session, actor)
    categories = await list_forum_categories(session=session, actor=actor)
    chosen = None
    if category:
        chosen = next((c for c in categories if c.slug == category), None)
        if chosen is None:
            raise NotFound(NO_CATEGORY)
    visible = or_(
        ForumTopic.status == PostStatus.published, ForumTopic.author_id == viewer if viewer else false()
    )
    query = select(ForumTopic, ForumCategory).join(ForumCategory, ForumCategory.id == ForumTopic.category_id)
    query = query.where(visible)
    if chosen is not None:
        query = query.where(ForumTopic.category_id == chosen.id)
    if bookmarks:
        query = query.join(
            ForumTopicUser,
            (ForumTopicUser.topic_id == ForumTopic.id)
            & (ForumTopicUser.user_id == viewer)
            & ForumTopicUser.bookmarked.is_(True),
        )
    total = int(await session.scalar(select(func.count()).select_from(query.subquery())) or 0)
    rows = (
        (
            await session.execute(
                query.order_by(ForumTopic.last_activity_at.desc(), ForumTopic.id)
                .offset((page - 1) * TOPICS_PAGE)
                .limit(TOPICS_PAGE)
            )
        )
        .tuples()
        .all()
    )
    authors = await authors_of(session, (t.author_id for t, _c in rows))
    return ForumTopicListRead(
        categories=categories,
        category=chosen,
        topics=[_summary(t, c, authors) for t, c in rows],
        page=page,
        total=total,
        bookmarks=bookmarks and bool(viewer),
    )


async def get_topic(
    *, session: AsyncSession, actor: Principal, topic_id: str, page: int = 1
) -> ForumTopicRead:
    """One topic and a page of its posts (POSTS_PAGE a page) as the viewer may see them."""
    page = _page(page)
    viewer = await _viewer(session, actor)
    moderator = bool(viewer) and await is_forum_moderator(session=session, actor=actor)
    found = (
        await session.execute(
            select(ForumTopic, ForumCategory)
            .join(ForumCategory, ForumCategory.id == ForumTopic.category_id)
            .where(ForumTopic.id == (topic_id or "")[:36])
        )
    ).first()
    if found is None:
        raise NotFound(NO_TOPIC)
    topic, category = found.tuple()
    if topic.status != PostStatus.published and topic.author_id != viewer and not moderator:
        raise NotFound(NO_TOPIC)
    seen = ForumPost.topic_id == topic.id
    if not moderator:
        seen = seen & or_(
            ForumPost.status == PostStatus.published, ForumPost.author_id == viewer if viewer else false()
        )
    total = int(await session.scalar(select(func.count()).select_from(ForumPost).where(seen)) or 0)
    posts = (
        await session.scalars(
            select(ForumPost)
            .where(seen)
            .order_by(ForumPost.number)
            .offset((page - 1) * POSTS_PAGE)
            .limit(POSTS_PAGE)
        )
    ).all()
    ids = [p.id for p in posts]
    quoted = {
        post_id: author_id
        for post_id, author_id in (
            await session.execute(
                select(ForumPost.id, ForumPost.author_id).where(
                    ForumPost.id.in_([p.quote_of for p in posts if p.quote_of])
                )
            )
        ).tuples()
    }
    authors = await authors_of(session, [topic.author_id, *(p.author_id for p in posts), *quoted.values()])
    liked: set[str] = set()
    flagged: set[str] = set()
    relation = None
    member = None
    if viewer and ids:
        liked = set(
            await session.scalars(
                select(ForumLike.post_id).where(ForumLike.user_id == viewer, ForumLike.post_id.in_(ids))
            )
        )
        flagged = set(
            await session.scalars(
                select(ForumFlag.post_id).where(ForumFlag.user_id == viewer, ForumFlag.post_id.in_(ids))
            )
        )
    if viewer:
        relation = await session.scalar(
            select(ForumTopicUser).where(
                ForumTopicUser.topic_id == topic.id, ForumTopicUser.user_id == viewer
            )
        )
        member = await session.get(ForumMember, viewer)
    return ForumTopicRead(
        topic=_summary(topic, category, authors),
        posts=[
            ForumPostRead(
                id=p.id,
                number=p.number,
                author=authors[p.author_id],
                body=p.body if p.status == PostStatus.published else "",
                body_html=render_markdown(p.body),
                quote_author=authors[quoted[p.quote_of]].name if p.quote_of in quoted else "",
                status=p.status,
                moderation_reason=p.moderation_reason if (p.author_id == viewer or moderator) else "",
                waiting_reason=p.review_reason
                if p.needs_review and (p.author_id == viewer or moderator)
                else None,
                emergency_message=_emergency(p) if p.author_id == viewer else "",
                like_count=p.like_count,
                liked=p.id in liked,
                flagged=p.id in flagged,
                accepted=topic.accepted_post_id == p.id,
                mine=p.author_id == viewer,
                created_at=as_utc(p.created_at),
                edited_at=as_utc(p.edited_at) if p.edited_at else None,
            )
            for p in posts
        ],
        page=page,
        total=total,
        signed_in=bool(viewer),
        is_author=topic.author_id == viewer,
        is_moderator=moderator,
        watch=relation.level if relation is not None else None,
        bookmarked=bool(relation and relation.bookmarked),
        posting_open=flags.forum_posting_open(),
        silenced_until=silenced_until(member),
    )
