"""Documentation (/staff/documentation; issue 15 item 5): the staff handbook. Every staff member reads the
articles, grouped by topic, and searches them (`?q=` in the URL); an article has its own address
(/staff/documentation/<slug>). Owners and admins add, edit (with a preview) and delete articles in a dialog;
app/services/handbook checks who may, renders the Markdown and sanitises it, so this screen inserts the
HTML it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import Any
from urllib.parse import quote

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_params, use_search_params

from app.services.handbook import delete_article, get_article, list_articles, save_article
from components.browser import follow
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Button,
    Dialog,
    Field,
    QueryView,
    ServerForm,
    button_row,
    dialog_actions,
    filter_form,
    form_error,
    item_title,
    staff_screen,
)
from components.markdown_body import markdown_body
from components.staff_frame import StaffFrame, StaffSection
from models.handbook import (
    MAX_BODY,
    MAX_QUERY,
    MAX_SUMMARY,
    MAX_TITLE,
    ArticleRead,
    ArticleSummaryRead,
    ArticleWrite,
    HandbookRead,
)

PATH = "/staff/documentation"
LEAD = "How we run MediVisit: one article per task, written by the team."


def article_href(slug: str) -> str:
    return f"{PATH}/{quote(slug)}"


# ---- the list ------------------------------------------------------------------------------------------
@component
def DocumentationPage() -> Component:
    return StaffFrame(StaffSection(_Handbook, slug="documentation"), active="documentation")


@component
def _Handbook() -> VdomDict:
    search = ((use_search_params().get("q") or [""])[0])[:MAX_QUERY]
    query = use_query(list_articles, query=search)
    writing, set_writing = use_state(False)
    can_edit = bool(query.data and query.data.can_edit)
    return staff_screen(
        "Documentation",
        _SearchForm(search, key=search),
        QueryView(query, _article_list, loading_label="Loading the handbook…", is_empty=lambda _h: False),
        lead=LEAD,
        header=(
            button_row(Button("New article", icon="plus", on_click=lambda: set_writing(True)))
            if can_edit
            else "",
        ),
        body_class="handbook",
        after=(_Editor(None, on_close=lambda: set_writing(False)) if writing else "",),
    )


@component
def _SearchForm(search: str) -> VdomDict:
    form = use_form(q=search)
    return filter_form(
        Field(
            "Search the handbook",
            "q",
            form=form,
            id="handbook-search",
            type="search",
            max_length=MAX_QUERY,
            placeholder="e.g. refunds, payouts, due times",
        ),
        action=PATH,
        label="Handbook search",
        class_name="form handbook-search",
        clear_href=PATH if search else None,
    )


def _article_list(handbook: HandbookRead) -> VdomDict:
    if not handbook.articles:
        return html.div(
            {"class_name": "staff-card empty-state", "role": "status"},
            html.p(
                f"No article mentions “{handbook.query}”. Try another word, or ask your manager."
                if handbook.query
                else "The handbook is empty."
            ),
        )
    count = len(handbook.articles)
    found = (
        html.p(
            {"class_name": "text-muted", "role": "status"},
            f"1 article mentions “{handbook.query}”."
            if count == 1
            else f"{count} articles mention “{handbook.query}”.",
        )
        if handbook.query
        else ""
    )
    return html.div(
        {"class_name": "handbook-topics"},
        found,
        *(
            html.section(
                {"key": topic, "class_name": "staff-card handbook-topic", "aria-label": topic},
                html.h2({"class_name": "handbook-topic-title"}, topic),
                html.ul(
                    {"class_name": "handbook-articles"},
                    *(_article_item(article) for article in articles),
                ),
            )
            for topic, articles in groupby(handbook.articles, key=lambda a: a.topic)
        ),
    )


def _article_item(article: ArticleSummaryRead) -> VdomDict:
    return item_title(
        article.title, article.summary or None, href=article_href(article.slug), tag="li", key=article.slug
    )


# ---- one article ---------------------------------------------------------------------------------------
@component
def ArticlePage() -> Component:
    return StaffFrame(StaffSection(_Article, slug="documentation"), active="documentation")


@component
def _Article() -> VdomDict:
    slug = use_params().get("slug", "")[:80]
    query = use_query(get_article, slug=slug)
    return QueryView(
        query, lambda article: _ArticleView(article, query), loading_label="Loading the article…"
    )


@component
def _ArticleView(article: ArticleRead, query: Query) -> VdomDict:
    session = use_session()
    editing, set_editing = use_state(False)
    deleting, set_deleting = use_state(False)
    gone, set_gone = use_state(False)

    def deleted(_result: Any) -> None:
        session.toaster.success("Article deleted", article.title)
        set_gone(True)

    remove = use_action(delete_article, on_success=deleted)
    if gone:
        return follow(PATH)
    written = (
        f"Updated {format_date(article.updated_at)} by {article.updated_by_name}"
        if article.updated_by_name
        else f"Updated {format_date(article.updated_at)}"
    )
    return staff_screen(
        article.title,
        html.article(
            {
                "class_name": "staff-card handbook-article prose",
                "aria-label": article.title,
                "dangerouslySetInnerHTML": {"__html": article.body_html},
            }
        ),
        html.p(html.a({"href": PATH}, "← All articles")),
        lead=article.summary or None,
        eyebrow=html.a({"href": PATH}, "Documentation"),
        header=(
            html.p({"class_name": "handbook-meta"}, f"{article.topic} · {written}"),
            button_row(
                Button("Edit", icon="edit", variant="outline", on_click=lambda: set_editing(True)),
                Button("Delete", variant="ghost", on_click=lambda: set_deleting(True)),
            )
            if article.can_edit
            else "",
        ),
        after=(
            _Editor(article, on_close=lambda: set_editing(False), query=query) if editing else "",
            Dialog(
                "Delete this article?",
                dialog_actions(
                    Button("Cancel", variant="ghost", on_click=lambda: set_deleting(False)),
                    Button(
                        "Delete article",
                        variant="danger",
                        pending=remove.pending,
                        on_click=lambda: remove.run(slug=article.slug),
                    ),
                ),
                open=deleting,
                on_close=lambda: set_deleting(False),
                description=f"“{article.title}” will be removed for the whole team. This cannot be undone.",
                id="handbook-delete",
                busy=remove.pending,
            ),
        ),
    )


# ---- writing -------------------------------------------------------------------------------------------
@component
def _Editor(article: ArticleRead | None, on_close: Callable[[], None], query: Query | None = None) -> Any:
    """The article's form: Write and Preview tabs, the preview rendered by the same code as the article."""
    session = use_session()
    form = use_form(
        draft=f"handbook:{article.slug if article else 'new'}",
        title=article.title if article else "",
        topic=article.topic if article else "",
        summary=article.summary if article else "",
        body=article.body if article else "",
    )
    tab, set_tab = use_state("write")
    problem, set_problem = use_state("")
    saved_slug, set_saved_slug = use_state("")

    def saved(result: ArticleRead) -> None:
        form.discard_draft()
        session.toaster.success("Article saved", result.title)
        if article is None:
            set_saved_slug(result.slug)
        else:
            on_close()

    action = use_action(
        save_article, refetch=[query] if query else [], on_success=saved, on_error=set_problem
    )
    if saved_slug:
        return follow(article_href(saved_slug))

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        await action.run(
            slug=article.slug if article else None,
            data=ArticleWrite(
                **{k: str(form.values.get(k, "")) for k in ("title", "topic", "summary", "body")}
            ),
        )

    title = "Edit article" if article else "New article"
    return Dialog(
        title,
        ServerForm(
            form_error(problem),
            Field("Title", "title", form=form, id="handbook-title", required=True, max_length=MAX_TITLE),
            Field(
                "Topic",
                "topic",
                form=form,
                id="handbook-topic",
                max_length=60,
                hint="The staff section it is about, e.g. Help Desk. Articles are grouped by topic.",
            ),
            Field("Summary", "summary", form=form, id="handbook-summary", max_length=MAX_SUMMARY),
            markdown_body(form, tab, set_tab, id="handbook", max_length=MAX_BODY),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Save article", type="submit", pending=action.pending),
            ),
            on_submit=submit,
            id="handbook-form",
            class_name="handbook-editor",
        ),
        open=True,
        on_close=on_close,
        description="Markdown: ## for headings, **bold**, - for lists, [text](https://…) for links.",
        id="handbook-dialog",
        busy=action.pending,
        class_name="dialog-wide",
    )
