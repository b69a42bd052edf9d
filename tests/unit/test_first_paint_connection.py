"""The live connection's first message is the settled frame (medivisit/reactpy_compat/first_paint.py): the
page once the reads its first render started are in, not its loading state; later updates go as their
smallest changed parts. A ReactPy whose serve loop is not the one replaced refuses to start."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from reactpy import component, html, use_state
from reactpy.core import serve
from reactpy.core.layout import Layout
from reactpy.core.types import LayoutUpdateMessage
from reactpy.types import VdomDict

from components.effects import use_effect
from medivisit.reactpy_compat import first_paint, hook_stack, teardown
from medivisit.reactpy_compat._guard import IncompatibleReactPy


async def test_the_first_message_is_the_settled_page_then_the_smallest_changes() -> None:
    hook_stack.install()
    teardown.install()
    first_paint.install(1.0)
    setters: list[Any] = []

    @component
    def Page() -> VdomDict:
        loaded, set_loaded = use_state(False)
        count, set_count = use_state(0)
        setters.append(set_count)

        @use_effect(dependencies=[])
        def load() -> None:
            set_loaded(True)  # the data arrived: a re-render is due before the first message goes

        return html.div(
            html.h1("Providers"), html.p("loaded" if loaded else "Loading…"), html.span(str(count))
        )

    sent: list[LayoutUpdateMessage] = []
    arrived = asyncio.Event()

    async def send(message: LayoutUpdateMessage) -> None:
        sent.append(message)
        arrived.set()

    async def recv() -> Any:
        await asyncio.Event().wait()  # the browser sends nothing

    connection = asyncio.create_task(serve.serve_layout(Layout(Page()), send, recv))
    try:
        await asyncio.wait_for(arrived.wait(), 10)
        (first,) = sent
        assert first["path"] == "" and "loaded" in json.dumps(first) and "Loading" not in json.dumps(first)
        arrived.clear()
        setters[-1](1)
        await asyncio.wait_for(arrived.wait(), 10)
        assert sent[1]["path"].endswith("/children/2/children/0") and sent[1]["model"] == "1"  # just the text
    finally:
        connection.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await connection


def test_a_reactpy_without_the_replaced_loop_is_refused(monkeypatch) -> None:
    first_paint.install(0.3)
    monkeypatch.delattr(serve, "_single_outgoing_loop")
    with pytest.raises(IncompatibleReactPy, match="reactpy.core.serve has no _single_outgoing_loop"):
        first_paint.install(0.3)
