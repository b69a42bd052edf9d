"""Start a forum topic (/forum/new, optionally ?category=<slug>, issue 16): a category, a title and the
opening post with Write and Preview tabs. Published at once for a trusted member (the page then opens the
topic); a new member's first topics, and any post the red-flag detector stops, wait for a moderator: the
page says so, and shows the emergency message (911 / 988) for a red flag. Needs an account; the forum's
rules (posting paused, a silence) are the service's."""

from __future__ import annotations

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import navigate, use_search_params

from app.auth.web import with_redirect
from app.flags import forum_posting_open
from app.services.forum import list_forum_categories, start_topic
from components.context import use_session
from components.forms import use_form
from components.forum_ui import WAITING_FOR_REVIEW, medical_notice
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    Field,
    QueryView,
    Select,
    ServerForm,
    button_link,
    button_row,
    form_error,
    notice,
    public_page,
    section,
)
from components.markdown_body import markdown_body
from components.safety_ui import emergency_banner
from models.forum import MAX_BODY, MAX_TITLE, ForumCategoryRead, ForumPostOutcome, ForumTopicWrite, PostStatus

PATH = "/forum/new"


@component
def ForumNewTopicPage() -> VdomDict:
    session = use_session()
    category = (use_search_params().get("category") or [""])[0][:80]
    categories = use_query(list_forum_categories)
    signed_in = session.user is not None
    return public_page(
        "Start a topic",
        section(
            medical_notice(),
            ""
            if forum_posting_open()
            else notice("Posting is paused for now. You can still read every discussion.", tone="warning"),
            QueryView(
                categories,
                lambda found: _NewTopic(found, category),
                loading_label="Loading the categories…",
                is_empty=lambda _found: False,
            )
            if signed_in
            else html.p(
                {"class_name": "forum-signin"},
                html.a({"href": with_redirect("/login", PATH)}, "Sign in"),
                " or ",
                html.a({"href": with_redirect("/register", PATH)}, "create an account"),
                " to start a topic. Everyone can read the forum.",
            ),
        ),
        lead="Ask a question or share an experience of care at home. Keep personal details out of it.",
        eyebrow="Community Forum",
    )


@component
def _NewTopic(categories: list[ForumCategoryRead], category: str) -> VdomDict | Component:
    known = {c.slug for c in categories}
    form = use_form(
        draft="forum-topic:new", category=category if category in known else "", title="", body=""
    )
    tab, set_tab = use_state("write")
    problem, set_problem = use_state("")
    outcome_state: State[ForumPostOutcome | None] = use_state(None)
    outcome, set_outcome = outcome_state

    def sent(result: ForumPostOutcome) -> None:
        form.discard_draft()
        set_outcome(result)

    action = use_action(start_topic, on_success=sent, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        await action.run(
            data=ForumTopicWrite(
                **{k: str(form.values.get(k, "") or "") for k in ("category", "title", "body")}
            ),
        )

    if outcome is not None and outcome.status == PostStatus.published:
        return navigate(outcome.href)
    if outcome is not None:
        return html.div(
            {"class_name": "forum-sent"},
            emergency_banner(outcome.emergency_message) if outcome.emergency_message else "",
            html.div({"role": "status"}, notice(WAITING_FOR_REVIEW, tone="warning")),
            html.div(
                {"class_name": "button-row spaced-row"},
                button_link("View your topic", outcome.href, icon_name="arrow-right"),
                button_link("Back to the forum", "/forum", variant="outline"),
            ),
        )
    return ServerForm(
        form_error(problem),
        Select(
            "Category",
            "category",
            form=form,
            id="forum-category",
            options=[(c.slug, c.name) for c in categories],
            placeholder="Choose a category",
            required=True,
        ),
        Field(
            "Title",
            "title",
            form=form,
            id="forum-title",
            required=True,
            max_length=MAX_TITLE,
            hint="A short question or summary, e.g. “How long should I fast before a home blood draw?”",
        ),
        markdown_body(form, tab, set_tab, id="forum-topic", max_length=MAX_BODY, label="Post text", rows=8),
        button_row(
            Button("Post topic", type="submit", icon="message", pending=action.pending),
            button_link("Cancel", "/forum", variant="ghost"),
        ),
        on_submit=submit,
        id="forum-topic-form",
        class_name="forum-new",
    )
