"""Taking part: starting a topic, replying (optionally quoting a reply), liking a post, bookmarking,
watching or muting a topic, and the topic author's accepted answer.

A new topic or reply is checked (lengths, category) and passes the red-flag detector first: a flagged post
waits for a moderator (its author sees the emergency message; only the category is kept, never the words).
A new member's posts wait too, until APPROVED_POSTS_TO_TRUST of theirs were published; a moderator's are
published at once. Posting starts watching the topic (unless the member muted it)."""

from __future__ import annotations

import logging

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.principal import Principal
from app.services.domain_events import ForumAnswerAccepted
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.forum._access import SIGN_IN, is_forum_moderator, require_member, require_poster
from app.services.forum._lifecycle import first_published
from app.services.safety import RedFlag, find_red_flag
from app.services.shared.articles import one_line, slugify
from app.services.shared.signed_in import require_account
from models.account import AccountRead
from models.base import utcnow
from models.forum import (
    APPROVED_POSTS_TO_TRUST,
    MAX_BODY,
    MAX_TITLE,
    MIN_TITLE,
    ForumCategory,
    ForumLike,
    ForumMember,
    ForumPost,
    ForumPostOutcome,
    ForumTopic,
    ForumTopicUser,
    ForumTopicWrite,
    PostStatus,
    ReviewReason,
    WatchLevel,
)

logger = logging.getLogger(__name__)

TITLE_NEEDED = f"Give your topic a title of at least {MIN_TITLE} characters."
TITLE_TOO_LONG = f"Keep the title under {MAX_TITLE} characters."
CATEGORY_NEEDED = "Choose a category for your topic."
BODY_NEEDED = "Write your post first."
BODY_TOO_LONG = f"Keep your post under {MAX_BODY:,} characters."
NO_TOPIC = "This topic does not exist or is not public."
NOT_OPEN = "This topic is waiting for review: replies open once a moderator publishes it."
NO_POST = "This post does not exist or is not public."
OWN_LIKE = "You can't like your own post."
AUTHOR_ONLY = "Only the person who started the topic can choose the accepted answer."
NOT_A_REPLY = "Only a published reply can be the accepted answer."
BAD_WATCH = "Choose watching, muted or normal."


def _body(raw: str) -> str:
    body = (raw or "").replace("\r\n", "\n").strip()
    if not body:
        raise ValidationFailed(BODY_NEEDED)
    if len(body) > MAX_BODY:
        raise ValidationFailed(BODY_TOO_LONG)
    return body


async def _first_state(
    session: AsyncSession, actor: Principal, member: ForumMember, text: str
) -> tuple[PostStatus, ReviewReason | None, RedFlag | None]:
    red = find_red_flag(text)
    if red is not None:
        logger.info("forum post held for review: red flag %s", red.category)  # the category, never the text
        return PostStatus.pending, ReviewReason.safety, red
    if member.approved_posts >= APPROVED_POSTS_TO_TRUST or await is_forum_moderator(
        session=session, actor=actor
    ):
        return PostStatus.published, None, None
    return PostStatus.pending, ReviewReason.new_member, None


async def _relation(
    session: AsyncSession, topic_id: str, user_id: str, *, lock: bool = False
) -> ForumTopicUser:
    query = select(ForumTopicUser).where(
        ForumTopicUser.topic_id == topic_id, ForumTopicUser.user_id == user_id
    )
    row = await session.scalar(query.with_for_update() if lock else query)
    if row is None:
        try:
            async with session.begin_nested():
                row = ForumTopicUser(topic_id=topic_id, user_id=user_id, bookmarked=False)
                session.add(row)
        except IntegrityError:  # the same member's other tab made it at the same moment
            row = await session.scalar(query)
    assert row is not None
    return row


async def _watch_by_posting(session: AsyncSession, topic_id: str, user_id: str) -> None:
    row = await _relation(session, topic_id, user_id)
    if row.level is None:
        row.level = WatchLevel.watching


def _outcome(topic: ForumTopic, post: ForumPost, red: RedFlag | None) -> ForumPostOutcome:
    return ForumPostOutcome(
        topic_id=topic.id,
        topic_slug=topic.slug,
        post_id=post.id,
        status=post.status,
        emergency_message=red.message if red is not None else "",
    )


async def start_topic(*, session: AsyncSession, actor: Principal, data: ForumTopicWrite) -> ForumPostOutcome:
    """A new topic with its opening post: published, or waiting for review (new member, red flag)."""
    account, member = await require_poster(session, actor)
    title = one_line(data.title)
    if len(title) < MIN_TITLE:
        raise ValidationFailed(TITLE_NEEDED)
    if len(title) > MAX_TITLE:
        raise ValidationFailed(TITLE_TOO_LONG)
    body = _body(data.body)
    category = await session.scalar(select(ForumCategory).where(ForumCategory.slug == data.category.strip()))
    if category is None:
        raise ValidationFailed(CATEGORY_NEEDED)
    status, reason, red = await _first_state(session, actor, member, f"{title}\n{body}")
    now = utcnow()
    topic = ForumTopic(
        category_id=category.id,
        author_id=account.id,
        title=title,
        slug=slugify(title),
        status=status,
        reply_count=0,
        created_at=now,
        last_activity_at=now,
    )
    session.add(topic)
    await session.flush()
    post = _new_post(topic, account, 1, body, status, reason, red, now)
    session.add(post)
    await _watch_by_posting(session, topic.id, account.id)
    if status == PostStatus.published:
        await first_published(session, topic, post)
    await session.flush()
    return _outcome(topic, post, red)


