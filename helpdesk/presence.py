"""Who else has a ticket open: '<name> is viewing' / '<name> is replying'.

Each console with a ticket open says "viewing" when it opens it and every HEARTBEAT_SECONDS after, and
answers at once when it hears someone new, so both sides see each other within a moment. "replying" comes
from the reply box (static/js/presence.js clicks `TypingSignal`'s hidden button while the agent types).
An agent not heard from for VIEWING_TTL seconds is forgotten; "replying" lasts REPLYING_TTL seconds.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace
from typing import Any

from reactpy import component, html, use_ref, use_state
from reactpy.types import VdomDict

from app.services.support import announce_presence, presence_topic
from components.browser import typing_sink
from components.context import use_session
from components.effects import use_effect
from components.hooks import use_action, use_topic

HEARTBEAT_SECONDS = 10
VIEWING_TTL = 30
REPLYING_TTL = 8


@dataclass(frozen=True)
class Seen:
    name: str
    heard_at: float
    replying_at: float | None = None

    def replying(self, now: float) -> bool:
        return self.replying_at is not None and now - self.replying_at < REPLYING_TTL

    def next_change(self, now: float) -> float:
        """When this entry next changes on its own: replying ends, or the agent is forgotten."""
        ends = [self.heard_at + VIEWING_TTL]
        if self.replying_at is not None and self.replying(now):
            ends.append(self.replying_at + REPLYING_TTL)
        return min(ends)


def _live(seen: dict[str, Seen], now: float) -> dict[str, Seen]:
    return {
        user_id: entry if entry.replying(now) else replace(entry, replying_at=None)
        for user_id, entry in seen.items()
        if now - entry.heard_at < VIEWING_TTL
    }


def presence_text(seen: dict[str, Seen], now: float) -> list[str]:
    return sorted(
        f"{entry.name} is replying" if entry.replying(now) else f"{entry.name} is viewing"
        for entry in seen.values()
    )


def _quiet(_message: str) -> None:
    """Presence is a courtesy: a failed signal is not worth an error toast every few seconds."""


@component
def PresenceBar(ticket_id: str) -> VdomDict:
    session = use_session()
    me = session.user.id if session.user else ""
    seen, set_seen = use_state(dict[str, Seen]())
    echo, set_echo = use_state(0)
    stopped = use_ref(False)

    def stop(_message: str) -> None:
        stopped.current = True

    beat = use_action(announce_presence, on_error=stop)

    def on_event(payload: dict[str, Any]) -> bool:
        user_id = payload.get("user_id")
        if not user_id or user_id == me or payload.get("ticket_id") != ticket_id:
            return False  # our own heartbeat: nothing to show, no render
        now = time.monotonic()
        replying = payload.get("state") == "replying"
        set_seen(
            lambda current: {
                **current,
                user_id: Seen(
                    name=str(payload.get("name") or "Someone"),
                    heard_at=now,
                    replying_at=now if replying else getattr(current.get(user_id), "replying_at", None),
                ),
            }
        )
        if user_id not in seen:
            set_echo(lambda n: n + 1)  # a newcomer: let them see us now, not at our next heartbeat
        return True

    use_topic(presence_topic(ticket_id), on_event=on_event)

    @use_effect(dependencies=[ticket_id])
    async def heartbeat() -> None:
        while not stopped.current:
            await beat.run(ticket_id=ticket_id, state="viewing")
            await asyncio.sleep(HEARTBEAT_SECONDS)

    @use_effect(dependencies=[echo])
    async def answer() -> None:
        if echo and not stopped.current:
            await beat.run(ticket_id=ticket_id, state="viewing")

    @use_effect(dependencies=[seen])
    async def expire() -> None:
        if not seen:
            return
        now = time.monotonic()
        wake = min(entry.next_change(now) for entry in seen.values())
        await asyncio.sleep(max(0.2, wake - now))
        set_seen(lambda current: _live(current, time.monotonic()))

    lines = presence_text(_live(seen, time.monotonic()), time.monotonic())
    return html.div(
        {"class_name": "presence", "role": "status", "aria-live": "polite"},
        *(
            html.span(
                {"key": line, "class_name": "presence-item"}, html.span({"class_name": "presence-dot"}), line
            )
            for line in lines
        ),
    )


@component
def TypingSignal(ticket_id: str) -> VdomDict:
    """The hidden button static/js/presence.js clicks while the agent types a reply."""
    signal = use_action(announce_presence, on_error=_quiet)

    async def typing(_event: dict[str, Any]) -> None:
        await signal.run(ticket_id=ticket_id, state="replying")

    return html.button(
        {"type": "button", **typing_sink(), "on_click": typing},
        "Typing",
    )
