"""Every websocket frame is checked before ReactPy sees it: shape, size, content and pace.

ReactPy 1.1 reads each frame with `json.loads` and hands it to `Layout.deliver` unchecked: a frame that is
not JSON, or JSON that is not a layout event, raises inside the connection's task group and logs a full
traceback per frame (hundreds from one misbehaving client). `install()` swaps ReactPy's receive callback
for one that
- closes the socket with 1003 (unsupported data) and one warning line on a malformed frame, or one holding a
  NUL character (PostgreSQL cannot store one: it would fail whichever command stored it);
- closes it with 1009 (too big) on a frame over `MAX_WEBSOCKET_MESSAGE_BYTES` (uvicorn also refuses larger
  frames before reading them, `serve` sets its `ws_max_size`);
- paces a connection to `WEBSOCKET_EVENTS_PER_SECOND` after a burst of `WEBSOCKET_EVENT_BURST` (a token
  bucket): a flood from one tab is served at that pace and costs the server nothing more, while nothing a
  person typed is dropped.
Well-formed events pass through unchanged. The callback replaced is `_make_send_recv_callbacks` of ReactPy's
Starlette backend (which its FastAPI backend is): were it renamed, every one of these checks would be gone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from reactpy.backend import starlette as reactpy_starlette
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.settings import get_settings
from medivisit.reactpy_compat._guard import Patch
from medivisit.request_guard import contains_nul

PATCH = Patch(__name__)

logger = logging.getLogger(__name__)
UNSUPPORTED_DATA = 1003
TOO_BIG = 1009
_original: Any = None


def _is_layout_event(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and message.get("type") == "layout-event"
        and isinstance(message.get("target"), str)
        and isinstance(message.get("data"), list)
    )


class _Pace:
    """A token bucket: `burst` events at once, then `rate` a second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.last = float(burst), time.monotonic()
        self.warned = False

    def wait(self) -> float:
        """Seconds to wait before the next event may be handled (0: at once); takes its token."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


def _checked_callbacks(socket: WebSocket) -> tuple[Any, Any]:
    original_send, _recv = _original(socket)
    closed = False
    settings = get_settings()
    pace = _Pace(settings.websocket_events_per_second, settings.websocket_event_burst)
    client = socket.client.host if socket.client else "?"

    async def send(value: Any) -> None:
        # An update rendered while the socket is being closed is dropped: sending it fails, and ReactPy
        # would log that failure as an error.
        if closed:
            return
        try:
            await original_send(value)
        except Exception:
            # The tab went away while this update was on its way: nothing to tell anyone.
            if closed or WebSocketState.DISCONNECTED in (socket.client_state, socket.application_state):
                return
            raise

    async def refuse(code: int, why: str, size: int) -> None:
        nonlocal closed
        logger.warning("Closed a websocket from %s after %s (%d bytes)", client, why, size)
        closed = True
        await socket.close(code=code)
        raise WebSocketDisconnect(code=code)

    async def recv() -> Any:
        text = await socket.receive_text()
        if len(text) > settings.max_websocket_message_bytes:
            await refuse(TOO_BIG, "a frame over the size limit", len(text))
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not _is_layout_event(message):
            await refuse(UNSUPPORTED_DATA, "a malformed frame", len(text))
        if "\\u0000" in text and contains_nul(message):
            await refuse(UNSUPPORTED_DATA, "a frame with a NUL character", len(text))
        delay = pace.wait()
        if delay:
            if not pace.warned:
                pace.warned = True
                logger.warning("Pacing a websocket from %s: over %s events a second", client, pace.rate)
            await asyncio.sleep(delay)
        return message

    return send, recv


def install() -> None:
    """Check every incoming frame (idempotent)."""
    global _original
    PATCH.check_version()
    _original = PATCH.replace(reactpy_starlette, "_make_send_recv_callbacks", _checked_callbacks)
