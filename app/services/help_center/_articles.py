"""Reading and writing Help Center articles. Anyone (a visitor too) reads published articles; drafts are
read, and every article written and deleted (audited), only by editors (`_access`). Vote counts come from
one grouped query per list, never one per article."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.help_center._access import can_edit_help_center, require_editor
from app.services.help_center._votes import vote_counts, voter_key
from app.services.shared.articles import one_line, write_article_row
from app.services.shared.markdown import render_markdown
from models.audit import AuditAction
from models.help_center import (
    MAX_ARTICLES,
    MAX_BODY,
    MAX_PAGE,
    MAX_SLUG,
    MAX_SUMMARY,
    MAX_TITLE,
    HelpAdminRead,
    HelpArticle,
    HelpArticleRead,
    HelpArticleSummaryRead,
    HelpArticleWrite,
    HelpCategory,
    HelpCenterRead,
    HelpStatus,
    HelpVote,
)
from models.identity import as_utc

NOT_FOUND = "This article does not exist or is not published."
TITLE_NEEDED = "Give the article a title."
TITLE_TOO_LONG = f"Keep the title under {MAX_TITLE} characters."
SUMMARY_TOO_LONG = f"Keep the summary under {MAX_SUMMARY} characters."
CATEGORY_NEEDED = "Choose the article's category."
BODY_NEEDED = "Write the article's text."
BODY_TOO_LONG = f"Keep the article under {MAX_BODY:,} characters (split it in two)."
FULL = f"The Help Center holds at most {MAX_ARTICLES:,} articles: delete or merge one first."
PUBLIC_LIMIT = 300  # published articles on the index page (five categories; far more than it holds)


def _summary(row: HelpArticle, counts: dict[str, tuple[int, int]]) -> HelpArticleSummaryRead:
    yes, no = counts.get(row.id, (0, 0))
    return HelpArticleSummaryRead(
        id=row.id,
        slug=row.slug,
        title=row.title,
        summary=row.summary,
        category=row.category,
        status=row.status,
        updated_at=as_utc(row.updated_at),
        helpful_yes=yes,
        helpful_no=no,
    )


async def list_help_center(*, session: AsyncSession, actor: Principal) -> HelpCenterRead:
    """The published articles, by category and position: the public index (anyone may read it)."""
    del actor  # public: a visitor reads it as well as anybody
    rows = (
        await session.scalars(
            select(HelpArticle)
            .where(HelpArticle.status == HelpStatus.published)
            .order_by(HelpArticle.category, HelpArticle.position, HelpArticle.title)
            .limit(PUBLIC_LIMIT)
        )
    ).all()
    return HelpCenterRead(articles=[_summary(row, {}) for row in rows])


async def list_help_articles(*, session: AsyncSession, actor: Principal, page: int = 1) -> HelpAdminRead:
    """Editors: every article, drafts included, newest change first, with its votes; MAX_PAGE a page."""
    await require_editor(session, actor)
    page = max(1, min(int(page), 1_000))
    rows = (
        await session.scalars(
            select(HelpArticle)
            .order_by(HelpArticle.updated_at.desc(), HelpArticle.id)
            .offset((page - 1) * MAX_PAGE)
            .limit(MAX_PAGE + 1)
        )
    ).all()
    shown = rows[:MAX_PAGE]
    counts = await vote_counts(session, [row.id for row in shown])
    return HelpAdminRead(
        articles=[_summary(row, counts) for row in shown], page=page, has_more=len(rows) > MAX_PAGE
    )


async def get_help_article(*, session: AsyncSession, actor: Principal, slug: str) -> HelpArticleRead:
    """One article: published for anyone, a draft only for an editor (anyone else: NotFound)."""
    editor = await can_edit_help_center(session=session, actor=actor)
    row = await session.scalar(select(HelpArticle).where(HelpArticle.slug == (slug or "")[:MAX_SLUG]))
    if row is None or (row.status != HelpStatus.published and not editor):
        raise NotFound(NOT_FOUND)
    counts = await vote_counts(session, [row.id])
    voter = voter_key(actor)
    mine = (
        await session.scalar(
            select(HelpVote.helpful).where(HelpVote.article_id == row.id, HelpVote.voter == voter)
        )
        if voter
        else None
    )
    return HelpArticleRead(
        **_summary(row, counts).model_dump(),
        body=row.body if editor else "",
        body_html=render_markdown(row.body),
        can_edit=editor,
        my_vote=mine,
    )


def _checked(data: HelpArticleWrite) -> dict[str, object]:
    title, summary, body = one_line(data.title), one_line(data.summary), data.body.strip()
    category = data.category.strip().lower()
    for problem, broken in (
        (TITLE_NEEDED, not title),
        (TITLE_TOO_LONG, len(title) > MAX_TITLE),
        (SUMMARY_TOO_LONG, len(summary) > MAX_SUMMARY),
        (CATEGORY_NEEDED, category not in HelpCategory.__members__),
        (BODY_NEEDED, not body),
        (BODY_TOO_LONG, len(body) > MAX_BODY),
    ):
        if broken:
            raise ValidationFailed(problem)
    return {
        "title": title,
        "summary": summary,
        "category": HelpCategory(category),
        "body": body,
        "status": HelpStatus.published if data.published else HelpStatus.draft,
    }


async def save_help_article(
    *, session: AsyncSession, actor: Principal, data: HelpArticleWrite, slug: str | None = None
) -> HelpArticleRead:
    """Editors: create an article (`slug` None; its slug comes from the title) or change one, as a draft
    or published (`data.published`). Audited with the fields changed."""
    account = await require_editor(session, actor)
    values = _checked(data)
    creating = slug is None
    row, changed = await write_article_row(
        session,
        HelpArticle,
        group="category",
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
        action=AuditAction.help_article_edit,
        target=f"help article {row.slug}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"title": row.title, "fields": changed, "created": creating, "status": row.status.value},
    )
    return await get_help_article(session=session, actor=actor, slug=row.slug)


async def delete_help_article(*, session: AsyncSession, actor: Principal, slug: str) -> None:
    """Editors: remove an article and its votes (audited)."""
    account = await require_editor(session, actor)
    row = await session.scalar(select(HelpArticle).where(HelpArticle.slug == (slug or "")[:MAX_SLUG]))
    if row is None:
        raise NotFound(NOT_FOUND)
    await session.execute(
        delete(HelpVote).where(HelpVote.article_id == row.id).execution_options(synchronize_session=False)
    )
    await session.delete(row)
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=AuditAction.help_article_delete,
        target=f"help article {row.slug}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"title": row.title},
    )
