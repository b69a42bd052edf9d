"""Renders take turns (medivisit/reactpy_compat/render_gate.py): at most RENDERS_AT_ONCE layout updates run at
once, in the order they came; a ReactPy whose layout no longer has the method it gates refuses to start."""

from __future__ import annotations

import asyncio

import pytest
from reactpy import component, html
from reactpy.core.layout import Layout
from reactpy.types import VdomDict

from medivisit.reactpy_compat import render_gate
from medivisit.reactpy_compat._guard import IncompatibleReactPy


async def test_layout_updates_take_turns_first_come_first_served(monkeypatch) -> None:
    render_gate.install()
    assert Layout._create_layout_update is render_gate._gated_update
    running, peak, started = 0, 0, []

    async def render(_layout: object, state: int) -> int:  # stands in for ReactPy's own update
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        started.append(state)
        for _ in range(5):  # a render's awaits: the other renders get their chance here
            await asyncio.sleep(0)
        running -= 1
        return state

    monkeypatch.setattr(render_gate, "_original", render)
    # The method installed on Layout (asserted above), called with stand-ins for a layout and its states.
    updates = await asyncio.gather(*(render_gate._gated_update(None, n) for n in range(7)))
    assert updates == list(range(7)) and started == list(range(7))
    assert peak == render_gate.RENDERS_AT_ONCE


async def test_a_gated_layout_still_renders() -> None:
    render_gate.install()
    render_gate.install()  # idempotent: the gate does not wrap itself

    @component
    def Page() -> VdomDict:
        return html.p("hello")

    async with Layout(Page()) as layout:
        update = await layout.render()
    assert update["model"]["children"][0] == {"tagName": "p", "children": ["hello"]}


def test_a_layout_without_the_gated_method_is_refused(monkeypatch) -> None:
    render_gate.install()
    monkeypatch.delattr(Layout, "_create_layout_update")
    with pytest.raises(IncompatibleReactPy, match="Layout has no _create_layout_update"):
        render_gate.install()
