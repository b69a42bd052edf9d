"""Help Center articles (/staff/help-center, issue 16): the public Help Center's articles, drafts included,
newest change first, with their 'Was this helpful?' counts. Owners and HR (the sidebar shows the section to
them; app/services/help_center also lets admins and master admins write) add and edit articles in a dialog
with a Markdown preview rendered by the same code as the public page, publish or keep them as drafts, and
delete them. A draft is seen only here and by editors on its public address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.help_center import (
    delete_help_article,
    get_help_article,
    list_help_articles,
    save_help_article,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Checkbox,
    Column,
    DataTable,
    Dialog,
    Field,
    NewerOlderLinks,
    QueryView,
    Select,
    ServerForm,
    button_link,
    button_row,
    dialog_actions,
    form_error,
    item_title,
    page_param,
    staff_screen,
)
from components.markdown_body import markdown_body
from components.staff_frame import StaffFrame, StaffSection
from models.help_center import (
    CATEGORY_LABELS,
    MAX_BODY,
    MAX_PAGE,
    MAX_SUMMARY,
    MAX_TITLE,
    HelpAdminRead,
    HelpArticleRead,
    HelpArticleSummaryRead,
    HelpArticleWrite,
    HelpStatus,
)

PATH = "/staff/help-center"
LEAD = "The answers patients and providers read at /help-center. Drafts stay here until you publish them."
_CATEGORIES = [(category.value, label) for category, label in CATEGORY_LABELS.items()]


def public_href(slug: str) -> str:
    return f"/help-center/{quote(slug)}"


@component
def HelpCenterAdminPage() -> Component:
    return StaffFrame(StaffSection(_Articles, slug="help-center"), active="help-center")


@component
def _Articles() -> VdomDict:
    page = page_param(use_search_params(), last=1_000)
    query = use_query(list_help_articles, page=page)
    editing_state: State[str | None] = use_state(
        None
    )  # None: closed; "": a new article; else the slug edited
    editing, set_editing = editing_state
    deleting_state: State[HelpArticleSummaryRead | None] = use_state(None)
    deleting, set_deleting = deleting_state
    return staff_screen(
        "Help Center",
        QueryView(
            query,
            lambda found: _table(found, set_editing, set_deleting),
            loading_label="Loading the articles…",
            is_empty=lambda _found: False,
        ),
        lead=LEAD,
        header=(
            button_row(
                button_link("View the Help Center", "/help-center", variant="outline"),
                Button("New article", icon="plus", on_click=lambda: set_editing("")),
            ),
        ),
        after=(
            _Editor(editing or None, on_close=lambda: set_editing(None), query=query, key=editing or "new")
            if editing is not None
            else "",
            _Delete(deleting, on_close=lambda: set_deleting(None), query=query) if deleting else "",
        ),
    )


def _table(found: HelpAdminRead, edit: Callable[[str], None], delete: Callable[[Any], None]) -> VdomDict:
    columns = [
        Column(
            "title",
            "Article",
            render=lambda a: item_title(
                a.title, a.summary or None, href=public_href(a.slug), detail_class="help-admin-summary"
            ),
        ),
        Column("category", "Category", render=lambda a: CATEGORY_LABELS[a.category]),
        Column(
            "status",
            "Status",
            render=lambda a: (
                Badge("Published", tone="success")
                if a.status == HelpStatus.published
                else Badge("Draft", tone="warning")
            ),
        ),
        Column("helpful_yes", "Helpful: yes", numeric=True, render=lambda a: str(a.helpful_yes)),
        Column("helpful_no", "Helpful: no", numeric=True, render=lambda a: str(a.helpful_no)),
        Column(
            "updated_at",
            "Updated",
            render=lambda a: format_date(a.updated_at),
            class_name="help-admin-nowrap",
        ),
        Column(
            "actions",
            "Actions",
            render=lambda a: html.div(
                {"class_name": "button-row help-admin-actions"},
                Button(
                    "Edit",
                    size="sm",
                    variant="outline",
                    aria_label=f"Edit “{a.title}”",
                    on_click=lambda: edit(a.slug),
                ),
                Button(
                    "Delete",
                    size="sm",
                    variant="ghost",
                    aria_label=f"Delete “{a.title}”",
                    on_click=lambda: delete(a),
                ),
            ),
        ),
    ]
    pager = NewerOlderLinks(
        found.page, found.has_more, href=lambda n: f"{PATH}?page={n}", label="Pages of articles"
    )
    return html.div(
        {"class_name": "staff-card"},
        DataTable(
            columns,
            found.articles,
            caption="Help Center articles",
            page_size=MAX_PAGE,
            row_key=lambda a: a.slug,
            empty="No articles yet. Write the first one with New article.",
        ),
        pager,
    )


@component
def _Delete(article: HelpArticleSummaryRead, on_close: Callable[[], None], query: Query) -> VdomDict:
    session = use_session()

    def deleted(_result: Any) -> None:
        session.toaster.success("Article deleted", article.title)
        on_close()

    remove = use_action(delete_help_article, refetch=[query], on_success=deleted)
    return Dialog(
        "Delete this article?",
        dialog_actions(
            Button("Cancel", variant="ghost", on_click=on_close),
            Button(
                "Delete article",
                variant="danger",
                pending=remove.pending,
                on_click=lambda: remove.run(slug=article.slug),
            ),
        ),
        open=True,
        on_close=on_close,
        description=f"“{article.title}” will be removed from the Help Center with its votes. This cannot be undone.",
        id="help-delete",
        busy=remove.pending,
    )


@component
def _Editor(slug: str | None, on_close: Callable[[], None], query: Query) -> Any:
    """An existing article is loaded first (the list carries no text); a new one starts empty."""
    if slug is None:
        return _EditorForm(None, on_close, query)
    loaded = use_query(get_help_article, slug=slug)
    if loaded.data is None:
        return Dialog(
            "Edit article",
            html.p(
                {"role": "alert"} if loaded.error else {"role": "status"},
                loaded.error or "Loading the article…",
            ),
            open=True,
            on_close=on_close,
            id="help-dialog",
        )
    return _EditorForm(loaded.data, on_close, query)


@component
def _EditorForm(article: HelpArticleRead | None, on_close: Callable[[], None], query: Query) -> VdomDict:
    session = use_session()
    form = use_form(
        draft=f"help-center:{article.slug if article else 'new'}",
        title=article.title if article else "",
        category=article.category.value if article else "",
        summary=article.summary if article else "",
        body=article.body if article else "",
        published=article.status == HelpStatus.published if article else False,
    )
    tab, set_tab = use_state("write")
    problem, set_problem = use_state("")

    def saved(result: HelpArticleRead) -> None:
        form.discard_draft()
        state = "published" if result.status == HelpStatus.published else "saved as a draft"
        session.toaster.success(f"Article {state}", result.title)
        on_close()

    action = use_action(save_help_article, refetch=[query], on_success=saved, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        await action.run(
            slug=article.slug if article else None,
            data=HelpArticleWrite(
                **{k: str(form.values.get(k, "") or "") for k in ("title", "category", "summary", "body")},
                published=bool(form.values.get("published")),
            ),
        )

    return Dialog(
        "Edit article" if article else "New article",
        ServerForm(
            form_error(problem),
            Field("Title", "title", form=form, id="help-title", required=True, max_length=MAX_TITLE),
            Select(
                "Category",
                "category",
                form=form,
                id="help-category",
                options=_CATEGORIES,
                placeholder="Choose a category",
                required=True,
            ),
            Field(
                "Summary",
                "summary",
                form=form,
                id="help-summary",
                max_length=MAX_SUMMARY,
                hint="One sentence, shown under the title in the list and the search results.",
            ),
            markdown_body(form, tab, set_tab, id="help", max_length=MAX_BODY),
            Checkbox(
                "Published",
                "published",
                form=form,
                id="help-published",
                hint="Unticked, the article is a draft: only editors can see it.",
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Save article", type="submit", pending=action.pending),
            ),
            on_submit=submit,
            id="help-form",
            class_name="handbook-editor",
        ),
        open=True,
        on_close=on_close,
        description="Markdown: ## for headings, **bold**, - for lists, [text](/help-center) for links.",
        id="help-dialog",
        busy=action.pending,
        class_name="dialog-wide",
    )
