"""A closed tab's components are always unmounted.

When a websocket closes, ReactPy 1.1 leaves its layout inside an anyio cancel scope that cancels every
await, again and again. Unmounting awaits each component's effects as they stop, so the first of those
awaits ends the unmount: the components after it keep effect tasks waiting for a stop that never comes,
and the garbage collector logs "Task was destroyed but it is pending!" for each (seen when 1,000 tabs
closed at once in the load gate). `install()` runs the layout's exit on a task of its own, which the
cancel scope cannot reach; the closing connection waits for it only as long as it is allowed to.

A render running on a task of its own when the tab closes (the first frame's, first_paint.py,
which is never cancelled halfway) would start its components' effects after that unmount, with nobody left
to stop them: `finish_before_exit` makes the layout's exit wait for such a render first. And a render cut
short by the closing tab still starts the effects of the components it had rendered, which are not in the
layout's tree, so its unmount never reaches them: every component that starts effects is noted with its
layout, and the layout's exit stops the effects of those it did not unmount.

Once unmounted, the tab's components are cut loose from their state (ReactPy's state setters hold their
state in a reference cycle), so that their memory goes back at once rather than at the next full garbage
collection (medivisit/collector.py).

Effects start here too: the `use_effect` of components/effects.py starts after its render without a task
and is stopped by the unmount (a mounted effect then costs the tab no waiting task, event or future).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING, Any

from reactpy.core import _life_cycle_hook as life_cycle
from reactpy.core import hooks as reactpy_hooks
from reactpy.core import layout as reactpy_layout

from components.effects import Effect
from medivisit.reactpy_compat._guard import Patch

if TYPE_CHECKING:
    from reactpy.core._life_cycle_hook import LifeCycleHook
    from reactpy.core.layout import Layout, _ModelState

PATCH = Patch(__name__)
_original_exit: Any = None
_original_did_render: Any = None
_hooks: weakref.WeakKeyDictionary[Layout, weakref.WeakSet[LifeCycleHook]] = weakref.WeakKeyDictionary()
_exits: set[asyncio.Task[None]] = set()
_renders: weakref.WeakKeyDictionary[Layout, asyncio.Future[Any]] = weakref.WeakKeyDictionary()
RENDER_GRACE_SECONDS = 30


def finish_before_exit(layout: Layout, render: asyncio.Future[Any]) -> None:
    """The layout's exit waits for `render` (a render on a task of its own) before unmounting."""
    _renders[layout] = render


def _layout_of(hook: LifeCycleHook) -> Layout | None:
    """The layout a component's hook schedules its renders on (ReactPy keeps it in a closure only)."""
    for cell in getattr(hook._schedule_render_callback, "__closure__", None) or ():  # noqa: SLF001
        owner = getattr(cell.cell_contents, "__self__", None)
        if isinstance(owner, reactpy_layout.Layout):
            return owner
    return None


async def _did_render(self: LifeCycleHook) -> None:
    """Start the effects this render changed. ReactPy adds a stop event on every render, effects or not,
    and a task per effect: our `Effect`s start here without one (components/effects.py) and are stopped
    by the unmount's `set()`; anything else goes ReactPy's way."""
    effects = self._effect_funcs  # noqa: SLF001
    if not effects:
        return
    layout = _layout_of(self)  # effects are about to start: note whose they are
    if layout is not None:
        _hooks.setdefault(layout, weakref.WeakSet()).add(self)
    others = [effect for effect in effects if not isinstance(effect, Effect)]
    for effect in effects:
        if isinstance(effect, Effect):
            if not effect.mounted:
                effect.mounted = True
                # ReactPy declares its stop events asyncio.Events but only ever calls their set(), which
                # an Effect has: no narrower type of ReactPy's says so.
                self._effect_stops.append(effect)  # type: ignore[arg-type]  # noqa: SLF001
            effect.start()
    effects[:] = others
    if others:
        await _original_did_render(self)


def _ignore(new: Any) -> None:  # `new`: the name of the setter it stands in for
    """A closed tab's state setter: an effect finishing late may still call it."""


def _release_hook(hook: LifeCycleHook) -> None:
    for state in hook._state:  # noqa: SLF001
        if isinstance(state, reactpy_hooks._CurrentState):  # noqa: SLF001
            state.dispatch = _ignore  # the setter's closure holds the state: a cycle
    hook._state = ()  # noqa: SLF001
    hook._context_providers.clear()  # noqa: SLF001


def _release(root: _ModelState) -> None:
    """Break the reference cycles of an unmounted tree, so that its memory goes back at once instead of
    waiting for a full collection (a tab is thousands of objects: 1,000 closed tabs left 1.3 million for
    the collector, whose full pass then held the event loop for 2 s)."""
    stack = [root]
    while stack:
        state = stack.pop()
        stack.extend(state.children_by_key.values())
        state.children_by_key.clear()
        if state.is_component_state:
            _release_hook(state.life_cycle_state.hook)


async def _exit_after_render(layout: Layout, *exc: Any) -> None:
    render = _renders.pop(layout, None)
    if render is not None and not render.done():
        await asyncio.wait({render}, timeout=RENDER_GRACE_SECONDS)
    states = getattr(layout, "_model_states_by_life_cycle_state_id", {})  # unset if it never entered
    root = states.get(getattr(layout, "_root_life_cycle_state_id", None))
    try:
        await _original_exit(layout, *exc)
    finally:
        for hook in list(_hooks.pop(layout, ())):
            if hook._effect_stops:  # noqa: SLF001 - never unmounted: stop its effects now
                await hook.affect_component_will_unmount()
            _release_hook(hook)
        if root is not None:
            _release(root)


async def _exit_to_the_end(self: Layout, *exc: Any) -> None:
    task = asyncio.create_task(_exit_after_render(self, *exc))
    _exits.add(task)
    task.add_done_callback(_exits.discard)
    await asyncio.shield(task)


def install() -> None:
    """Run every layout's exit to its end, and start `use_effect`s without a task each (idempotent)."""
    global _original_exit, _original_did_render
    PATCH.check_version()
    layout = PATCH.find(reactpy_layout, "Layout")
    hook = PATCH.find(life_cycle, "LifeCycleHook")
    # What the exit, the release and the taskless effects read (all slots of ReactPy's classes).
    PATCH.require(layout, "_model_states_by_life_cycle_state_id", "_root_life_cycle_state_id")
    model_state = PATCH.find(reactpy_layout, "_ModelState")
    PATCH.require(model_state, "children_by_key", "is_component_state", "life_cycle_state")
    PATCH.require(hook, "_schedule_render_callback", "_effect_funcs", "_effect_stops", "_state")
    PATCH.require(hook, "_context_providers", "add_effect", "affect_component_will_unmount")
    PATCH.require(PATCH.find(reactpy_hooks, "_CurrentState"), "dispatch")
    PATCH.require(reactpy_hooks, "current_hook", "_try_to_infer_closure_values")  # components/effects.py
    _original_exit = PATCH.replace(layout, "__aexit__", _exit_to_the_end)
    _original_did_render = PATCH.replace(hook, "affect_layout_did_render", _did_render)
