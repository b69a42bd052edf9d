"""The forum (app/services/forum): watchers hear of new replies, authors of moderation and of accepted
answers. Never the post's text: a PHI-free line and a link to the topic."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import ForumAnswerAccepted, ForumPostModerated, ForumReplyPublished
from app.services.notifications._delivery import notify
from models.notification import NotificationKind


def _topic_href(topic_id: str, slug: str) -> str:
    return f"/forum/t/{topic_id}/{slug}"


async def tell_watchers_of_reply(session: AsyncSession, reply: ForumReplyPublished) -> None:
    await notify(
        session=session,
        recipients=reply.watcher_ids,
        kind=NotificationKind.forum_reply,
        link=_topic_href(reply.topic_id, reply.topic_slug),
        title="New reply in a forum topic you watch",
        body="Open the forum to read it. You can mute the topic from its page.",
    )


async def tell_post_moderated(session: AsyncSession, moderated: ForumPostModerated) -> None:
    """The author hears their post was hidden or rejected, with the moderator's reason."""
    what = "hidden" if moderated.hidden else "not published"
    await notify(
        session=session,
        recipients=[moderated.author_id],
        kind=NotificationKind.forum_post_moderated,
        link=_topic_href(moderated.topic_id, moderated.topic_slug),
        title=f"Your forum post was {what}",
        body=f"Reason: {moderated.reason}",
    )


async def tell_answer_accepted(session: AsyncSession, accepted: ForumAnswerAccepted) -> None:
    await notify(
        session=session,
        recipients=[accepted.author_id],
        kind=NotificationKind.forum_answer_accepted,
        link=_topic_href(accepted.topic_id, accepted.topic_slug),
        title="Your forum reply was accepted as the answer",
        body="The person who asked marked your reply as the one that helped.",
    )
