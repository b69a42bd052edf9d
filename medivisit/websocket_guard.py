"""Malformed websocket frames end their connection with one log line, not a traceback.

ReactPy 1.1 reads each frame with `json.loads` and hands it to `Layout.deliver` unchecked: a frame that is
not JSON, or JSON that is not a layout event, raises inside the connection's task group and logs a full
traceback per frame (hundreds from one misbehaving client). `install()` swaps ReactPy's receive callback
for one that checks each frame, logs a single warning line and closes the socket with 1003 (unsupported
data). Well-formed events pass through unchanged.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from reactpy.backend import starlette as reactpy_starlette
from starlette.websockets import WebSocket, WebSocketDisconnect

logger = logging.getLogger(__name__)
UNSUPPORTED_DATA = 1003
_original = reactpy_starlette._make_send_recv_callbacks


def _is_layout_event(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and message.get("type") == "layout-event"
        and isinstance(message.get("target"), str)
        and isinstance(message.get("data"), list)
    )


def _checked_callbacks(socket: WebSocket) -> tuple[Any, Any]:
    original_send, _recv = _original(socket)
    closed = False

    async def send(value: Any) -> None:
        # An update rendered while the socket is being closed is dropped: sending it fails, and ReactPy
        # would log that failure as an error.
        if closed:
            return
        try:
            await original_send(value)
        except Exception:
            if not closed:
                raise

    async def recv() -> Any:
        nonlocal closed
        text = await socket.receive_text()
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not _is_layout_event(message):
            client = socket.client.host if socket.client else "?"
            logger.warning("Closed a websocket from %s after a malformed frame (%d bytes)", client, len(text))
            closed = True
            await socket.close(code=UNSUPPORTED_DATA)
            raise WebSocketDisconnect(code=UNSUPPORTED_DATA)
        return message

    return send, recv


def install() -> None:
    """Check every incoming frame (idempotent)."""
    reactpy_starlette._make_send_recv_callbacks = _checked_callbacks
