"""`use_effect`: ReactPy's effect hook (same arguments, same dependencies rule), except that a mounted
effect waiting for its component to unmount costs no asyncio task.

ReactPy 1.1 runs every effect in a task of its own that then waits, for the component's whole life, for
an event set at unmount (plus a second task for an `async def` effect). An open `/` tab held ~70 such
waiting tasks with their coroutines, events and futures. Here each `use_effect` is one `Effect` object:
started after the render whose dependencies changed, its clean-up kept, and stopped at unmount by
ReactPy's own unmount call (`stop.set()` on what the hook keeps as its stop events). Only an `async def`
effect still has a task, which ends when its coroutine does.

The taskless start is installed with the other ReactPy fixes at startup
(medivisit/reactpy_compat/teardown.py); without it an `Effect` is still a valid ReactPy effect and runs the
usual way (a task waiting to stop).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from types import EllipsisType
from typing import Any, overload

from reactpy import Ref, use_memo, use_ref
from reactpy.core import hooks as reactpy_hooks

logger = logging.getLogger(__name__)

Cleanup = Callable[[], None]
EffectFunction = Callable[[], Cleanup | None] | Callable[[], Coroutine[Any, Any, Cleanup | None]]


class Effect:
    """One `use_effect` of one component: `start()` after a render whose dependencies changed (the last
    run's clean-up first), `set()` when the component unmounts (ReactPy's name for stopping an effect)."""

    __slots__ = ("clean", "function", "mounted")

    def __init__(self) -> None:
        self.function: EffectFunction | None = None
        self.clean: Cleanup | None = None
        self.mounted = False  # already among the hook's stop events

    def start(self) -> None:
        self.set()
        function = self.function
        if function is None:
            return
        try:
            started = function()  # an `async def` effect's coroutine has not run yet: it runs as a task
            if asyncio.iscoroutine(started):
                self.clean = _cancel_or_clean(asyncio.create_task(started))
            else:
                self.clean = started
        except Exception:
            logger.exception("Error in effect")

    def set(self) -> None:
        clean, self.clean = self.clean, None
        if clean is None:
            return
        try:
            clean()
        except Exception:
            logger.exception("Error in effect clean-up")

    async def __call__(self, stop: asyncio.Event) -> None:
        """ReactPy's own way, where the taskless start is not installed: start, wait for the stop, clean."""
        self.start()
        await stop.wait()
        self.set()


def _cancel_or_clean(task: asyncio.Task[Cleanup | None]) -> Cleanup:
    """An `async def` effect's clean-up: cancel it if it still runs, else run the clean-up it returned."""

    def clean() -> None:
        if task.cancel() or task.cancelled() or task.exception() is not None:
            return  # a failure was logged by the effect's own handler or is reported by asyncio
        after = task.result()
        if after is not None:
            after()

    return clean


Dependencies = Sequence[Any] | EllipsisType | None  # ...: inferred from the closure, as ReactPy does


@overload
def use_effect(
    function: None = None, dependencies: Dependencies = ...
) -> Callable[[EffectFunction], None]: ...
@overload
def use_effect(function: EffectFunction, dependencies: Dependencies = ...) -> None: ...
def use_effect(
    function: EffectFunction | None = None, dependencies: Dependencies = ...
) -> Callable[[EffectFunction], None] | None:
    """ReactPy's `use_effect`: `function` runs after the first render and after each render whose
    `dependencies` changed (by identity), its returned clean-up before the next run and at unmount.
    Also a decorator: `@use_effect(dependencies=[...])`."""
    dependencies = reactpy_hooks._try_to_infer_closure_values(function, dependencies)  # noqa: SLF001
    memoize = use_memo(dependencies=dependencies)
    ref: Ref[Effect | None] = use_ref(None)
    hook = reactpy_hooks.current_hook()

    def add_effect(function: EffectFunction) -> None:
        def changed() -> None:
            effect = ref.current
            if effect is None:
                effect = ref.current = Effect()
            effect.function = function
            hook.add_effect(effect)

        memoize(changed)

    if function is not None:
        add_effect(function)
        return None
    return add_effect
