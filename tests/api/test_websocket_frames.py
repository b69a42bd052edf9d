"""A malformed websocket frame closes its connection (1003) with one warning line, never a traceback
(hardening issue, finding 13: one client once produced 504 tracebacks)."""

from __future__ import annotations

import asyncio
import json

import websockets
from websockets.exceptions import ConnectionClosed

BAD_FRAMES = (
    "not json at all",
    "[1, 2, 3]",
    '{"type": "layout-event"}',
    '{"type": "layout-event", "target": 7, "data": []}',
    '{"type": "something-else", "target": "x", "data": []}',
    '"a string"',
)


async def _send_after_first_render(ws_base: str, frame: str) -> int:
    async with websockets.connect(f"{ws_base}/_reactpy/stream/", open_timeout=30, max_size=None) as socket:
        first = json.loads(await asyncio.wait_for(socket.recv(), timeout=30))
        assert first["type"] == "layout-update"
        await socket.send(frame)
        try:
            while True:  # updates already on their way may still arrive before the close
                await asyncio.wait_for(socket.recv(), timeout=30)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else -1


async def test_malformed_frames_close_the_socket_with_one_line_each(live_server) -> None:
    ws_base = live_server.base_url.replace("http://", "ws://")
    log_before = len(live_server.log())
    codes = [await _send_after_first_render(ws_base, frame) for frame in BAD_FRAMES]
    assert codes == [1003] * len(BAD_FRAMES)
    new_log = live_server.log()[log_before:]
    assert new_log.count("after a malformed frame") == len(BAD_FRAMES), new_log[-2000:]
    assert "Traceback" not in new_log and "ERROR" not in new_log, new_log[-3000:]
