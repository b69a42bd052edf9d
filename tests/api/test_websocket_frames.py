"""A malformed websocket frame closes its connection (1003) with one warning line, never a traceback
(hardening issue, finding 13: one client once produced 504 tracebacks)."""

from __future__ import annotations

import asyncio
import json

import pytest
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


async def test_oversized_and_nul_frames_close_the_socket(live_server) -> None:
    """Frames up to 16 MiB used to be read and parsed; a NUL character failed the command storing it."""
    ws_base = live_server.base_url.replace("http://", "ws://")
    big = json.dumps({"type": "layout-event", "target": "x", "data": ["a" * (1024 * 1024)]})
    assert await _send_after_first_render(ws_base, big) == 1009
    nul = json.dumps({"type": "layout-event", "target": "x", "data": [{"target": {"value": "a\u0000b"}}]})
    assert await _send_after_first_render(ws_base, nul) == 1003
    assert "with a NUL character" in live_server.log()


def test_a_flood_of_events_is_paced_after_a_burst(monkeypatch) -> None:
    from medivisit.reactpy_compat import websocket_guard

    clock = [1000.0]
    monkeypatch.setattr(websocket_guard.time, "monotonic", lambda: clock[0])
    pace = websocket_guard._Pace(rate=20, burst=60)
    assert [pace.wait() for _ in range(60)] == [0.0] * 60  # a burst (a paste, fast typing) is served at once
    waits = [pace.wait() for _ in range(20)]
    assert waits[0] == 0.05 and abs(waits[-1] - 1.0) < 1e-9  # then 20 a second, queued in order
    clock[0] += 1.0  # a second later 20 tokens came back: the queue shrank by 20
    assert abs(pace.wait() - 0.05) < 1e-9


def test_a_reactpy_without_the_replaced_callback_is_refused(monkeypatch) -> None:
    """The guard replaces a private function of ReactPy's backend: an upgrade that renamed it must not leave
    every frame unchecked (another ReactPy version is refused too: tests/unit/test_reactpy_compat.py)."""
    from reactpy.backend import starlette as reactpy_starlette

    from medivisit.reactpy_compat import websocket_guard
    from medivisit.reactpy_compat._guard import IncompatibleReactPy

    websocket_guard.install()
    assert reactpy_starlette._make_send_recv_callbacks is websocket_guard._checked_callbacks
    monkeypatch.delattr(reactpy_starlette, "_make_send_recv_callbacks")
    with pytest.raises(IncompatibleReactPy, match="starlette has no _make_send_recv_callbacks"):
        websocket_guard.install()
