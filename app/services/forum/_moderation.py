"""Moderation: members flag posts (a reason from the list and an optional note, one flag per member and
post); a post flagged by as many members as the business setting says (3 unless an owner changed it) is
hidden at once and waits in the queue. Moderators (moderate_content) work the review queue (new members'
first posts, posts the red-flag detector stopped, posts hidden by flags) and the hidden posts: approve,
reject, edit, hide or unhide a post, silence a member for some days or lift it. Reject, hide and silence
need a stated reason, told to the author. Every action goes into the moderators' log (shown on their
page) and the audit log."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, UnaryExpression, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, flags
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.forum._access import authors_of, require_member, require_moderator, silenced_until
from app.services.forum._lifecycle import first_published, refresh_topic, tell_author
from app.services.forum._posting import NO_POST, _body
from app.services.shared.articles import one_line
from app.services.shared.markdown import render_markdown
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.forum import (
    LOG_PAGE,
    MAX_NOTE,
    MAX_SILENCE_DAYS,
    QUEUE_PAGE,
    REASON_REQUIRED,
    FlagReason,
    ForumFlag,
    ForumLogEntryRead,
    ForumLogRead,
    ForumMember,
    ForumModerationEntry,
    ForumPost,
    ForumQueueItem,
    ForumQueueRead,
    ForumSilenceRead,
    ForumTopic,
    ModerationAction,
    PostStatus,
    ReviewReason,
)
from models.identity import as_utc

BAD_REASON = "Choose why you are flagging this post."
NOTE_TOO_LONG = f"Keep the note under {MAX_NOTE} characters."
OWN_FLAG = "You can't flag your own post."
FLAGGED_ALREADY = "You have already flagged this post. Moderators will look at it."
REASON_NEEDED = "Say why: the member is told the reason."
REASON_TOO_LONG = f"Keep the reason under {MAX_NOTE} characters."
BAD_ACTION = "Choose approve, reject, edit, hide or unhide."
CANNOT = "That action does not apply to this post any more: reload the queue."
BAD_DAYS = f"Silence for a whole number of days from 1 to {MAX_SILENCE_DAYS}."
NOT_SELF = "You can't silence yourself."
NO_MEMBER = "This member has not taken part in the forum."
NOT_SILENCED = "This member is not silenced."
AUTO_HIDDEN = "Several members flagged it. A moderator will review it."
PAGES = 1_000


def _reason(raw: str, action: ModerationAction) -> str:
    reason = one_line(raw)
    if action in REASON_REQUIRED and not reason:
        raise ValidationFailed(REASON_NEEDED)
    if len(reason) > MAX_NOTE:
        raise ValidationFailed(REASON_TOO_LONG)
    return reason


async def _log(
    session: AsyncSession,
    actor: Principal,
    moderator: AccountRead,
    action: ModerationAction,
    reason: str,
    *,
    post: ForumPost | None = None,
    member_id: str | None = None,
) -> None:
    member_id = member_id or (post.author_id if post is not None else None)
    session.add(
        ForumModerationEntry(
            moderator_id=moderator.id,
            action=action,
            post_id=post.id if post is not None else None,
            topic_id=post.topic_id if post is not None else None,
            member_id=member_id,
            reason=reason,
        )
    )
    await audit.record(
        session=session,
        actor_id=moderator.id,
        actor_email=moderator.email,
        action=AuditAction.forum_moderation,
        target=f"forum post {post.id}" if post is not None else f"forum member {member_id}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"action": action.value, "reason": reason, "member_id": member_id},
    )


async def flag_post(
    *, session: AsyncSession, actor: Principal, post_id: str, reason: str, note: str = ""
) -> int:
    """Flag a published post; returns its flags so far. At the threshold the post is hidden for review."""
    account = await require_member(session, actor)
    if reason not in FlagReason.__members__:
        raise ValidationFailed(BAD_REASON)
    note = one_line(note)
    if len(note) > MAX_NOTE:
        raise ValidationFailed(NOTE_TOO_LONG)
    post = await session.scalar(
        select(ForumPost).where(ForumPost.id == (post_id or "")[:36]).with_for_update()
    )
    if post is None or post.status != PostStatus.published:
        raise NotFound(NO_POST)
    if post.author_id == account.id:
        raise ValidationFailed(OWN_FLAG)
    try:
        async with session.begin_nested():
            session.add(ForumFlag(post_id=post.id, user_id=account.id, reason=FlagReason(reason), note=note))
    except IntegrityError:
        raise ValidationFailed(FLAGGED_ALREADY) from None
    post.flag_count = int(
        await session.scalar(select(func.count()).select_from(ForumFlag).where(ForumFlag.post_id == post.id))
        or 0
    )
    if post.flag_count >= flags.forum_flag_threshold():
        post.status, post.needs_review, post.review_reason = PostStatus.hidden, True, ReviewReason.flags
        post.moderation_reason = AUTO_HIDDEN
        topic = await session.get(ForumTopic, post.topic_id)
        assert topic is not None
        await refresh_topic(session, topic)
        await tell_author(session, topic, post, hidden=True)
    await session.flush()
    return post.flag_count


async def moderate_post(
    *,
    session: AsyncSession,
    actor: Principal,
    post_id: str,
    action: str,
    reason: str = "",
    body: str | None = None,
) -> None:
    """A moderator's decision on one post, with its reason (required to reject or hide)."""
    moderator = await require_moderator(session, actor)
    if action not in ("approve", "reject", "edit", "hide", "unhide"):
        raise ValidationFailed(BAD_ACTION)
    act = ModerationAction(action)
    why = _reason(reason, act)
    post = await session.scalar(
        select(ForumPost).where(ForumPost.id == (post_id or "")[:36]).with_for_update()
    )
    if post is None:
        raise NotFound(NO_POST)
    topic = await session.get(ForumTopic, post.topic_id, with_for_update=True)
    assert topic is not None
    before = post.status
    if act == ModerationAction.edit:
        post.body, post.edited_at = _body(body or ""), utcnow()
    elif act in (ModerationAction.approve, ModerationAction.unhide):
        if before not in (PostStatus.pending, PostStatus.hidden) or (
            act == ModerationAction.unhide and before != PostStatus.hidden
        ):
            raise ValidationFailed(CANNOT)
        never_published = before == PostStatus.pending
        post.status, post.needs_review, post.moderation_reason = PostStatus.published, False, ""
        # the flags are dismissed: the post starts again from none
        await session.execute(delete(ForumFlag).where(ForumFlag.post_id == post.id))
        post.flag_count = 0
        if never_published:
            await first_published(session, topic, post)
        else:
            await refresh_topic(session, topic)
    else:
        target = PostStatus.rejected if act == ModerationAction.reject else PostStatus.hidden
        # an automatically hidden post is hidden again to confirm it (it leaves the queue)
        if before == PostStatus.rejected or (before == target and not post.needs_review):
            raise ValidationFailed(CANNOT)
        post.status, post.needs_review, post.moderation_reason = target, False, why
        await refresh_topic(session, topic)
        await tell_author(session, topic, post, hidden=target == PostStatus.hidden)
    await _log(session, actor, moderator, act, why, post=post)
    await session.flush()


