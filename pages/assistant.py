"""AI Healthcare Assistant (/ai-assistant, /healthcare-assistant; issue 16 part 3): a chat that answers from
our catalog, help center and provider directory, with the source of every answer.

Every message goes through app/services/assistant, which checks it for red flags first (911, or 988 for a
mental-health crisis; after one, no booking is offered for the rest of the conversation), refuses to
diagnose or give doses, and says plainly when it found nothing. A language model, when one is configured,
streams its wording into the bubble being written (`Writing`, a small leaf so each piece re-renders only
that bubble).

A visitor's conversation lives in this tab only. A signed-in user's is stored (unless they turned history
off); its id goes into the URL (`?conversation=<id>`, handed over without a reload), so a reload or a
reconnect brings it back, and /dashboard/ai-features links to it.

Accessibility: the messages are a `role="log"` live region, the question field is labelled, and after
each send the field is focused again (it remounts empty with `data-focus-on-mount`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from reactpy import component, event, html, use_location, use_ref, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.assistant import ask_assistant, get_conversation
from components.browser import focus_on_mount, follow
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Field,
    UserText,
    band,
    button_link,
    chat_bubble,
    chat_message,
    error_state,
    link_list,
    loading_state,
    public_page,
)
from models.assistant import MAX_QUESTION, AnswerKind, ChatMessage, ChatState, SourceLink

HISTORY_PATH = "/dashboard/ai-features"
SUGGESTIONS = (
    "How do I prepare for a blood draw at home?",
    "What does IV hydration cost?",
    "How do refunds work?",
    "Book a blood draw in 10001",
)
STREAM_EVERY = 0.08  # seconds between two renders of a streaming answer
_LABEL_MAX = 60  # a line "Label: text" shows the label in bold when it is this short


def _line(text: str, key: str) -> VdomDict:
    label, sep, rest = text.partition(": ")
    if sep and len(label) <= _LABEL_MAX and "\n" not in label:
        return html.p({"key": key}, html.strong(f"{label}:"), " ", rest)
    return html.p({"key": key}, text)


def _body(text: str) -> list[VdomDict]:
    """Paragraphs (blank-line separated) as blocks, each line a <p>."""
    return [
        html.div(
            {"key": str(block), "class_name": "chat-block"},
            *(
                _line(line, f"{block}-{index}")
                for index, line in enumerate(paragraph.splitlines())
                if line.strip()
            ),
        )
        for block, paragraph in enumerate(text.split("\n\n"))
        if paragraph.strip()
    ]


def _sources(sources: tuple[SourceLink, ...]) -> VdomDict | str:
    if not sources:
        return ""
    bookings = [s for s in sources if s.url.startswith("/find-provider")]
    others = [s for s in sources if s not in bookings]
    return html.div(
        {"class_name": "chat-sources"},
        html.p({"class_name": "chat-sources-label"}, "Sources") if others else "",
        link_list(((s.title, s.url) for s in others), class_name="chat-source-list", icon_name="arrow-right")
        if others
        else "",
        *(button_link(s.title, s.url, size="sm", class_name="chat-book", key=s.url) for s in bookings),
    )


def _urgent(message: ChatMessage) -> VdomDict:
    crisis = message.kind is AnswerKind.crisis
    actions = (
        (("Call 988", "tel:988"), ("Text 988", "sms:988"), ("Call 911", "tel:911"))
        if crisis
        else (("Call 911", "tel:911"),)
    )
    return html.div(
        {"class_name": "chat-urgent"},
        html.p({"class_name": "chat-urgent-title"}, icon("alert", size=18), "Get help now"),
        html.p(message.text),
        html.div(
            {"class_name": "chat-urgent-actions"},
            *(button_link(label, href, variant="danger", size="sm", key=href) for label, href in actions),
        ),
    )


def _bubble(message: ChatMessage, index: int) -> VdomDict:
    if message.mine:
        return chat_message(
            UserText(message.text, tag="p", class_name="chat-bubble"),
            mine=True,
            speaker="You said: ",
            key=str(index),
        )
    urgent = message.kind in (AnswerKind.emergency, AnswerKind.crisis)
    return chat_message(
        chat_bubble(_urgent(message) if urgent else html._(*_body(message.text)), _sources(message.sources)),
        speaker="Assistant: ",
        class_name=f"chat-{message.kind.value}",
        key=str(index),
    )


@component
def Writing(sink: Any) -> VdomDict:
    """The answer being written: the model's words so far (or a 'thinking' line until the first)."""
    text, set_text = use_state("")
    sink.current = set_text
    # Hidden from assistive technology: the live region announces the finished answer once, not every piece.
    return chat_message(
        chat_bubble(
            html._(*_body(text)) if text else html.p({"class_name": "chat-thinking"}, "Looking that up…"),
            busy=True,
        ),
        class_name="chat-writing",
        hidden=True,
    )


def _throttled(sink: Any) -> Callable[[str], None]:
    last = [0.0]

    def push(text: str) -> None:
        now = time.monotonic()
        if sink.current is not None and now - last[0] >= STREAM_EVERY:
            last[0] = now
            sink.current(text)

    return push


