"""Hundreds of page loads at the same moment each get their first render (the reactpy 1.1 hook-stack fix).

Without medivisit/reactpy_compat/hook_stack.py, two renders interleaving on one thread corrupt each other's hook
stack ('Hook stack is in an invalid state') and the websockets close.
"""

from __future__ import annotations

import asyncio
import json

import websockets

SESSIONS = 200
PATHS = ("/", "/about", "/services", "/help-center", "/nope-404")


async def _first_render(ws_base: str, index: int) -> dict:
    path = PATHS[index % len(PATHS)]
    async with websockets.connect(
        f"{ws_base}/_reactpy/stream{path}", open_timeout=60, max_size=None
    ) as socket:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=90))
        return message


async def test_200_simultaneous_sessions_all_render(live_server) -> None:
    ws_base = live_server.base_url.replace("http://", "ws://")
    log_before = len(live_server.log())
    results = await asyncio.gather(
        *(_first_render(ws_base, i) for i in range(SESSIONS)), return_exceptions=True
    )

    failures = [r for r in results if isinstance(r, BaseException)]
    assert failures == [], f"{len(failures)} sessions failed, first: {failures[:1]!r}"
    rendered = [r for r in results if not isinstance(r, BaseException)]
    assert all(r["type"] == "layout-update" and r["model"] for r in rendered)
    new_log = live_server.log()[log_before:]
    assert "Hook stack is in an invalid state" not in new_log
    assert "Traceback" not in new_log and "ERROR" not in new_log, new_log[-3000:]
