"""AI Features (/dashboard/ai-features; issue 16 part 3): the signed-in person's conversations with the AI
assistant (continue one, delete one, delete them all), and their assistant preference: keep history on or
off. Staff with help-desk access also find here where the help desk's "Request AI analysis" lives.

app/services/assistant checks on every call that the conversations are the caller's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.assistant import (
    delete_all_conversations,
    delete_conversation,
    get_assistant_preferences,
    list_conversations,
    set_assistant_preferences,
)
from components.context import use_session
from components.format import format_date
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    Checkbox,
    Dialog,
    PageLinks,
    QueryView,
    SettingsCard,
    SettingsPanel,
    button_link,
    dashboard_header,
    dialog_actions,
    empty_state,
    portal_body,
    portal_page,
    settings_actions,
)
from models.account import Role
from models.assistant import PAGE_SIZE, AssistantPreferenceRead, ConversationPage, ConversationRead

CHAT_PATH = "/ai-assistant"
HELP_DESK_ROLES = frozenset({Role.owner, Role.support, Role.management, Role.hr})


def _conversation(item: ConversationRead, on_delete: Callable[[str], Any], pending: bool) -> VdomDict:
    meta = f"{format_date(item.updated_at)} · {item.message_count} messages"
    return html.li(
        {"key": item.id, "class_name": "ai-conversation"},
        html.div(
            html.a(
                {"class_name": "ai-conversation-title", "href": f"{CHAT_PATH}?conversation={item.id}"},
                item.title,
            ),
            html.p(
                {"class_name": "ai-conversation-meta"},
                meta,
                " · Emergency guidance given, no booking offered" if item.red_flagged else "",
            ),
        ),
        html.div(
            {"class_name": "ai-conversation-actions"},
            Button(
                "Delete",
                variant="ghost",
                size="sm",
                icon="trash",
                aria_label=f"Delete the conversation {item.title}",
                pending=pending,
                on_click=lambda: on_delete(item.id),
            ),
        ),
    )


@component
def Conversations() -> VdomDict:
    session = use_session()
    params = use_search_params()
    try:
        page = max(1, int((params.get("page") or ["1"])[0]))
    except ValueError:
        page = 1
    listed = use_query(list_conversations, page=page)
    confirming, set_confirming = use_state(False)
    remove = use_action(delete_conversation, refetch=[listed])
    remove_all = use_action(delete_all_conversations, refetch=[listed])

    async def delete_one(conversation_id: str) -> None:
        if await remove.run(conversation_id=conversation_id) is not None:
            session.toaster.success("Conversation deleted")

    async def delete_every() -> None:
        gone = await remove_all.run()
        set_confirming(False)
        if gone is not None:
            session.toaster.success("All conversations deleted")

    def render(data: ConversationPage) -> VdomDict:
        return html._(
            html.ul(
                {"class_name": "ai-conversations"},
                *(_conversation(i, delete_one, remove.pending) for i in data.items),
            ),
            PageLinks(
                data.page,
                data.total,
                PAGE_SIZE,
                href=lambda n: f"/dashboard/ai-features?page={n}",
                label="Pages of conversations",
            ),
        )

    has_any = bool(listed.data and listed.data.total)
    return SettingsPanel(
        "Your conversations",
        QueryView(
            listed,
            render,
            empty=empty_state(
                "No conversations yet",
                "Ask the assistant about a service, preparing for a visit or booking.",
                icon_name="sparkles",
            ),
            is_empty=lambda data: not data.items,
            loading_label="Loading your conversations…",
        ),
        settings_actions(
            button_link("New conversation", CHAT_PATH),
            Button("Delete all", variant="outline", icon="trash", on_click=lambda: set_confirming(True))
            if has_any
            else "",
        ),
        Dialog(
            "Delete all conversations?",
            html.p("Every conversation you had with the assistant is deleted. This cannot be undone."),
            open=confirming,
            on_close=lambda: set_confirming(False),
            busy=remove_all.pending,
            id="ai-delete-all",
            footer=dialog_actions(
                Button("Cancel", variant="outline", on_click=lambda: set_confirming(False)),
                Button("Delete all", variant="danger", pending=remove_all.pending, on_click=delete_every),
            ),
        ),
        lead="Conversations you had with the assistant while signed in, newest first. Open one to continue it.",
        title_id="ai-conversations",
        class_name="ai-section",
    )


@component
def Preferences() -> VdomDict:
    session = use_session()
    current = use_query(get_assistant_preferences)
    save = use_action(set_assistant_preferences, refetch=[current])

    async def changed(checked: bool) -> None:
        if await save.run(keep_history=checked) is not None:
            session.toaster.success("History is on" if checked else "History is off")

    def render(data: AssistantPreferenceRead) -> Component:
        return Checkbox(
            "Keep my conversations",
            "keep_history",
            default=data.keep_history,
            id="ai-keep-history",
            hint="Off: new conversations are not stored and end when you close the page. What is already "
            "stored stays until you delete it.",
            on_change=changed,
            disabled=save.pending,
        )

    return SettingsCard(
        "Assistant preferences",
        QueryView(current, render, is_empty=lambda data: data is None),
        title_id="ai-preferences",
        class_name="ai-section",
    )


@component
def AiFeaturesPage() -> VdomDict:
    session = use_session()
    user = session.user
    staff = user is not None and user.role in HELP_DESK_ROLES
    return portal_page(
        dashboard_header(
            "AI Features",
            lead="Your conversations with the AI assistant and how they are kept. The assistant answers from "
            "our help center and catalog; it never diagnoses or gives doses.",
        ),
        portal_body(
            Conversations(),
            Preferences(),
            SettingsPanel(
                "For the help desk",
                button_link("Open the help desk", "/staff/helpdesk", variant="outline"),
                lead="Open a ticket in the help desk and choose Request AI analysis: a reply is drafted from the "
                "help center into the reply box for you to edit. Nothing is sent until you send it.",
                title_id="ai-help-desk",
                class_name="ai-section",
            )
            if staff
            else "",
        ),
    )
