"""The staff handbook (/staff/documentation, issue 15 item 5): articles on how to run each part of the
business, written in Markdown and rendered to sanitised HTML when read. Every staff member reads them;
owners and admins write them."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow

MAX_TITLE = 120
MAX_SUMMARY = 300
MAX_BODY = 20_000  # characters of Markdown
MAX_ARTICLES = 500  # the handbook stays small enough to search without a full-text index
MAX_QUERY = 100
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
MAX_SLUG = 80


class HandbookArticle(Base):
    __tablename__ = "handbook_articles"
    __table_args__ = (Index("ix_handbook_articles_topic", "topic", "position"),)

    id: Mapped[str] = id_column()
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    summary: Mapped[str] = mapped_column(String(MAX_SUMMARY), default="")
    topic: Mapped[str] = mapped_column(String(60), default="")  # the staff section it covers, by label
    position: Mapped[int] = mapped_column(Integer, default=0)
    body: Mapped[str] = mapped_column(Text, default="")  # Markdown
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(36), default=None)  # user id; None: the seed


class ArticleSummaryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    slug: str
    title: str
    summary: str
    topic: str
    updated_at: datetime


class ArticleRead(ArticleSummaryRead):
    body: str  # the Markdown, for the editor
    body_html: str  # sanitised HTML, for reading
    updated_by_name: str | None  # None: written by MediVisit (the seed)
    can_edit: bool


class HandbookRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    articles: list[ArticleSummaryRead]  # by topic, then position
    query: str
    can_edit: bool


class ArticleWrite(BaseModel):
    """What the editor sends: checked by the service (lengths, the slug's form) with field messages."""

    model_config = ConfigDict(frozen=True)

    title: str = Field(default="", max_length=MAX_TITLE * 2)
    summary: str = Field(default="", max_length=MAX_SUMMARY * 2)
    topic: str = Field(default="", max_length=120)
    body: str = Field(default="", max_length=MAX_BODY * 2)
