"""The first frame of a page, settled: rendered on the server into the page's HTML, and sent whole as the
live connection's first message.

Without it every page read "Loading…" until the scripts had run, the websocket had connected and the first
render had come back, and then showed its loading states until the data arrived. `settled_frame` renders a
layout once, lets the reads its hooks started finish (up to the setting FIRST_PAINT_BUDGET_MS), applies the
re-renders they cause, and returns the whole model.

- `render_first_frame` does that for the HTTP request of a public page (its cookies, its URL) and writes
  the model as HTML: content and plain `<a href>` links before any script runs (search engines see them),
  and sign-in forms that post without script.
- `install` makes the live connection's first message the settled frame as well, so when the live tree
  first draws, it draws the same finished page; static/js/first-paint.js then removes the server's copy
  in the same frame: no flash of "Loading…", no layout shift. It also carries over what was typed and the
  button clicked in the server's copy before the live tree took over.

The model is written as HTML by components/html_writer.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from reactpy import Layout
from reactpy.backend.types import Connection, Location
from reactpy.core import layout as reactpy_layout
from reactpy.core import serve as reactpy_serve
from reactpy.core.hooks import ConnectionContext
from reactpy.types import ComponentType

from components.hooks import LoadsInFlight, loads_in_flight
from components.html_writer import model_to_html
from medivisit.reactpy_compat import teardown
from medivisit.reactpy_compat._guard import Patch
from medivisit.reactpy_compat.smallest_updates import SmallestUpdates, replaced

PATCH = Patch(__name__)
MAX_RENDERS = 40  # a screen that keeps re-rendering is cut off here


async def render_first_frame(
    root: ComponentType,
    *,
    scope: Mapping[str, Any],
    location: Location,
    budget: float,
) -> str:
    """The HTML of `root`'s first settled frame for this request (see `settled_frame`)."""
    connection = Connection(scope=dict(scope), location=location, carrier=None)
    async with Layout(ConnectionContext(root, value=connection)) as layout:
        model, unfinished = await settled_frame(layout, budget)
        if unfinished is not None:
            unfinished.cancel()  # this layout is thrown away: a render cut short harms nothing
    return model_to_html(model)


async def settled_frame(layout: Layout, budget: float) -> tuple[Any, asyncio.Task | None]:
    """The layout's first frame once the hooks' reads it started are done and the re-renders they caused
    are in (or `budget` seconds have passed): one whole model, as a page shows it. Also the render still
    running when the budget ran out, if one was: cancelled halfway it would leave the layout's hooks
    broken, so a live layout sends its update next."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    tracker = LoadsInFlight()
    token = loads_in_flight.set(tracker)  # effects and loads started by the renders below inherit it
    try:
        model = (await layout.render())["model"]
        for _ in range(MAX_RENDERS):
            if not await _settling(layout, tracker, deadline):
                break
            render = asyncio.ensure_future(layout.render())
            teardown.finish_before_exit(layout, render)
            await asyncio.wait({render}, timeout=max(deadline - loop.time(), 0))
            if not render.done():
                return model, render
            update = render.result()
            model = replaced(model, update["path"], update["model"])
    finally:
        loads_in_flight.reset(token)  # later renders' loads are not waited for
    return model, None


def install(budget: float) -> None:
    """The live connection's first message is the settled frame too, so the page it replaces (the first
    frame in the HTML) is never swapped for one still loading; later updates go as their smallest changed
    parts (smallest_updates.py). Replaces `reactpy.core.serve._single_outgoing_loop`, the loop that
    `serve_layout` runs to send a layout's updates."""
    PATCH.check_version()
    PATCH.require(reactpy_serve, "serve_layout")  # which runs the loop replaced, by its module global
    PATCH.require(PATCH.find(reactpy_layout, "Layout"), "_rendering_queue")  # `_settling` reads its _pending
    queue = PATCH.find(reactpy_layout, "_ThreadSafeQueue")
    if "_pending" not in PATCH.find(queue, "__init__").__code__.co_names:
        PATCH.fail("_ThreadSafeQueue.__init__ sets no _pending")

    async def outgoing(layout: Layout, send: Any) -> None:
        browser = SmallestUpdates()

        async def send_smallest(update: Any) -> None:
            for message in browser.messages(update):
                await send(message)

        async def first_frame() -> Any:
            model, unfinished = await settled_frame(layout, budget)
            await send_smallest({"type": "layout-update", "path": "", "model": model})
            return unfinished

        try:
            unfinished = await first_frame()
            if unfinished is not None:
                await send_smallest(await unfinished)
                unfinished = None
            while True:
                await send_smallest(await layout.render())
        finally:
            # The closing tab cancels this loop; the cancellation's traceback keeps these frames (and so
            # their locals) in a reference cycle until a full collection: let them hold nothing big.
            browser.model = None

    PATCH.replace(reactpy_serve, "_single_outgoing_loop", outgoing)


async def _settling(layout: Layout, tracker: LoadsInFlight, deadline: float) -> bool:
    """Whether a re-render is due before the deadline (waiting for the reads in flight to cause one)."""
    loop = asyncio.get_running_loop()
    while True:
        for _ in range(3):  # the effects of the last render start (and start their loads)
            await asyncio.sleep(0)
        remaining = deadline - loop.time()
        if remaining <= 0:
            return False
        if layout._rendering_queue._pending:  # noqa: SLF001 - reactpy 1.1 has no public "is a render due"
            return True
        if tracker.count == 0:
            return False
        try:
            await asyncio.wait_for(tracker.idle.wait(), timeout=remaining)
        except TimeoutError:
            return False