def _new_post(
    topic: ForumTopic,
    account: AccountRead,
    number: int,
    body: str,
    status: PostStatus,
    reason: ReviewReason | None,
    red: RedFlag | None,
    now: object,
    quote_of: str | None = None,
) -> ForumPost:
    return ForumPost(
        topic_id=topic.id,
        author_id=account.id,
        number=number,
        body=body,
        quote_of=quote_of,
        status=status,
        needs_review=reason is not None,
        review_reason=reason,
        safety_category=red.category if red is not None else "",
        moderation_reason="",
        like_count=0,
        flag_count=0,
        created_at=now,
    )


async def _public_topic(session: AsyncSession, topic_id: str, *, lock: bool = False) -> ForumTopic:
    query = select(ForumTopic).where(ForumTopic.id == (topic_id or "")[:36])
    topic = await session.scalar(query.with_for_update() if lock else query)
    if topic is None:
        raise NotFound(NO_TOPIC)
    return topic


async def reply_to_topic(
    *, session: AsyncSession, actor: Principal, topic_id: str, body: str, quote_of: str | None = None
) -> ForumPostOutcome:
    """A reply on a published topic (quoting one of its published posts, if `quote_of`)."""
    account, member = await require_poster(session, actor)
    text = _body(body)
    topic = await _public_topic(session, topic_id, lock=True)  # numbers the replies one at a time
    if topic.status != PostStatus.published:
        raise NotFound(NO_TOPIC) if topic.author_id != account.id else ValidationFailed(NOT_OPEN)
    if quote_of:
        quoted = await session.get(ForumPost, quote_of[:36])
        if quoted is None or quoted.topic_id != topic.id or quoted.status != PostStatus.published:
            quote_of = None
    status, reason, red = await _first_state(session, actor, member, text)
    number = int(
        await session.scalar(select(func.max(ForumPost.number)).where(ForumPost.topic_id == topic.id)) or 0
    )
    post = _new_post(topic, account, number + 1, text, status, reason, red, utcnow(), quote_of or None)
    session.add(post)
    await _watch_by_posting(session, topic.id, account.id)
    if status == PostStatus.published:
        await first_published(session, topic, post)
    await session.flush()
    return _outcome(topic, post, red)


async def _published_post(session: AsyncSession, post_id: str) -> ForumPost:
    post = await session.get(ForumPost, (post_id or "")[:36])
    if post is None or post.status != PostStatus.published:
        raise NotFound(NO_POST)
    return post


async def like_post(*, session: AsyncSession, actor: Principal, post_id: str) -> bool:
    """Like a published post, or take the like back; returns whether the member likes it now."""
    account = await require_member(session, actor)
    post = await _published_post(session, post_id)
    if post.author_id == account.id:
        raise ValidationFailed(OWN_LIKE)
    existing = await session.scalar(
        select(ForumLike).where(ForumLike.post_id == post.id, ForumLike.user_id == account.id)
    )
    if existing is not None:
        await session.delete(existing)
    else:
        try:
            async with session.begin_nested():
                session.add(ForumLike(post_id=post.id, user_id=account.id))
        except IntegrityError:  # a double click in two tabs: one like
            pass
    await session.flush()
    post.like_count = int(
        await session.scalar(select(func.count()).select_from(ForumLike).where(ForumLike.post_id == post.id))
        or 0
    )
    return existing is None


async def _signed_in(session: AsyncSession, actor: Principal) -> AccountRead:
    if not actor.is_user:
        raise PermissionDenied(SIGN_IN, code="sign_in_required")
    return await require_account(session=session, actor=actor)


async def bookmark_topic(*, session: AsyncSession, actor: Principal, topic_id: str, bookmarked: bool) -> bool:
    """Keep a published topic in the member's bookmarks, or drop it; returns the choice kept."""
    account = await _signed_in(session, actor)
    topic = await _public_topic(session, topic_id)
    if topic.status != PostStatus.published and topic.author_id != account.id:
        raise NotFound(NO_TOPIC)
    row = await _relation(session, topic.id, account.id, lock=True)
    row.bookmarked, row.updated_at = bool(bookmarked), utcnow()
    await session.flush()
    return row.bookmarked


async def watch_topic(*, session: AsyncSession, actor: Principal, topic_id: str, level: str) -> str:
    """Watching (a notification for every reply), muted (never one, even after posting) or normal ('')."""
    account = await _signed_in(session, actor)
    if level not in ("", *WatchLevel.__members__):
        raise ValidationFailed(BAD_WATCH)
    topic = await _public_topic(session, topic_id)
    if topic.status != PostStatus.published and topic.author_id != account.id:
        raise NotFound(NO_TOPIC)
    row = await _relation(session, topic.id, account.id, lock=True)
    row.level, row.updated_at = (WatchLevel(level) if level else None), utcnow()
    await session.flush()
    return level


async def accept_answer(*, session: AsyncSession, actor: Principal, post_id: str) -> bool:
    """The topic's author marks a published reply as the accepted answer (again: takes it back); returns
    whether it is accepted now. Its author is told (unless it is their own)."""
    account = await require_member(session, actor)
    post = await _published_post(session, post_id)
    topic = await _public_topic(session, post.topic_id, lock=True)
    if topic.author_id != account.id:
        raise PermissionDenied(AUTHOR_ONLY)
    if post.number == 1:
        raise ValidationFailed(NOT_A_REPLY)
    if topic.accepted_post_id == post.id:
        topic.accepted_post_id = None
        return False
    topic.accepted_post_id = post.id
    if post.author_id != account.id:
        await events.publish_event(
            session,
            ForumAnswerAccepted(
                topic_id=topic.id, topic_slug=topic.slug, post_id=post.id, author_id=post.author_id
            ),
        )
    await session.flush()
    return True