@component
def Chat(initial: ChatState, signed_in: bool, handoff: Any) -> VdomDict:
    path = use_location().pathname
    state, set_state = use_state(initial)
    asking, set_asking = use_state("")
    error, set_error = use_state("")
    form = use_form(question="")
    sink = use_ref(None)
    ask = use_action(ask_assistant, on_error=set_error)

    async def send(text: str) -> None:
        question = text.strip()
        if not question:
            set_error("Type a question first.")
            return
        if len(question) > MAX_QUESTION:
            set_error(f"Please keep your question under {MAX_QUESTION:,} characters.")
            return
        set_error("")
        set_asking(question)
        form.reset(question="")
        result = await ask.run(state=state, text=question, on_text=_throttled(sink))
        set_asking("")
        if result is None:
            form.reset(question=question)  # nothing lost: the question is back in the field
            return
        set_state(result)
        if result.conversation_id and not initial.conversation_id:
            handoff.current = result  # the stored view at ?conversation=<id> starts from it, without a reload

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await send(form.values.get("question", ""))

    started = bool(state.messages) or bool(asking) or bool(error)
    messages = list(state.messages)
    if asking:
        messages.append(ChatMessage(kind=AnswerKind.question, text=asking, at=datetime.now(UTC)))
    log = html.ol(
        {"class_name": "chat-messages"},
        chat_message(
            chat_bubble(
                html.p(
                    "Hi! Ask me about our services, how to prepare for a visit, prices, payments or booking. "
                    "I answer from our help center and catalog, and show where each answer comes from."
                )
            ),
            key="hello",
        ),
        *(_bubble(message, index) for index, message in enumerate(messages)),
        Writing(sink, key=f"writing-{len(messages)}") if asking else "",
    )
    suggestions = (
        ""
        if state.messages or asking
        else html.div(
            {"class_name": "chat-suggestions", "role": "group", "aria-label": "Example questions"},
            *(
                Button(text, variant="outline", size="sm", key=text, on_click=lambda text=text: send(text))
                for text in SUGGESTIONS
            ),
        )
    )
    focus = focus_on_mount() if started else {}
    composer = html.form(
        {
            "class_name": "chat-composer",
            "on_submit": submit,
            "no_validate": True,
            "aria-label": "Ask the assistant",
        },
        Field(
            "Your question",
            "question",
            form=form,
            id="assistant-question",
            max_length=MAX_QUESTION,
            autocomplete="off",
            placeholder="e.g. How do I prepare for a blood draw?",
            error=error or None,
            class_name="chat-field",
            control_attributes={"enter_key_hint": "send", **focus},
        ),
        Button("Send", type="submit", icon="arrow-right", pending=ask.pending, pending_label="Sending…"),
    )
    footer = (
        html.p(
            {"class_name": "chat-footnote"},
            "Signed in: your conversations are kept in ",
            html.a({"href": HISTORY_PATH}, "AI Features"),
            " unless you turned history off there; you can delete them at any time.",
        )
        if signed_in
        else html.p(
            {"class_name": "chat-footnote"},
            "This conversation is not stored: it ends when you close this page.",
        )
    )
    live = html.div(
        {
            "class_name": "chat-log",
            "role": "log",
            "aria-live": "polite",
            "aria-label": "Conversation with the assistant",
        },
        log,
    )
    # A conversation stored just now goes into the URL, so a reconnect or a reload brings it back.
    stored_now = signed_in and state.conversation_id and state.conversation_id != initial.conversation_id
    moved = follow(f"{path}?conversation={state.conversation_id}") if stored_now else ""
    status = html.p({"class_name": "sr-only", "role": "status"}, "Looking that up…" if asking else "")
    return html.div({"class_name": "chat"}, live, status, suggestions, composer, footer, moved)


@component
def StoredChat(conversation_id: str, handoff: Any) -> VdomDict | Component:
    fresh = handoff.current if getattr(handoff.current, "conversation_id", None) == conversation_id else None
    loaded = use_query(get_conversation, conversation_id=conversation_id, enabled=fresh is None)
    if fresh is not None:
        return Chat(fresh, True, handoff)
    if loaded.error:
        return error_state(loaded.error)
    if loaded.data is None:
        return loading_state("Loading your conversation…")
    return Chat(loaded.data, True, handoff)


@component
def AssistantPage() -> VdomDict:
    session = use_session()
    params = use_search_params()
    conversation_id = (params.get("conversation") or [""])[0][:36]
    signed_in = session.user is not None
    handoff = use_ref(None)  # a conversation stored by a new chat, handed to its view at ?conversation=<id>
    return public_page(
        "AI Healthcare Assistant",
        band(
            html.div(
                {"class_name": "chat-safety", "role": "note"},
                icon("alert", size=18),
                html.p(
                    html.strong("In an emergency call 911. "),
                    "In a mental-health crisis call or text 988. This assistant can't diagnose or "
                    "recommend medicines or doses; for those, talk to a clinician.",
                ),
            ),
            StoredChat(conversation_id, handoff, key=conversation_id)
            if conversation_id and signed_in
            else Chat(ChatState(), signed_in, handoff, key="new"),
            container_class="chat-container",
        ),
        lead="Questions about our services, preparing for a visit, prices and booking, answered from our help "
        "center and catalog.",
        eyebrow="Assistant",
    )
