"""`use_effect` (components/effects.py) as the server runs it (medivisit/reactpy_compat/teardown.py installed):
effects run after the render, clean up before their next run and at unmount, and a mounted effect waits
without an asyncio task."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state
from reactpy.core.layout import Layout
from reactpy.types import VdomDict

from components.effects import use_effect
from medivisit.reactpy_compat import hook_stack, teardown


def _setup() -> None:
    hook_stack.install()
    teardown.install()


async def test_effects_run_clean_up_and_stop_without_waiting_tasks() -> None:
    _setup()
    log: list[str] = []
    setters: dict[str, Callable[[Any], None]] = {}

    @component
    def Child(name: str) -> VdomDict:
        count, set_count = use_state(0)
        setters[name] = set_count

        @use_effect(dependencies=[count])
        def announce():  # noqa: ANN202
            log.append(f"{name} start {count}")
            return lambda: log.append(f"{name} clean {count}")

        @use_effect(dependencies=[])
        async def listen() -> None:
            try:
                await asyncio.Event().wait()  # a subscription that runs until unmount
            except asyncio.CancelledError:
                log.append(f"{name} listener cancelled")
                raise

        return html.p(name)

    @component
    def Page() -> VdomDict:
        shown, set_shown = use_state(True)
        setters["page"] = set_shown
        return html.div(Child("a") if shown else html.p("gone"))

    before = len(asyncio.all_tasks())
    async with Layout(Page()) as layout:
        await layout.render()
        assert log == ["a start 0"]  # started by the render itself, not a task later
        await asyncio.sleep(0)
        # one task: the async listener doing its work; none waiting for the unmount
        assert len(asyncio.all_tasks()) - before == 1

        setters["a"](1)
        await layout.render()
        assert log[1:] == ["a clean 0", "a start 1"]
        assert len(asyncio.all_tasks()) - before == 1  # the listener did not restart

        setters["page"](False)
        await layout.render()
        await asyncio.sleep(0)
        assert "a clean 1" in log
        assert "a listener cancelled" in log
    assert len(asyncio.all_tasks()) == before


async def test_a_failing_effect_is_logged_and_the_page_still_renders(caplog) -> None:  # noqa: ANN001
    _setup()

    @component
    def Page() -> VdomDict:
        @use_effect(dependencies=[])
        def broken() -> None:
            raise RuntimeError("boom")

        return html.p("still here")

    async with Layout(Page()) as layout:
        update = await layout.render()
    assert "still here" in str(update["model"])
    assert "Error in effect" in caplog.text
