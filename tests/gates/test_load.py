"""Load gates against one worker process (issue 10): in a storm of 1,000 tabs opened at once, every tab
renders its page and ends with its cart loaded, with nothing logged as an error (on PostgreSQL when
TEST_DATABASE_URL is set: before the render gate, 966 of 1,000 carts failed there, the pool's 30 s wait
running out); and 300 idle tabs (fully rendered provider pages, holding their websockets open) do not slow a
cart command's p95 by more than 20 % over an idle server.

A cart command is measured as a browser sees it: on a provider's page, the "Add to cart" button is clicked
(a ReactPy layout event) and the clock stops at the update that ends its busy state (the cart written, the
badge re-rendered); each tab clicks five times (the visit added, then its quantity raised), 200 samples a
side. Samples run one after another, so each measures latency rather than queueing. The idle
and the busy samples are taken in alternating rounds (the 300 tabs opened and closed again), so that a slow
spell of a shared machine falls on both sides rather than on one. The idle tabs are held by another process
(other people's browsers) and the measuring process's own garbage collector is held off while it times, so
that only the server differs between the two sides. When the first verdict is over the line, as many
rounds again are taken and the verdict is on all the samples.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import re
import secrets
import sqlite3
import statistics
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest
import websockets

from tests.conftest import LiveServer, create_postgres_database, drop_later, start_demo_server, stop_server

STORM = 1000
STORM_TIMEOUT = 240
IDLE_TABS = 300
ROUNDS = 2
TABS_PER_ROUND = 20  # per side
CLICKS_PER_TAB = 5  # each a cart command (the first adds the visit, the next ones raise its quantity)
WARM_UP = 5


@pytest.fixture(scope="module")
def demo_worker(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    tmp = tmp_path_factory.mktemp("load")
    env = {"VAR_DIR": str(tmp), "REMINDERS_ENABLED": "false"}
    if os.environ.get("TEST_DATABASE_URL"):
        with ThreadPoolExecutor(max_workers=1) as pool:
            env["DATABASE_URL"] = pool.submit(
                create_postgres_database, os.environ["TEST_DATABASE_URL"]
            ).result()
    server, database_url = start_demo_server(tmp, **env)
    yield server, database_url
    stop_server(server)
    if "DATABASE_URL" in env:
        drop_later(os.environ["TEST_DATABASE_URL"], [database_url.rpartition("/")[2]])


async def _sql(database_url: str, statement: str, rows: list[tuple] | None = None) -> list[tuple]:
    """Run one statement ($1-style parameters) on the server's database, for each of `rows` if given."""
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(Path(database_url.removeprefix("sqlite:///"))) as db:
            statement = re.sub(r"\$\d+", "?", statement).replace("now()", "CURRENT_TIMESTAMP")
            if rows is not None:
                db.executemany(statement, rows)
                return []
            return db.execute(statement).fetchall()
    connection = await asyncpg.connect(database_url)
    try:
        if rows is not None:
            await connection.executemany(statement, rows)
            return []
        return [tuple(row) for row in await connection.fetch(statement)]
    finally:
        await connection.close()


async def _visitors_with_a_visit_in_their_cart(database_url: str, count: int) -> list[str]:
    [(service_id, slug, provider_id)] = await _sql(
        database_url,
        "SELECT s.id, s.slug, ps.provider_id FROM provider_services ps JOIN services s ON s.id = ps.service_id "
        "ORDER BY ps.provider_id, s.slug LIMIT 1",
    )
    visitors = [secrets.token_urlsafe(12) for _ in range(count)]
    await _sql(
        database_url,
        "INSERT INTO cart_items (id, visitor_id, item_key, service_id, provider_id, quantity, added_at) "
        "VALUES ($1, $2, $3, $4, $5, 1, now())",
        [
            (str(uuid.uuid4()), visitor, f"{slug}@{provider_id}", service_id, provider_id)
            for visitor in visitors
        ],
    )
    return visitors


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


def _is_cart_badge(node: dict) -> bool:
    return node.get("attributes", {}).get("class_name") == "badge-count"


class Tab:
    """One browser tab speaking ReactPy's websocket protocol: it tells the router where it is, as the
    client's History component does, and can click the first "Add to cart" button."""

    def __init__(self, socket: websockets.ClientConnection) -> None:
        self.socket = socket
        self.add_to_cart = ""
        self.unread: list[dict] = []  # messages read but not yet looked at

    @classmethod
    async def connect(cls, server: LiveServer, path: str, visitor: str, seconds: float = 120) -> Tab:
        """Open the websocket and tell the router the path, as the browser's History component does."""
        socket = await websockets.connect(
            server.base_url.replace("http://", "ws://") + "/_reactpy/stream" + path,
            additional_headers={"Cookie": f"mv_visitor={visitor}"},
            open_timeout=seconds,
            max_size=None,
        )
        tab = cls(socket)
        first = await tab._next(seconds)
        [history] = _find(first["model"], _is_history, [])
        target = history["eventHandlers"]["onHistoryChangeCallback"]["target"]
        await tab._send(target, {"pathname": path, "search": ""})
        # The first message is the settled page (medivisit/reactpy_compat/first_paint.py): its cart badge and buttons
        # may be in it already.
        tab.unread.append(first)
        return tab

    @classmethod
    async def open(cls, server: LiveServer, path: str) -> Tab:
        tab = await cls.connect(server, path, secrets.token_urlsafe(12))
        while not tab.add_to_cart:
            update = await tab._next()
            buttons = _find(update.get("model"), _is_add_to_cart, [])
            if buttons:
                tab.add_to_cart = buttons[0]["eventHandlers"]["on_click"]["target"]
        return tab

    async def wait_for_cart_badge(self, seconds: float) -> None:
        """Until the cart's badge shows the one visit in it: the cart was read from the database."""
        while not _find((await self._next(seconds)).get("model"), _is_cart_badge, []):
            pass

    async def _next(self, seconds: float = 120) -> dict:
        if self.unread:
            return self.unread.pop(0)
        return json.loads(await asyncio.wait_for(self.socket.recv(), timeout=seconds))

    async def _send(self, target: str, data: dict) -> None:
        await self.socket.send(json.dumps({"type": "layout-event", "target": target, "data": [data]}))

    async def timed_add_to_cart(self) -> float:
        started = time.perf_counter()
        await self._send(self.add_to_cart, {})
        # Done when its toast ("Added … to cart", "Updated …") is shown: the command has run and the page
        # has its result (a quick command shows no busy state to wait for: components/hooks.py).
        while '"toast-title"' not in json.dumps(await self._next()):
            pass
        return time.perf_counter() - started

    async def close(self) -> None:
        await self.socket.close()


