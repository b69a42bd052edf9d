"""Load gates against one worker process (issue 10): a storm of 1,000 tabs opened at once all get their
first render with nothing logged as an error, and 300 idle tabs (fully rendered provider pages, holding
their websockets open) do not slow a cart command's p95 by more than 20 % over an idle server.

A cart command is measured as a browser sees it: on a provider's page, the "Add to cart" button is clicked
(a ReactPy layout event) and the clock stops at the update that ends its busy state (the cart written, the
badge re-rendered). Samples run one after another, so each measures latency rather than queueing.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from tests.conftest import LiveServer, start_demo_server, stop_server

STORM = 1000
IDLE_TABS = 300
SAMPLES = 60


@pytest.fixture(scope="module")
def demo_worker(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    tmp = tmp_path_factory.mktemp("load")
    server, database_url = start_demo_server(tmp, VAR_DIR=str(tmp), REMINDERS_ENABLED="false")
    with sqlite3.connect(Path(database_url.removeprefix("sqlite:///"))) as db:
        [provider_id] = db.execute("SELECT id FROM providers ORDER BY id LIMIT 1").fetchone()
    yield server, provider_id
    stop_server(server)


def _find(node: object, wanted, found: list[dict]) -> list[dict]:  # noqa: ANN001
    if isinstance(node, dict):
        if wanted(node):
            found.append(node)
        for child in node.get("children") or ():
            _find(child, wanted, found)
    return found


def _is_history(node: dict) -> bool:
    return node.get("tagName") == "History"


def _is_add_to_cart(node: dict) -> bool:
    return node.get("tagName") == "button" and "add-to-cart" in str(
        node.get("attributes", {}).get("class_name")
    )


class Tab:
    """One browser tab speaking ReactPy's websocket protocol: it tells the router where it is, as the
    client's History component does, and can click the first "Add to cart" button."""

    def __init__(self, socket: websockets.ClientConnection) -> None:
        self.socket = socket
        self.add_to_cart = ""

    @classmethod
    async def open(cls, server: LiveServer, path: str) -> Tab:
        cookie = {"Cookie": f"mv_visitor={secrets.token_urlsafe(12)}"}
        socket = await websockets.connect(
            server.base_url.replace("http://", "ws://") + "/_reactpy/stream" + path,
            additional_headers=cookie,
            open_timeout=120,
            max_size=None,
        )
        tab = cls(socket)
        first = await tab._next()
        [history] = _find(first["model"], _is_history, [])
        target = history["eventHandlers"]["onHistoryChangeCallback"]["target"]
        await tab._send(target, {"pathname": path, "search": ""})
        while not tab.add_to_cart:
            update = await tab._next()
            buttons = _find(update.get("model"), _is_add_to_cart, [])
            if buttons:
                tab.add_to_cart = buttons[0]["eventHandlers"]["on_click"]["target"]
        return tab

    async def _next(self) -> dict:
        return json.loads(await asyncio.wait_for(self.socket.recv(), timeout=120))

    async def _send(self, target: str, data: dict) -> None:
        await self.socket.send(json.dumps({"type": "layout-event", "target": target, "data": [data]}))

    async def timed_add_to_cart(self) -> float:
        started = time.perf_counter()
        await self._send(self.add_to_cart, {})
        while '"aria-busy": "false"' not in json.dumps(await self._next()):
            pass
        return time.perf_counter() - started

    async def close(self) -> None:
        await self.socket.close()


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


async def _cart_command_samples(server: LiveServer, path: str) -> list[float]:
    samples = []
    for _ in range(SAMPLES):
        tab = await Tab.open(server, path)
        samples.append(await tab.timed_add_to_cart())
        await tab.close()
    return samples[5:]  # the first few warm caches


async def _first_render(server: LiveServer) -> dict:
    url = server.base_url.replace("http://", "ws://") + "/_reactpy/stream/"
    async with websockets.connect(url, open_timeout=120, max_size=None) as socket:
        return json.loads(await asyncio.wait_for(socket.recv(), timeout=120))


async def test_a_storm_of_tabs_all_render_and_idle_tabs_do_not_slow_commands(demo_worker) -> None:
    server, provider_id = demo_worker
    path = f"/providers/{provider_id}"
    log_before = len(server.log())

    storm = await asyncio.gather(*(_first_render(server) for _ in range(STORM)), return_exceptions=True)
    failures = [r for r in storm if isinstance(r, BaseException)]
    assert failures == [], f"{len(failures)} of {STORM} tabs failed, first: {failures[:1]!r}"
    assert all(r["type"] == "layout-update" for r in storm)

    idle = await _cart_command_samples(server, path)
    tabs = await asyncio.gather(*(Tab.open(server, path) for _ in range(IDLE_TABS)))
    try:
        busy = await _cart_command_samples(server, path)
    finally:
        await asyncio.gather(*(tab.close() for tab in tabs))
    idle_p95, busy_p95 = _p95(idle), _p95(busy)
    print(
        f"cart command p95: idle server {idle_p95 * 1000:.1f} ms, with {IDLE_TABS} idle tabs {busy_p95 * 1000:.1f} ms"
    )
    assert busy_p95 <= idle_p95 * 1.2, (idle_p95, busy_p95)

    new_log = server.log()[log_before:]
    assert "Traceback" not in new_log and "ERROR" not in new_log, new_log[-3000:]
