"""The assistant's conversation: `chat_message`, one message in the chat log (`ol.chat-messages`) — the
person's own on one side, the assistant's on the other, each read out after who said it — and
`chat_bubble`, the bubble that holds the words (`.chat-*` in static/css)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes


def chat_bubble(*content: Any, busy: bool = False) -> VdomDict:
    """`div.chat-bubble` holding `content` (`aria-busy` while the words are still coming)."""
    return html.div({"class_name": "chat-bubble", **({"aria-busy": "true"} if busy else {})}, *content)


def chat_message(
    bubble: Any,
    *more: Any,
    mine: bool = False,
    speaker: str | None = None,
    class_name: str | None = None,
    key: str | None = None,
    hidden: bool = False,
) -> VdomDict:
    """`li.chat-message.chat-message-{mine|assistant}` (`class_name` added; `hidden` from assistive
    technology, for text still being written): an `sr-only` "`speaker`" first when given, then the
    `bubble` (a `chat_bubble`, or the person's words as a `p.chat-bubble`) and `more`."""
    attributes: dict[str, Any] = {
        "class_name": classes(
            "chat-message", "chat-message-mine" if mine else "chat-message-assistant", class_name
        )
    }
    if key is not None:
        attributes["key"] = key
    if hidden:
        attributes["aria-hidden"] = "true"
    return html.li(
        attributes,
        html.span({"class_name": "sr-only"}, speaker) if speaker else "",
        bubble,
        *more,
    )
