"""Content Moderation (/staff/moderation, moderate_content; issue 16): the forum's review queue (a new
member's first posts, posts the red-flag detector stopped, posts hidden by members' flags; oldest first),
the hidden posts, the silenced members and the moderators' log, as tabs in the URL. Each post shows its
topic, author (posts approved so far, a silence), why it waits, its flags by reason with their notes and its
text; moderators approve, reject, edit, hide or unhide it and silence its author for some days, each with a
reason (required to reject, hide or silence: the member is told). app/services/forum checks the permission
on every call and writes the log and the audit entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.forum import (
    list_forum_silences,
    moderate_post,
    moderation_log,
    moderation_queue,
    silence_member,
    unsilence_member,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.forum_ui import REVIEW_LABELS, author_line, flag_summary
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Column,
    DataTable,
    Dialog,
    Field,
    ListQuery,
    PagedItems,
    QueryView,
    ServerForm,
    StatusTabs,
    TextArea,
    UserText,
    choice_param,
    dialog_actions,
    form_error,
    page_param,
    param_href,
    staff_empty,
    staff_screen,
)
from components.kit.buttons import Variant
from components.staff_frame import StaffFrame, StaffSection
from models.forum import (
    ACTION_LABELS,
    LOG_PAGE,
    MAX_BODY,
    MAX_NOTE,
    MAX_SILENCE_DAYS,
    QUEUE_PAGE,
    ForumLogRead,
    ForumQueueItem,
    ForumQueueRead,
    ForumSilenceRead,
    ReviewReason,
)

PATH = "/staff/moderation"
TABS = (
    ("queue", "Review queue"),
    ("hidden", "Hidden posts"),
    ("silenced", "Silenced members"),
    ("log", "Log"),
)
LEAD = (
    "Forum posts waiting for a decision: new members' first posts, posts with a safety concern and posts "
    "members flagged. Every action is logged with its reason."
)
# (action, dialog title, button label, button variant)
ACTIONS: dict[str, tuple[str, str, Variant]] = {
    "approve": ("Approve this post", "Approve", "primary"),
    "reject": ("Reject this post", "Reject", "danger"),
    "edit": ("Edit this post", "Save changes", "primary"),
    "hide": ("Hide this post", "Hide", "danger"),
    "unhide": ("Unhide this post", "Unhide", "primary"),
    "silence": ("Silence this member", "Silence", "danger"),
}


@component
def ModerationPage() -> Component:
    return StaffFrame(StaffSection(_Moderation, slug="moderation"), active="moderation")


@component
def _Moderation() -> VdomDict:
    params = use_search_params()
    tab = choice_param(params, "tab", dict(TABS), default="queue")
    page = page_param(params, last=1_000)
    return staff_screen(
        "Content Moderation",
        StatusTabs(
            TABS,
            tab,
            _Posts(tab, page, key=f"{tab}:{page}")
            if tab in ("queue", "hidden")
            else _Silenced()
            if tab == "silenced"
            else _Log(page, key=f"log:{page}"),
            label="Moderation",
            href=param_href(PATH, params, default="queue"),
            id="moderation",
        ),
        lead=LEAD,
    )


@component
def _Posts(view: str, page: int) -> VdomDict:
    query = use_query(moderation_queue, view=view, page=page)
    acting_state: State[tuple[str, ForumQueueItem] | None] = use_state(
        None
    )  # (action, item) while a dialog is open
    acting, set_acting = acting_state
    return html._(
        QueryView(
            query,
            lambda found: _queue(found, set_acting),
            loading_label="Loading the posts…",
            is_empty=lambda _found: False,
        ),
        _ActionDialog(
            acting[0],
            acting[1],
            query,
            on_close=lambda: set_acting(None),
            key=f"{acting[0]}:{acting[1].post_id}",
        )
        if acting
        else "",
    )


def _queue(found: ForumQueueRead, act: Callable[[Any], None]) -> VdomDict:
    return PagedItems(
        found,
        html.p(
            {"class_name": "text-muted", "role": "status"},
            f"{found.total} post{'s' if found.total != 1 else ''} "
            + ("waiting for review." if found.view == "queue" else "hidden."),
        ),
        html.ol(
            {
                "class_name": "mod-items",
                "aria-label": "Posts to review" if found.view == "queue" else "Hidden posts",
            },
            *(_item(item, found.view, act) for item in found.items),
        ),
        empty=staff_empty(
            "The queue is empty: nothing waits for review."
            if found.view == "queue"
            else "No post is hidden.",
            status=True,
        ),
        href=ListQuery(PATH, {"tab": found.view}).page_href,
        label="Pages of posts",
        page_size=QUEUE_PAGE,
    )


def _why(item: ForumQueueItem) -> Any:
    if item.review_reason is None:
        return Badge("Hidden", tone="danger")
    label = REVIEW_LABELS[item.review_reason]
    if item.review_reason == ReviewReason.safety:
        return Badge(f"{label}: {item.safety_category.replace('_', ' ')}", tone="danger", icon="alert")
    return Badge(label, tone="warning" if item.review_reason == ReviewReason.flags else "info")


def _item(item: ForumQueueItem, view: str, act: Callable[[Any], None]) -> VdomDict:
    title = f"{item.topic_title} · #{item.number}"

    def button(action: str, label: str, variant: Variant = "outline") -> VdomDict:
        return Button(
            label,
            size="sm",
            variant=variant,
            aria_label=f"{label}: {title}",
            on_click=lambda: act((action, item)),
        )

    standing = (
        f" · {item.author_approved_posts} approved post{'s' if item.author_approved_posts != 1 else ''}"
    )
    return html.li(
        {"key": item.post_id, "class_name": "mod-item staff-card"},
        html.article(
            {"aria-label": title},
            html.header(
                {"class_name": "mod-item-head"},
                html.a(
                    {"href": f"/forum/t/{item.topic_id}/{item.topic_slug}", "class_name": "mod-item-title"},
                    UserText(item.topic_title),
                    f" · #{item.number}",
                ),
                _why(item),
            ),
            html.p(
                {"class_name": "mod-item-meta"},
                author_line(item.author, standing, " · posted ", format_date(item.created_at)),
                Badge(f"Silenced until {format_date(item.author_silenced_until)}", tone="danger")
                if item.author_silenced_until
                else "",
            ),
            html.p({"class_name": "mod-item-flags"}, f"Flags: {flag_summary(item.flag_reasons)}")
            if item.flag_reasons
            else "",
            html.ul(
                {"class_name": "mod-item-notes", "aria-label": "Flag notes"},
                *(html.li({"key": str(n)}, UserText(note)) for n, note in enumerate(item.flag_notes)),
            )
            if item.flag_notes
            else "",
            html.div(
                {"class_name": "mod-item-body prose", "dangerouslySetInnerHTML": {"__html": item.body_html}}
            ),
            html.div(
                {"class_name": "button-row mod-item-actions"},
                *(
                    (
                        button("approve", "Approve", "primary"),
                        button("reject", "Reject"),
                        button("edit", "Edit"),
                        button("hide", "Hide"),
                    )
                    if view == "queue"
                    else (button("unhide", "Unhide", "primary"), button("edit", "Edit"))
                ),
                button("silence", "Silence author", "ghost") if not item.author_silenced_until else "",
            ),
        ),
    )


@component
def _ActionDialog(action: str, item: ForumQueueItem, query: Query, on_close: Callable[[], None]) -> VdomDict:
    session = use_session()
    title, label, variant = ACTIONS[action]
    form = use_form(reason="", days="7", body=item.body)
    problem, set_problem = use_state("")
    required = action in ("reject", "hide", "silence")

    def done(_result: Any) -> None:
        session.toaster.success(f"{label}: done", "Written to the moderation log.")
        on_close()

    run = use_action(
        silence_member if action == "silence" else moderate_post,
        refetch=[query],
        on_success=done,
        on_error=set_problem,
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        reason = str(form.values.get("reason", "") or "")
        if required and not reason.strip():
            set_problem("Say why: the member is told the reason.")
            return
        if action == "silence":
            await run.run(
                user_id=item.author.id,
                days=str(form.values.get("days", "")),
                reason=reason,
            )
        else:
            await run.run(
                post_id=item.post_id,
                action=action,
                reason=reason,
                body=str(form.values.get("body", "") or "") if action == "edit" else None,
            )

    return Dialog(
        title,
        ServerForm(
            form_error(problem),
            Field(
                "Days",
                "days",
                form=form,
                id="mod-days",
                type="number",
                min="1",
                max=str(MAX_SILENCE_DAYS),
                required=True,
                hint=f"From 1 to {MAX_SILENCE_DAYS}. The member can still read the forum.",
            )
            if action == "silence"
            else "",
            TextArea("Post text (Markdown)", "body", form=form, id="mod-body", rows=8, max_length=MAX_BODY)
            if action == "edit"
            else "",
            TextArea(
                "Reason" if required else "Reason (optional)",
                "reason",
                form=form,
                id="mod-reason",
                rows=3,
                required=required,
                max_length=MAX_NOTE,
                hint="The member is told this reason." if required else "Kept in the moderation log.",
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button(label, type="submit", variant=variant, pending=run.pending),
            ),
            on_submit=submit,
            id="mod-action-form",
        ),
        open=True,
        on_close=on_close,
        description=f"{item.author.name} · “{item.topic_title}” #{item.number}",
        id="mod-action",
        busy=run.pending,
        class_name="dialog-wide" if action == "edit" else None,
    )


@component
def _Silenced() -> VdomDict:
    session = use_session()
    query = use_query(list_forum_silences)
    lift = use_action(
        unsilence_member, refetch=[query], on_success=lambda _r: session.toaster.success("Silence lifted")
    )

    def table(rows: list[ForumSilenceRead]) -> VdomDict:
        return DataTable(
            [
                Column("member", "Member", render=lambda r: author_line(r.member)),
                Column("until", "Silenced until", render=lambda r: format_date(r.silenced_until)),
                Column("reason", "Reason", render=lambda r: UserText(r.reason)),
                Column(
                    "actions",
                    "Actions",
                    render=lambda r: Button(
                        "Lift silence",
                        size="sm",
                        variant="outline",
                        aria_label=f"Lift the silence of {r.member.name}",
                        pending=lift.pending,
                        on_click=lambda: lift.run(user_id=r.member.id),
                    ),
                ),
            ],
            rows,
            caption="Silenced members",
            row_key=lambda r: r.member.id,
            empty="Nobody is silenced.",
        )

    return QueryView(query, table, loading_label="Loading…", is_empty=lambda _rows: False)


@component
def _Log(page: int) -> VdomDict:
    query = use_query(moderation_log, page=page)

    def table(found: ForumLogRead) -> VdomDict:
        return DataTable(
            [
                Column(
                    "created_at",
                    "When",
                    render=lambda e: f"{format_date(e.created_at)} {e.created_at:%H:%M} UTC",
                ),
                Column("moderator_name", "Moderator", render=lambda e: UserText(e.moderator_name)),
                Column("action", "Action", render=lambda e: ACTION_LABELS[e.action]),
                Column("member_name", "Member", render=lambda e: UserText(e.member_name)),
                Column(
                    "post",
                    "Post",
                    render=lambda e: (
                        html.a({"href": f"/forum/t/{e.topic_id}/topic"}, "Open topic") if e.topic_id else ""
                    ),
                ),
                Column("reason", "Reason", render=lambda e: UserText(e.reason)),
            ],
            found.entries,
            caption="Moderation log",
            page=found.page,
            page_size=LOG_PAGE,
            total=found.total,
            page_href=ListQuery(PATH, {"tab": "log"}).page_href,
            row_key=lambda e: e.id,
            empty="No moderator has acted yet.",
        )

    return QueryView(query, table, loading_label="Loading the log…", is_empty=lambda _found: False)