async def silence_member(
    *, session: AsyncSession, actor: Principal, user_id: str, days: int, reason: str
) -> ForumSilenceRead:
    """Stop a member posting for `days` days (1 to MAX_SILENCE_DAYS), with a reason they are told."""
    moderator = await require_moderator(session, actor)
    why = _reason(reason, ModerationAction.silence)
    try:
        days = int(days)
    except (TypeError, ValueError):
        raise ValidationFailed(BAD_DAYS) from None
    if not 1 <= days <= MAX_SILENCE_DAYS:
        raise ValidationFailed(BAD_DAYS)
    if user_id == moderator.id:
        raise ValidationFailed(NOT_SELF)
    member = await session.get(ForumMember, (user_id or "")[:36], with_for_update=True)
    if member is None:
        raise NotFound(NO_MEMBER)
    member.silenced_until, member.silence_reason = utcnow() + timedelta(days=days), why
    await _log(
        session, actor, moderator, ModerationAction.silence, f"{days} days: {why}", member_id=member.user_id
    )
    await session.flush()
    authors = await authors_of(session, [member.user_id])
    return ForumSilenceRead(member=authors[member.user_id], silenced_until=member.silenced_until, reason=why)


async def unsilence_member(
    *, session: AsyncSession, actor: Principal, user_id: str, reason: str = ""
) -> None:
    """Lift a member's silence now."""
    moderator = await require_moderator(session, actor)
    why = _reason(reason, ModerationAction.unsilence)
    member = await session.get(ForumMember, (user_id or "")[:36], with_for_update=True)
    if member is None or silenced_until(member) is None:
        raise ValidationFailed(NOT_SILENCED)
    member.silenced_until = None
    await _log(session, actor, moderator, ModerationAction.unsilence, why, member_id=member.user_id)
    await session.flush()


def _page(page: int) -> int:
    try:
        return max(1, min(int(page), PAGES))
    except (TypeError, ValueError):
        return 1


