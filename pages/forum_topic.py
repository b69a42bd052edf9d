"""One forum topic (/forum/t/<id>/<slug>, issue 16): its posts in order, 20 a page (the page in the URL),
each with its author (and the "Verified provider" badge), likes, a quote button and a flag dialog; the
topic's author marks the accepted answer; members bookmark, watch or mute the topic; the reply box has
Write and Preview tabs (the same Markdown renderer as the posts). Every topic carries the not-medical-advice
notice; a reply the red-flag detector stops shows its author the emergency message and waits for review,
as does a new member's. Reading is public; everything else needs sign-in (checked by app/services/forum)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import navigate, use_params, use_search_params

from app.auth.web import with_redirect
from app.services.forum import (
    accept_answer,
    bookmark_topic,
    flag_post,
    get_topic,
    like_post,
    moderate_post,
    reply_to_topic,
    watch_topic,
)
from components.context import use_session
from components.format import format_date
from components.forms import Form, use_form
from components.forum_ui import WAITING_FOR_REVIEW, author_line, medical_notice, when
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Dialog,
    PageLinks,
    QueryView,
    Region,
    Select,
    ServerForm,
    TextArea,
    UserText,
    back_link,
    button_link,
    button_row,
    detail_header,
    dialog_actions,
    form_error,
    notice,
    page_param,
    page_title,
)
from components.markdown_body import markdown_body
from components.safety_ui import emergency_banner
from models.forum import (
    FLAG_LABELS,
    MAX_BODY,
    MAX_NOTE,
    POSTS_PAGE,
    ForumPostOutcome,
    ForumPostRead,
    ForumTopicRead,
    PostStatus,
    WatchLevel,
)

FORUM = "/forum"


@component
def ForumTopicPage() -> VdomDict:
    topic_id = use_params().get("topic_id", "")[:36]
    page = page_param(use_search_params(), last=1_000)
    query = use_query(get_topic, topic_id=topic_id, page=page)
    return html.div(
        {"class_name": "forum-topic-page"},
        QueryView(
            query,
            lambda found: _TopicView(found, query, key=found.topic.id),
            loading_label="Loading the topic…",
        ),
    )


def _href(found: ForumTopicRead, page: int = 1) -> str:
    return found.topic.href + (f"?page={page}" if page > 1 else "")


@component
def _TopicView(found: ForumTopicRead, query: Query) -> VdomDict:
    topic = found.topic
    form = use_form(draft=f"forum-reply:{topic.id}" if found.signed_in else None, body="")
    quoting, set_quoting = use_state("")

    def quote_post(post: ForumPostRead) -> None:
        quoted = "\n".join(f"> {line}" for line in post.body.splitlines())
        text = str(form.values.get("body", "") or "").rstrip()
        before = f"{text}\n\n" if text else ""
        form.reset(body=f"{before}> **{post.author.name}** wrote:\n{quoted}\n\n")
        set_quoting(post.id)

    return html._(
        page_title(f"{topic.title} · Community Forum"),
        detail_header(
            UserText(topic.title, tag="h1"),
            html.div(
                {"class_name": "forum-topic-meta"},
                author_line(topic.author, " · started ", when(topic.created_at)),
                Badge("Answered", tone="success", icon="check") if topic.answered else "",
            ),
            trail=(
                ("Community Forum", FORUM),
                (topic.category_name, f"{FORUM}/c/{quote(topic.category_slug)}"),
            ),
            class_name="forum-topic-header",
        ),
        html.div(
            {"class_name": "container forum-topic-body"},
            medical_notice(),
            _Controls(found, query) if found.signed_in else "",
            html.ol(
                {"class_name": "forum-posts", "aria-label": "Posts"},
                *(_Post(post, found, query, quote_post, key=post.id) for post in found.posts),
            ),
            PageLinks(
                found.page, found.total, POSTS_PAGE, href=lambda n: _href(found, n), label="Pages of posts"
            ),
            _ReplyBox(found, query, form, quoting, set_quoting),
            back_link("All topics", FORUM),
        ),
    )


@component
def _Controls(found: ForumTopicRead, query: Query) -> VdomDict:
    bookmark = use_action(bookmark_topic, refetch=[query])
    watch = use_action(watch_topic, refetch=[query])
    topic_id = found.topic.id
    watching, muted = found.watch == WatchLevel.watching, found.watch == WatchLevel.muted
    return html.div(
        {"class_name": "forum-controls", "role": "group", "aria-label": "This topic"},
        Button(
            "Bookmarked" if found.bookmarked else "Bookmark",
            icon="star",
            size="sm",
            variant="primary" if found.bookmarked else "outline",
            aria_label="Remove the bookmark" if found.bookmarked else "Bookmark this topic",
            pending=bookmark.pending,
            on_click=lambda: bookmark.run(topic_id=topic_id, bookmarked=not found.bookmarked),
        ),
        Button(
            "Stop watching" if watching else "Watch",
            icon="bell",
            size="sm",
            variant="outline",
            pending=watch.pending,
            on_click=lambda: watch.run(topic_id=topic_id, level="" if watching else "watching"),
        ),
        Button(
            "Unmute" if muted else "Mute",
            icon="x",
            size="sm",
            variant="ghost",
            pending=watch.pending,
            on_click=lambda: watch.run(topic_id=topic_id, level="" if muted else "muted"),
        ),
        html.span(
            {"class_name": "text-muted forum-watch-state", "role": "status"},
            "You're watching: you get a notification for every reply."
            if watching
            else "Muted: you won't get notifications from this topic."
            if muted
            else "",
        ),
    )


def _status_note(post: ForumPostRead) -> Any:
    if post.status == PostStatus.pending:
        return html._(
            emergency_banner(post.emergency_message) if post.emergency_message else "",
            notice(WAITING_FOR_REVIEW, tone="warning"),
        )
    if post.status == PostStatus.hidden:
        return notice(
            "Hidden by the moderators" + (f": {post.moderation_reason}" if post.moderation_reason else "."),
            tone="warning",
        )
    if post.status == PostStatus.rejected:
        return notice(
            "Not published by the moderators"
            + (f": {post.moderation_reason}" if post.moderation_reason else "."),
            tone="warning",
        )
    return ""


@component
def _Post(
    post: ForumPostRead, found: ForumTopicRead, query: Query, on_quote: Callable[[ForumPostRead], None]
) -> VdomDict:
    flagging, set_flagging = use_state(False)
    moderating, set_moderating = use_state("")  # "hide" or "unhide" while its dialog is open
    like = use_action(like_post, refetch=[query])
    accept = use_action(accept_answer, refetch=[query])
    published = post.status == PostStatus.published
    can_act = found.signed_in and found.posting_open and published
    likes = "1 like" if post.like_count == 1 else f"{post.like_count} likes"
    return html.li(
        {
            "id": f"post-{post.number}",
            "class_name": "forum-post"
            + (" is-accepted" if post.accepted else "")
            + ("" if published else " is-waiting"),
        },
        html.article(
            {"aria-labelledby": f"post-{post.number}-author"},
            html.header(
                {"class_name": "forum-post-head", "id": f"post-{post.number}-author"},
                author_line(post.author),
                html.span({"class_name": "text-muted"}, when(post.created_at), " · #", str(post.number)),
                Badge("Accepted answer", tone="success", icon="check") if post.accepted else "",
                Badge("Edited by a moderator", tone="neutral") if post.edited_at else "",
                Badge("Waiting for review", tone="warning")
                if post.status == PostStatus.pending and found.is_moderator and not post.mine
                else "",
            ),
            _status_note(post) if post.mine or found.is_moderator else "",
            html.p({"class_name": "forum-quoting text-muted"}, "Replying to ", UserText(post.quote_author))
            if post.quote_author
            else "",
            html.div(
                {"class_name": "forum-post-body prose", "dangerouslySetInnerHTML": {"__html": post.body_html}}
            ),
            html.footer(
                {"class_name": "forum-post-actions"},
                html.span({"class_name": "text-muted forum-likes"}, likes)
                if not can_act or post.mine
                else "",
                Button(
                    f"{'Liked' if post.liked else 'Like'} · {post.like_count}",
                    icon="heart",
                    size="sm",
                    variant="primary" if post.liked else "outline",
                    aria_label=f"{'Unlike' if post.liked else 'Like'} this post ({likes})",
                    pending=like.pending,
                    on_click=lambda: like.run(post_id=post.id),
                )
                if can_act and not post.mine
                else "",
                Button("Quote", icon="message", size="sm", variant="ghost", on_click=lambda: on_quote(post))
                if can_act
                else "",
                Button(
                    "Undo accepted answer" if post.accepted else "Accept as answer",
                    icon="check",
                    size="sm",
                    variant="outline",
                    pending=accept.pending,
                    on_click=lambda: accept.run(post_id=post.id),
                )
                if can_act and found.is_author and post.number > 1
                else "",
                (
                    html.span({"class_name": "text-muted"}, "You flagged this post.")
                    if post.flagged
                    else Button(
                        "Flag",
                        icon="flag",
                        size="sm",
                        variant="ghost",
                        aria_label=f"Flag post #{post.number} for the moderators",
                        on_click=lambda: set_flagging(True),
                    )
                )
                if can_act and not post.mine
                else "",
                _moderator_button(post, set_moderating) if found.is_moderator else "",
            ),
        ),
        _FlagDialog(post, query, on_close=lambda: set_flagging(False)) if flagging else "",
        _HideDialog(post, moderating, query, on_close=lambda: set_moderating(""), key=moderating)
        if moderating
        else "",
    )


def _moderator_button(post: ForumPostRead, open_dialog: Callable[[str], None]) -> Any:
    """Moderators hide a published post or unhide a hidden one here; waiting posts are for the queue."""
    if post.status == PostStatus.published:
        return Button(
            "Hide",
            icon="lock",
            size="sm",
            variant="ghost",
            aria_label=f"Hide post #{post.number} (moderator)",
            on_click=lambda: open_dialog("hide"),
        )
    if post.status == PostStatus.hidden and post.waiting_reason is None:
        return Button("Unhide", size="sm", variant="outline", on_click=lambda: open_dialog("unhide"))
    if post.waiting_reason is not None:
        return button_link("Review in the queue", "/staff/moderation", variant="ghost", size="sm")
    return ""


@component
def _HideDialog(post: ForumPostRead, action: str, query: Query, on_close: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(reason="")
    problem, set_problem = use_state("")
    hiding = action == "hide"

    def done(_result: Any) -> None:
        session.toaster.success(
            "Post hidden" if hiding else "Post visible again", "Written to the moderation log."
        )
        on_close()

    run = use_action(moderate_post, refetch=[query], on_success=done, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        await run.run(
            post_id=post.id,
            action=action,
            reason=str(form.values.get("reason", "") or ""),
        )

    return Dialog(
        "Hide this post" if hiding else "Unhide this post",
        ServerForm(
            form_error(problem),
            TextArea(
                "Reason" if hiding else "Reason (optional)",
                "reason",
                form=form,
                id="forum-hide-reason",
                rows=3,
                required=hiding,
                max_length=MAX_NOTE,
                hint="The member is told this reason." if hiding else "Kept in the moderation log.",
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button(
                    "Hide" if hiding else "Unhide",
                    type="submit",
                    variant="danger" if hiding else "primary",
                    pending=run.pending,
                ),
            ),
            on_submit=submit,
            id="forum-hide-form",
        ),
        open=True,
        on_close=on_close,
        description=f"Post #{post.number} by {post.author.name}",
        id="forum-hide",
        busy=run.pending,
    )


@component
def _FlagDialog(post: ForumPostRead, query: Query, on_close: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(reason="", note="")
    problem, set_problem = use_state("")

    def done(_count: int) -> None:
        session.toaster.success("Thanks for flagging", "The moderators will review this post.")
        on_close()

    action = use_action(flag_post, refetch=[query], on_success=done, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        reason = str(form.values.get("reason", "") or "")
        if not reason:
            set_problem("Choose why you are flagging this post.")
            return
        await action.run(post_id=post.id, reason=reason, note=str(form.values.get("note", "") or ""))

    return Dialog(
        "Flag this post",
        ServerForm(
            form_error(problem),
            Select(
                "Why are you flagging it?",
                "reason",
                form=form,
                id="forum-flag-reason",
                options=[(reason.value, label) for reason, label in FLAG_LABELS.items()],
                placeholder="Choose a reason",
                required=True,
            ),
            TextArea(
                "Note for the moderators (optional)",
                "note",
                form=form,
                id="forum-flag-note",
                rows=3,
                max_length=MAX_NOTE,
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Flag post", type="submit", icon="flag", pending=action.pending),
            ),
            on_submit=submit,
            id="forum-flag-form",
        ),
        open=True,
        on_close=on_close,
        description="Moderators review flagged posts. A post flagged by several members is hidden until they do.",
        id="forum-flag",
        busy=action.pending,
    )


@component
def _ReplyBox(
    found: ForumTopicRead, query: Query, form: Form, quoting: str, set_quoting: Callable[[str], None]
) -> VdomDict | Component:
    session = use_session()
    tab, set_tab = use_state("write")
    problem, set_problem = use_state("")
    outcome_state: State[ForumPostOutcome | None] = use_state(None)
    outcome, set_outcome = outcome_state
    go, set_go = use_state("")
    topic = found.topic

    def sent(result: ForumPostOutcome) -> None:
        form.discard_draft()
        form.reset(body="")
        set_quoting("")
        set_tab("write")
        if result.status == PostStatus.published:
            session.toaster.success("Reply posted")
            last = -(-(found.total + 1) // POSTS_PAGE)
            if last != found.page:
                set_go(_href(found, last) + "#reply")
        set_outcome(result)

    action = use_action(reply_to_topic, refetch=[query], on_success=sent, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        set_outcome(None)
        await action.run(
            topic_id=topic.id,
            body=str(form.values.get("body", "") or ""),
            quote_of=quoting or None,
        )

    if go:
        return navigate(go)
    if not found.signed_in:
        return html.section(
            {"class_name": "forum-reply", "aria-label": "Reply"},
            html.p(
                html.a({"href": with_redirect("/login", topic.href)}, "Sign in"),
                " or ",
                html.a({"href": with_redirect("/register", topic.href)}, "create an account"),
                " to reply.",
            ),
        )
    if not found.posting_open:
        return notice("Posting is paused for now. You can still read every discussion.", tone="warning")
    if found.silenced_until is not None:
        return notice(
            f"A moderator has paused your posting until {format_date(found.silenced_until)}. You can still "
            "read every discussion.",
            tone="warning",
        )
    if topic.status != PostStatus.published:
        return notice("Replies open once a moderator publishes this topic.")

    waiting = outcome if outcome is not None and outcome.status == PostStatus.pending else None
    return Region(
        "Your reply",
        emergency_banner(waiting.emergency_message) if waiting and waiting.emergency_message else "",
        html.div({"role": "status"}, notice(WAITING_FOR_REVIEW, tone="warning") if waiting else ""),
        ServerForm(
            form_error(problem),
            markdown_body(
                form, tab, set_tab, id="forum-reply", max_length=MAX_BODY, label="Reply text", rows=6
            ),
            button_row(
                Button("Post reply", type="submit", icon="message", pending=action.pending),
                Button("Stop quoting", variant="ghost", on_click=lambda: set_quoting("")) if quoting else "",
            ),
            on_submit=submit,
            id="forum-reply-form",
        ),
        title_id="reply-title",
        class_name="forum-reply",
        title_class="forum-heading",
        id="reply",
    )
