"""The public Help Center (/help-center, issue 16): articles in five categories, written in Markdown by
staff (owners, admins, master admins and HR), drafts until published, found by full-text search, and
'Was this helpful?' votes, one per visitor or user per article.

The search index is not mapped here: on SQLite an FTS5 table `help_articles_fts` kept in step by triggers,
on PostgreSQL a generated `search_vector` tsvector column with a GIN index (migration 0036; both read only
by app/services/help_center/_search.py).
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, Enum, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_TITLE = 120
MAX_SUMMARY = 300
MAX_BODY = 20_000  # characters of Markdown
MAX_QUERY = 100  # characters of a search
MAX_SLUG = 80
MAX_RESULTS = 20  # search results shown at once
MAX_PAGE = 50  # articles listed at once in the staff portal
MAX_ARTICLES = 1_000


class HelpCategory(enum.StrEnum):
    booking = "booking"
    payments = "payments"
    visits = "visits"
    accounts = "accounts"
    providers = "providers"


CATEGORY_LABELS: dict[HelpCategory, str] = {
    HelpCategory.booking: "Booking",
    HelpCategory.payments: "Payments",
    HelpCategory.visits: "Visits",
    HelpCategory.accounts: "Accounts",
    HelpCategory.providers: "Providers",
}


class HelpStatus(enum.StrEnum):
    draft = "draft"
    published = "published"


class HelpArticle(Base):
    __tablename__ = "help_articles"
    __table_args__ = (Index("ix_help_articles_category", "category", "status", "position"),)

    id: Mapped[str] = id_column()
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    summary: Mapped[str] = mapped_column(String(MAX_SUMMARY), default="")
    category: Mapped[HelpCategory] = mapped_column(Enum(HelpCategory, native_enum=False, length=16))
    status: Mapped[HelpStatus] = mapped_column(Enum(HelpStatus, native_enum=False, length=16))
    position: Mapped[int] = mapped_column(Integer, default=0)
    body: Mapped[str] = mapped_column(Text, default="")  # Markdown
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(36), default=None)  # user id; None: the seed


class HelpVote(Base):
    """One 'Was this helpful?' answer: `voter` is 'user:<id>' or 'visitor:<cookie id>', nothing more."""

    __tablename__ = "help_votes"
    __table_args__ = (UniqueConstraint("article_id", "voter", name="uq_help_votes_article_voter"),)

    id: Mapped[str] = id_column()
    article_id: Mapped[str] = mapped_column(ForeignKey("help_articles.id", ondelete="CASCADE"))
    voter: Mapped[str] = mapped_column(String(80))
    helpful: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = created_at_column()


# ---- schemas ------------------------------------------------------------------------------------------
class HelpArticleSummaryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    slug: str
    title: str
    summary: str
    category: HelpCategory
    status: HelpStatus
    updated_at: datetime
    helpful_yes: int = 0
    helpful_no: int = 0


class HelpArticleRead(HelpArticleSummaryRead):
    body: str  # the Markdown (for editors; readers get body_html)
    body_html: str  # sanitised HTML
    can_edit: bool
    my_vote: bool | None = None  # this visitor's or user's answer, if any


class HelpCenterRead(BaseModel):
    """The public index: published articles by category."""

    model_config = ConfigDict(frozen=True)

    articles: list[HelpArticleSummaryRead]


class HelpSearchHit(BaseModel):
    """One ranked passage: what the search page shows, and what an assistant may quote with its source."""

    model_config = ConfigDict(frozen=True)

    article_id: str
    slug: str
    title: str
    category: HelpCategory
    url: str
    snippet: str  # plain text; the matched words between MARK_START and MARK_END
    rank: float  # higher is better


MARK_START = "\u0002"
MARK_END = "\u0003"


class HelpSearchRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    query: str
    hits: list[HelpSearchHit]


class HelpAdminRead(BaseModel):
    """The staff list: every article, drafts included, with its votes."""

    model_config = ConfigDict(frozen=True)

    articles: list[HelpArticleSummaryRead]
    page: int
    has_more: bool


class HelpArticleWrite(BaseModel):
    """What the editor sends: checked by the service (lengths, category) with clear messages."""

    model_config = ConfigDict(frozen=True)

    title: str = Field(default="", max_length=MAX_TITLE * 2)
    summary: str = Field(default="", max_length=MAX_SUMMARY * 2)
    category: str = Field(default="", max_length=32)
    body: str = Field(default="", max_length=MAX_BODY * 2)
    published: bool = False
