"""Reading and writing handbook articles. Every active staff member (any portal role, owner included) reads
and searches; owners, admins and master admins write and delete, audited. The search is a case-insensitive
match on title, summary and body over a handbook capped at MAX_ARTICLES articles (so a scan stays small: no
full-text index needed)."""

from __future__ import annotations

from sqlalchemy import case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.shared.accounts import is_admin
from app.services.shared.articles import one_line, write_article_row
from app.services.shared.markdown import render_markdown
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_staff
from models.account import AccountRead
from models.audit import AuditAction
from models.handbook import (
    MAX_ARTICLES,
    MAX_BODY,
    MAX_QUERY,
    MAX_SLUG,
    MAX_SUMMARY,
    MAX_TITLE,
    ArticleRead,
    ArticleSummaryRead,
    ArticleWrite,
    HandbookArticle,
    HandbookRead,
)
from models.identity import User, as_utc

FIRST_TOPIC = "Getting started"  # then the others, A to Z
NOT_FOUND = "This article does not exist (it may have been deleted)."
WRITERS_ONLY = "Only owners and admins can change the handbook."
TITLE_NEEDED = "Give the article a title."
TITLE_TOO_LONG = f"Keep the title under {MAX_TITLE} characters."
SUMMARY_TOO_LONG = f"Keep the summary under {MAX_SUMMARY} characters."
BODY_NEEDED = "Write the article's text."
BODY_TOO_LONG = f"Keep the article under {MAX_BODY:,} characters (split it in two)."
TOPIC_TOO_LONG = "Keep the topic under 60 characters."
FULL = f"The handbook holds at most {MAX_ARTICLES} articles: delete or merge one first."


async def _reader(session: AsyncSession, actor: Principal) -> AccountRead:
    """A staff member (any active portal role) or an admin: the handbook's readers."""
    account = await require_account(session=session, actor=actor)
    if is_admin(account):
        return account
    account, _permissions = await require_staff(session=session, actor=actor)
    return account


def _summary(row: HandbookArticle) -> ArticleSummaryRead:
    return ArticleSummaryRead(
        slug=row.slug,
        title=row.title,
        summary=row.summary,
        topic=row.topic,
        updated_at=as_utc(row.updated_at),
    )


async def list_articles(*, session: AsyncSession, actor: Principal, query: str = "") -> HandbookRead:
    """The handbook's articles by topic (or those matching `query`), for any staff member."""
    account = await _reader(session, actor)
    query = one_line(query)[:MAX_QUERY]
    statement = select(HandbookArticle).order_by(
        case((HandbookArticle.topic == FIRST_TOPIC, 0), else_=1),
        HandbookArticle.topic,
        HandbookArticle.position,
        HandbookArticle.title,
    )
    if query:
        pattern = "%" + query.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        statement = statement.where(
            or_(
                *(
                    func.lower(column).like(pattern, escape="\\")
                    for column in (HandbookArticle.title, HandbookArticle.summary, HandbookArticle.body)
                )
            )
        )
    rows = (await session.scalars(statement.limit(MAX_ARTICLES))).all()
    return HandbookRead(articles=[_summary(row) for row in rows], query=query, can_edit=is_admin(account))


async def get_article(*, session: AsyncSession, actor: Principal, slug: str) -> ArticleRead:
    account = await _reader(session, actor)
    row = await session.scalar(select(HandbookArticle).where(HandbookArticle.slug == slug[:MAX_SLUG]))
    if row is None:
        raise NotFound(NOT_FOUND)
    editor = await session.get(User, row.updated_by) if row.updated_by else None
    return ArticleRead(
        **_summary(row).model_dump(),
        body=row.body,
        body_html=render_markdown(row.body),
        updated_by_name=_name(editor) if row.updated_by else None,
        can_edit=is_admin(account),
    )


def _name(user: User | None) -> str:
    if user is None:
        return "a former member"
    meta = user.raw_user_meta_data or {}
    full = " ".join(part for part in (meta.get("first_name"), meta.get("last_name")) if part)
    return full or meta.get("full_name") or meta.get("name") or user.email or "a member"


def _checked(data: ArticleWrite) -> dict[str, str]:
    title, summary, topic, body = (
        one_line(data.title),
        one_line(data.summary),
        one_line(data.topic),
        data.body.strip(),
    )
    for problem, broken in (
        (TITLE_NEEDED, not title),
        (TITLE_TOO_LONG, len(title) > MAX_TITLE),
        (SUMMARY_TOO_LONG, len(summary) > MAX_SUMMARY),
        (TOPIC_TOO_LONG, len(topic) > 60),
        (BODY_NEEDED, not body),
        (BODY_TOO_LONG, len(body) > MAX_BODY),
    ):
        if broken:
            raise ValidationFailed(problem)
    return {"title": title, "summary": summary, "topic": topic or "General", "body": body}


async def _writer(session: AsyncSession, actor: Principal) -> AccountRead:
    account = await require_account(session=session, actor=actor)
    if not is_admin(account):
        raise PermissionDenied(WRITERS_ONLY)
    return account


async def save_article(
    *, session: AsyncSession, actor: Principal, data: ArticleWrite, slug: str | None = None
) -> ArticleRead:
    """Owners and admins: create an article (`slug` None; its slug comes from the title) or change one."""
    account = await _writer(session, actor)
    values = _checked(data)
    creating = slug is None
    row, changed = await write_article_row(
        session,
        HandbookArticle,
        group="topic",
        slug=slug,
        values=values,
        editor_id=account.id,
        limit=MAX_ARTICLES,
        full=FULL,
        not_found=NOT_FOUND,
    )
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=AuditAction.handbook_edit,
        target=f"article {row.slug}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"title": row.title, "fields": changed, "created": creating},
    )
    return await get_article(session=session, actor=actor, slug=row.slug)


async def delete_article(*, session: AsyncSession, actor: Principal, slug: str) -> None:
    account = await _writer(session, actor)
    row = await session.scalar(select(HandbookArticle).where(HandbookArticle.slug == slug[:MAX_SLUG]))
    if row is None:
        raise NotFound(NOT_FOUND)
    await session.delete(row)
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=AuditAction.handbook_delete,
        target=f"article {row.slug}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"title": row.title},
    )