def _hold_idle_tabs(base_url: str, path: str, count: int, ready, done) -> None:  # noqa: ANN001
    """In a process of its own (other people's browsers): open `count` tabs, say so, hold them until told."""

    async def hold() -> None:
        server = LiveServer(base_url, Path(os.devnull), None)
        tabs = await asyncio.gather(*(Tab.open(server, path) for _ in range(count)))
        ready.set()
        await asyncio.to_thread(done.wait)
        await asyncio.gather(*(tab.close() for tab in tabs))

    asyncio.run(hold())


@contextlib.contextmanager
def _idle_tabs(server: LiveServer, path: str, count: int) -> Iterator[None]:
    """`count` fully rendered tabs held open by another process while the block runs: the measuring
    process stays as it was for the idle samples."""
    context = multiprocessing.get_context("spawn")
    ready, done = context.Event(), context.Event()
    holder = context.Process(target=_hold_idle_tabs, args=(server.base_url, path, count, ready, done))
    holder.start()
    try:
        assert ready.wait(STORM_TIMEOUT), "the idle tabs did not open"
        yield
    finally:
        done.set()
        holder.join(60)
        if holder.is_alive():
            holder.kill()


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


async def _cart_command_samples(server: LiveServer, path: str, tabs: int) -> list[float]:
    samples = []
    gc.collect()
    gc.disable()  # the measuring side's own pauses are not the server's latency
    try:
        for _ in range(tabs):
            tab = await Tab.open(server, path)
            for _ in range(CLICKS_PER_TAB):
                samples.append(await tab.timed_add_to_cart())
            await tab.close()
    finally:
        gc.enable()
    return samples


async def _tab_with_its_cart(server: LiveServer, visitor: str) -> float:
    started = time.perf_counter()
    tab = await Tab.connect(server, "/", visitor, seconds=STORM_TIMEOUT)
    try:
        await tab.wait_for_cart_badge(STORM_TIMEOUT)
    finally:
        await tab.close()
    return time.perf_counter() - started


@pytest.mark.timeout(STORM_TIMEOUT + 300)
async def test_a_storm_of_tabs_all_load_their_carts_and_idle_tabs_do_not_slow_commands(demo_worker) -> None:
    server, database_url = demo_worker
    [(provider_id,)] = await _sql(database_url, "SELECT id FROM providers ORDER BY id LIMIT 1")
    path = f"/providers/{provider_id}"
    visitors = await _visitors_with_a_visit_in_their_cart(database_url, STORM)
    log_before = len(server.log())

    started = time.perf_counter()
    storm = await asyncio.gather(*(_tab_with_its_cart(server, v) for v in visitors), return_exceptions=True)
    failures = [r for r in storm if isinstance(r, BaseException)]
    assert failures == [], f"{len(failures)} of {STORM} tabs failed, first: {failures[:1]!r}"
    seconds = [r for r in storm if not isinstance(r, BaseException)]
    print(
        f"{STORM} tabs opened at once: all carts loaded in {time.perf_counter() - started:.1f} s (slowest {max(seconds):.1f} s)"
    )

    await _cart_command_samples(server, path, WARM_UP)  # the first few warm caches
    idle: list[float] = []
    busy: list[float] = []
    for rounds in (ROUNDS, ROUNDS):
        for _ in range(rounds):
            idle += await _cart_command_samples(server, path, TABS_PER_ROUND)
            with _idle_tabs(server, path, IDLE_TABS):
                busy += await _cart_command_samples(server, path, TABS_PER_ROUND)
        idle_p95, busy_p95 = _p95(idle), _p95(busy)
        print(
            f"cart command p95 over {len(idle)} samples a side: idle server {idle_p95 * 1000:.1f} ms, "
            f"with {IDLE_TABS} idle tabs {busy_p95 * 1000:.1f} ms"
        )
        if busy_p95 <= idle_p95 * 1.2:
            break
        # Over the line: two runs on an idle server alone differ by up to 10 % here, so the verdict is
        # taken once more on twice the samples; a real slowdown stays over it.
    assert busy_p95 <= idle_p95 * 1.2, (idle_p95, busy_p95)

    new_log = server.log()[log_before:]
    assert "Traceback" not in new_log and "ERROR" not in new_log, new_log[-3000:]
