"""The community forum (/forum, issue 16): categories (reference data), topics and their posts (the opening
post and the replies, Markdown), likes, topic bookmarks, watching or muting a topic, flags, and moderation:
each member's standing (approved posts, a silence), and the moderators' log.

A post's `status` decides who sees it: `published` everyone; `pending` (a new member's first posts, or one
the red-flag detector stopped) and `hidden` (flagged past the threshold, or hidden by a moderator) only its
author and the moderators; `rejected` only its author. `needs_review` puts a post in the moderators' queue.
A topic's `status` is its opening post's.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, Enum, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_TITLE = 150
MIN_TITLE = 8
MAX_BODY = 10_000  # characters of Markdown in one post
MAX_NOTE = 500  # a flag's note, a moderator's reason
MAX_SLUG = 80
TOPICS_PAGE = 20
POSTS_PAGE = 20
QUEUE_PAGE = 20
LOG_PAGE = 50
APPROVED_POSTS_TO_TRUST = 2  # a member's posts wait for review until this many were approved
MAX_SILENCE_DAYS = 365


class PostStatus(enum.StrEnum):
    published = "published"
    pending = "pending"
    hidden = "hidden"
    rejected = "rejected"


class ReviewReason(enum.StrEnum):
    """Why a post is in the queue."""

    new_member = "new_member"
    safety = "safety"
    flags = "flags"


class FlagReason(enum.StrEnum):
    off_topic = "off_topic"
    inappropriate = "inappropriate"
    spam = "spam"
    misinformation = "misinformation"
    other = "other"


FLAG_LABELS: dict[FlagReason, str] = {
    FlagReason.off_topic: "Off-topic",
    FlagReason.inappropriate: "Inappropriate",
    FlagReason.spam: "Spam",
    FlagReason.misinformation: "Medical misinformation",
    FlagReason.other: "Something else",
}


class WatchLevel(enum.StrEnum):
    watching = "watching"
    muted = "muted"


class ModerationAction(enum.StrEnum):
    approve = "approve"
    reject = "reject"
    edit = "edit"
    hide = "hide"
    unhide = "unhide"
    silence = "silence"
    unsilence = "unsilence"


ACTION_LABELS: dict[ModerationAction, str] = {
    ModerationAction.approve: "Approved",
    ModerationAction.reject: "Rejected",
    ModerationAction.edit: "Edited",
    ModerationAction.hide: "Hidden",
    ModerationAction.unhide: "Unhidden",
    ModerationAction.silence: "Silenced",
    ModerationAction.unsilence: "Unsilenced",
}
REASON_REQUIRED = frozenset({ModerationAction.reject, ModerationAction.hide, ModerationAction.silence})


def _enum(kind: type[enum.StrEnum]) -> Enum:
    return Enum(kind, native_enum=False, length=16)


class ForumCategory(Base):
    __tablename__ = "forum_categories"

    id: Mapped[str] = id_column()
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    description: Mapped[str] = mapped_column(String(300), default="")
    position: Mapped[int] = mapped_column(Integer, default=0)


class ForumTopic(Base):
    __tablename__ = "forum_topics"
    __table_args__ = (
        Index("ix_forum_topics_latest", "status", "last_activity_at"),
        Index("ix_forum_topics_category_latest", "category_id", "status", "last_activity_at"),
    )

    id: Mapped[str] = id_column()
    category_id: Mapped[str] = mapped_column(ForeignKey("forum_categories.id", ondelete="CASCADE"))
    author_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    slug: Mapped[str] = mapped_column(String(MAX_SLUG))
    status: Mapped[PostStatus] = mapped_column(_enum(PostStatus))
    reply_count: Mapped[int] = mapped_column(Integer, default=0)  # published replies
    accepted_post_id: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = created_at_column()
    last_activity_at: Mapped[datetime] = mapped_column(default=utcnow)


class ForumPost(Base):
    __tablename__ = "forum_posts"
    __table_args__ = (
        Index("ix_forum_posts_topic", "topic_id", "number"),
        Index("ix_forum_posts_queue", "needs_review", "created_at"),
        Index("ix_forum_posts_status", "status", "created_at"),
        Index("ix_forum_posts_author", "author_id", "status"),
    )

    id: Mapped[str] = id_column()
    topic_id: Mapped[str] = mapped_column(ForeignKey("forum_topics.id", ondelete="CASCADE"))
    author_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # 1: the opening post
    body: Mapped[str] = mapped_column(Text)  # Markdown
    quote_of: Mapped[str | None] = mapped_column(String(36), default=None)  # the post it quotes
    status: Mapped[PostStatus] = mapped_column(_enum(PostStatus))
    needs_review: Mapped[bool] = mapped_column(Boolean, default=False)
    review_reason: Mapped[ReviewReason | None] = mapped_column(_enum(ReviewReason), default=None)
    safety_category: Mapped[str] = mapped_column(String(40), default="")  # never the words themselves
    moderation_reason: Mapped[str] = mapped_column(String(MAX_NOTE), default="")  # told to the author
    like_count: Mapped[int] = mapped_column(Integer, default=0)
    flag_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = created_at_column()
    edited_at: Mapped[datetime | None] = mapped_column(default=None)


class ForumLike(Base):
    __tablename__ = "forum_likes"
    __table_args__ = (UniqueConstraint("post_id", "user_id", name="uq_forum_likes_post_user"),)

    id: Mapped[str] = id_column()
    post_id: Mapped[str] = mapped_column(ForeignKey("forum_posts.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = created_at_column()


class ForumFlag(Base):
    __tablename__ = "forum_flags"
    __table_args__ = (UniqueConstraint("post_id", "user_id", name="uq_forum_flags_post_user"),)

    id: Mapped[str] = id_column()
    post_id: Mapped[str] = mapped_column(ForeignKey("forum_posts.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    reason: Mapped[FlagReason] = mapped_column(_enum(FlagReason))
    note: Mapped[str] = mapped_column(String(MAX_NOTE), default="")
    created_at: Mapped[datetime] = created_at_column()


class ForumTopicUser(Base):
    """One member's relation to one topic: bookmarked, watching or muted."""

    __tablename__ = "forum_topic_users"
    __table_args__ = (
        UniqueConstraint("topic_id", "user_id", name="uq_forum_topic_users_topic_user"),
        Index("ix_forum_topic_users_watchers", "topic_id", "level"),
        Index("ix_forum_topic_users_bookmarks", "user_id", "bookmarked"),
    )

    id: Mapped[str] = id_column()
    topic_id: Mapped[str] = mapped_column(ForeignKey("forum_topics.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    level: Mapped[WatchLevel | None] = mapped_column(_enum(WatchLevel), default=None)
    bookmarked: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ForumMember(Base):
    """A member's standing: how many of their posts were published (trust), and a silence."""

    __tablename__ = "forum_members"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    approved_posts: Mapped[int] = mapped_column(Integer, default=0)
    silenced_until: Mapped[datetime | None] = mapped_column(default=None, index=True)
    silence_reason: Mapped[str] = mapped_column(String(MAX_NOTE), default="")


class ForumModerationEntry(Base):
    """The moderators' log: who did what to which post or member, when, and why."""

    __tablename__ = "forum_moderation_log"

    id: Mapped[str] = id_column()
    moderator_id: Mapped[str | None] = mapped_column(String(36), default=None)  # outlives the account
    action: Mapped[ModerationAction] = mapped_column(_enum(ModerationAction))
    post_id: Mapped[str | None] = mapped_column(String(36), default=None)
    topic_id: Mapped[str | None] = mapped_column(String(36), default=None)
    member_id: Mapped[str | None] = mapped_column(String(36), default=None)  # the post's author or silenced
    reason: Mapped[str] = mapped_column(String(MAX_NOTE), default="")
    created_at: Mapped[datetime] = created_at_column()


# ---- schemas ------------------------------------------------------------------------------------------
class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ForumCategoryRead(_Frozen):
    id: str
    slug: str
    name: str
    description: str
    topic_count: int = 0


class ForumAuthorRead(_Frozen):
    id: str
    name: str
    verified_provider: bool = False


class ForumTopicSummaryRead(_Frozen):
    id: str
    slug: str
    title: str
    category_slug: str
    category_name: str
    author: ForumAuthorRead
    status: PostStatus
    reply_count: int
    answered: bool
    created_at: datetime
    last_activity_at: datetime

    @property
    def href(self) -> str:
        return f"/forum/t/{self.id}/{self.slug}"


class ForumTopicListRead(_Frozen):
    categories: list[ForumCategoryRead]
    category: ForumCategoryRead | None  # the category listed, None: all of them
    topics: list[ForumTopicSummaryRead]
    page: int
    total: int
    bookmarks: bool = False  # the signed-in member's bookmarked topics


class ForumPostRead(_Frozen):
    id: str
    number: int
    author: ForumAuthorRead
    body: str  # Markdown (quoting)
    body_html: str  # sanitised HTML
    quote_author: str = ""  # the quoted post's author, when this reply quotes one
    status: PostStatus
    moderation_reason: str = ""  # the author sees why it was rejected or hidden
    waiting_reason: ReviewReason | None = None  # the author's (and moderators') view of a waiting post
    emergency_message: str = ""  # the author's own post the red-flag detector stopped: the 911 / 988 words
    like_count: int
    liked: bool = False
    flagged: bool = False  # by the viewer
    accepted: bool = False
    mine: bool = False
    created_at: datetime
    edited_at: datetime | None = None


class ForumTopicRead(_Frozen):
    topic: ForumTopicSummaryRead
    posts: list[ForumPostRead]
    page: int
    total: int  # posts the viewer sees
    signed_in: bool
    is_author: bool
    is_moderator: bool
    watch: WatchLevel | None
    bookmarked: bool
    posting_open: bool
    silenced_until: datetime | None = None


class ForumPostOutcome(_Frozen):
    """What a new topic or reply became: published, or waiting for review (with the red-flag message)."""

    topic_id: str
    topic_slug: str
    post_id: str
    status: PostStatus
    emergency_message: str = ""

    @property
    def href(self) -> str:
        return f"/forum/t/{self.topic_id}/{self.topic_slug}"


class ForumTopicWrite(_Frozen):
    category: str = Field(default="", max_length=MAX_SLUG)
    title: str = Field(default="", max_length=MAX_TITLE * 2)
    body: str = Field(default="", max_length=MAX_BODY * 2)


class ForumQueueItem(_Frozen):
    post_id: str
    topic_id: str
    topic_slug: str
    topic_title: str
    number: int
    author: ForumAuthorRead
    author_approved_posts: int
    author_silenced_until: datetime | None
    body: str
    body_html: str
    status: PostStatus
    review_reason: ReviewReason | None
    safety_category: str
    flag_count: int
    flag_reasons: dict[str, int]  # FlagReason value -> count
    flag_notes: list[str]
    created_at: datetime


class ForumQueueRead(_Frozen):
    items: list[ForumQueueItem]
    page: int
    total: int
    view: str  # queue or hidden


class ForumSilenceRead(_Frozen):
    member: ForumAuthorRead
    silenced_until: datetime
    reason: str


class ForumLogEntryRead(_Frozen):
    id: str
    moderator_name: str
    action: ModerationAction
    post_id: str | None
    topic_id: str | None
    member_name: str
    reason: str
    created_at: datetime


class ForumLogRead(_Frozen):
    entries: list[ForumLogEntryRead]
    page: int
    total: int
