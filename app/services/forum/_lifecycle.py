"""What happens when a post's status changes: the topic's counts and latest activity follow the published
posts (aggregated in SQL), a post published for the first time counts towards its author's trust and tells
the topic's watchers (never the muted, never the author), and an author hears why a post was rejected or
hidden. Notifications carry no post text: a PHI-free line and a link to the topic."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.services.domain_events import ForumPostModerated, ForumReplyPublished
from models.forum import ForumMember, ForumPost, ForumTopic, ForumTopicUser, PostStatus, WatchLevel


async def refresh_topic(session: AsyncSession, topic: ForumTopic) -> None:
    """The topic's status (its opening post's), published replies and latest published activity."""
    await session.flush()
    opening, replies, latest = (
        await session.execute(
            select(
                func.max(ForumPost.status).filter(ForumPost.number == 1),
                func.count().filter(ForumPost.number > 1, ForumPost.status == PostStatus.published),
                func.max(ForumPost.created_at).filter(ForumPost.status == PostStatus.published),
            ).where(ForumPost.topic_id == topic.id)
        )
    ).one()
    topic.status = PostStatus(opening) if opening else topic.status
    topic.reply_count = int(replies or 0)
    topic.last_activity_at = latest or topic.created_at
    if topic.accepted_post_id is not None:
        accepted = await session.get(ForumPost, topic.accepted_post_id)
        if accepted is None or accepted.status != PostStatus.published:
            topic.accepted_post_id = None


async def first_published(session: AsyncSession, topic: ForumTopic, post: ForumPost) -> None:
    """`post` has just been published for the first time (at once, or approved by a moderator)."""
    member = await session.get(ForumMember, post.author_id)
    if member is None:
        member = ForumMember(user_id=post.author_id, approved_posts=0, silence_reason="")
        session.add(member)
    member.approved_posts += 1
    await refresh_topic(session, topic)
    if post.number == 1:
        return
    watchers = await session.scalars(
        select(ForumTopicUser.user_id).where(
            ForumTopicUser.topic_id == topic.id,
            ForumTopicUser.level == WatchLevel.watching,
            ForumTopicUser.user_id != post.author_id,
        )
    )
    await events.publish_event(
        session,
        ForumReplyPublished(
            topic_id=topic.id, topic_slug=topic.slug, post_id=post.id, watcher_ids=tuple(watchers)
        ),
    )


async def tell_author(session: AsyncSession, topic: ForumTopic, post: ForumPost, *, hidden: bool) -> None:
    """The author hears their post was hidden or rejected, with the moderator's reason."""
    await events.publish_event(
        session,
        ForumPostModerated(
            topic_id=topic.id,
            topic_slug=topic.slug,
            post_id=post.id,
            author_id=post.author_id,
            hidden=hidden,
            reason=post.moderation_reason,
        ),
    )
