"""The task-local hook stack (medivisit/reactpy_compat/hook_stack.py): two renders interleaving on one thread
each see their own component's hook (ReactPy 1.1's thread-local stack gave one the other's, then failed
with "Hook stack is in an invalid state"). tests/api/test_concurrent_sessions.py opens hundreds at once."""

from __future__ import annotations

import asyncio

import pytest
from reactpy.core import _life_cycle_hook as life_cycle
from reactpy.core import hooks
from reactpy.core._life_cycle_hook import LifeCycleHook

from medivisit.reactpy_compat import hook_stack
from medivisit.reactpy_compat._guard import IncompatibleReactPy


async def test_interleaved_renders_keep_their_own_hook() -> None:
    hook_stack.install()
    assert hooks.current_hook is hook_stack.current_hook is life_cycle.current_hook
    both_rendering = asyncio.Barrier(2)

    async def render(hook: LifeCycleHook) -> LifeCycleHook:
        hook.set_current()
        await both_rendering.wait()  # the other render starts in between, on the same thread
        current = hooks.current_hook()
        hook.unset_current()
        return current

    first, second = LifeCycleHook(lambda: None), LifeCycleHook(lambda: None)
    assert await asyncio.gather(render(first), render(second)) == [first, second]
    with pytest.raises(RuntimeError, match="No life cycle hook is active"):
        hooks.current_hook()


def test_a_hook_without_the_replaced_methods_is_refused(monkeypatch) -> None:
    hook_stack.install()
    monkeypatch.delattr(LifeCycleHook, "set_current")
    with pytest.raises(IncompatibleReactPy, match="LifeCycleHook has no set_current"):
        hook_stack.install()


def test_hooks_calling_another_current_hook_is_refused(monkeypatch) -> None:
    hook_stack.install()
    monkeypatch.setattr(
        hooks, "current_hook", lambda: None
    )  # ReactPy's hooks no longer call the one replaced
    with pytest.raises(IncompatibleReactPy, match="hooks.current_hook is not"):
        hook_stack.install()