async def moderation_queue(
    *, session: AsyncSession, actor: Principal, view: str = "queue", page: int = 1
) -> ForumQueueRead:
    """The review queue (oldest first) or the hidden posts (newest first), QUEUE_PAGE a page, with each
    post's flags by reason and its author's standing."""
    await require_moderator(session, actor)
    page = _page(page)
    view = "hidden" if view == "hidden" else "queue"
    where: ColumnElement[bool]
    order: UnaryExpression[datetime]
    if view == "queue":
        where, order = ForumPost.needs_review.is_(True), ForumPost.created_at.asc()
    else:
        where = (ForumPost.status == PostStatus.hidden) & ForumPost.needs_review.is_(False)
        order = ForumPost.created_at.desc()
    total = int(await session.scalar(select(func.count()).select_from(ForumPost).where(where)) or 0)
    rows = (
        (
            await session.execute(
                select(ForumPost, ForumTopic)
                .join(ForumTopic, ForumTopic.id == ForumPost.topic_id)
                .where(where)
                .order_by(order, ForumPost.id)
                .offset((page - 1) * QUEUE_PAGE)
                .limit(QUEUE_PAGE)
            )
        )
        .tuples()
        .all()
    )
    ids = [post.id for post, _topic in rows]
    reasons: dict[str, dict[str, int]] = {}
    notes: dict[str, list[str]] = {}
    if ids:
        for post_id, why, count in (
            await session.execute(
                select(ForumFlag.post_id, ForumFlag.reason, func.count())
                .where(ForumFlag.post_id.in_(ids))
                .group_by(ForumFlag.post_id, ForumFlag.reason)
            )
        ).tuples():
            reasons.setdefault(post_id, {})[FlagReason(why).value] = int(count)
        for post_id, note in (
            await session.execute(
                select(ForumFlag.post_id, ForumFlag.note).where(
                    ForumFlag.post_id.in_(ids), ForumFlag.note != ""
                )
            )
        ).tuples():
            notes.setdefault(post_id, []).append(note)
    author_ids = {post.author_id for post, _topic in rows}
    authors = await authors_of(session, author_ids)
    members = {
        m.user_id: m
        for m in await session.scalars(select(ForumMember).where(ForumMember.user_id.in_(author_ids)))
    }
    return ForumQueueRead(
        items=[
            ForumQueueItem(
                post_id=post.id,
                topic_id=topic.id,
                topic_slug=topic.slug,
                topic_title=topic.title,
                number=post.number,
                author=authors[post.author_id],
                author_approved_posts=members[post.author_id].approved_posts
                if post.author_id in members
                else 0,
                author_silenced_until=silenced_until(members.get(post.author_id)),
                body=post.body,
                body_html=render_markdown(post.body),
                status=post.status,
                review_reason=post.review_reason,
                safety_category=post.safety_category,
                flag_count=post.flag_count,
                flag_reasons=reasons.get(post.id, {}),
                flag_notes=notes.get(post.id, [])[:10],
                created_at=as_utc(post.created_at),
            )
            for post, topic in rows
        ],
        page=page,
        total=total,
        view=view,
    )


async def list_forum_silences(*, session: AsyncSession, actor: Principal) -> list[ForumSilenceRead]:
    """The members silenced now, the soonest to end first (at most 100)."""
    await require_moderator(session, actor)
    members = (
        await session.scalars(
            select(ForumMember)
            .where(ForumMember.silenced_until > utcnow())
            .order_by(ForumMember.silenced_until)
            .limit(100)
        )
    ).all()
    authors = await authors_of(session, [m.user_id for m in members])
    return [
        ForumSilenceRead(
            member=authors[m.user_id], silenced_until=as_utc(m.silenced_until), reason=m.silence_reason
        )
        for m in members
        if m.silenced_until is not None
    ]


async def moderation_log(*, session: AsyncSession, actor: Principal, page: int = 1) -> ForumLogRead:
    """The moderators' log, newest first, LOG_PAGE a page: who did what, to whom, when and why."""
    await require_moderator(session, actor)
    page = _page(page)
    total = int(await session.scalar(select(func.count()).select_from(ForumModerationEntry)) or 0)
    rows = (
        await session.scalars(
            select(ForumModerationEntry)
            .order_by(ForumModerationEntry.created_at.desc(), ForumModerationEntry.id)
            .offset((page - 1) * LOG_PAGE)
            .limit(LOG_PAGE)
        )
    ).all()
    names = await authors_of(session, [i for r in rows for i in (r.moderator_id, r.member_id) if i])
    return ForumLogRead(
        entries=[
            ForumLogEntryRead(
                id=r.id,
                moderator_name=names[r.moderator_id].name if r.moderator_id in names else "",
                action=r.action,
                post_id=r.post_id,
                topic_id=r.topic_id,
                member_name=names[r.member_id].name if r.member_id in names else "",
                reason=r.reason,
                created_at=as_utc(r.created_at),
            )
            for r in rows
        ],
        page=page,
        total=total,
    )
