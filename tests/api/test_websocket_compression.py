"""permessage-deflate without context takeover (medivisit/reactpy_compat/websocket_compression.py, issue 30
item 2), read off the handshake of a real server started as production starts it: a client offering what
Chromium offers (permessage-deflate with client_max_window_bits) is answered with both no-context-takeover
parameters and 4 KiB windows, and the ReactPy stream still carries the page, compressed."""

from __future__ import annotations

import asyncio
import json

import websockets

from tests.conftest import LiveServer


async def _handshake(server: LiveServer) -> tuple[str, dict]:
    url = server.base_url.replace("http://", "ws://") + "/_reactpy/stream/"
    async with websockets.connect(url, compression="deflate", max_size=None) as socket:
        assert socket.response is not None
        answer = socket.response.headers.get("Sec-WebSocket-Extensions", "")
        first = json.loads(await asyncio.wait_for(socket.recv(), timeout=30))
    return answer, first


def test_the_stream_is_compressed_without_context_takeover(live_server: LiveServer) -> None:
    answer, first = asyncio.run(_handshake(live_server))
    parameters = {part.strip() for part in answer.split(";")}
    assert parameters == {
        "permessage-deflate",
        "server_no_context_takeover",
        "client_no_context_takeover",
        "server_max_window_bits=12",
        "client_max_window_bits=12",
    }, answer
    assert first["type"] == "layout-update" and first["model"]  # the page still comes through
