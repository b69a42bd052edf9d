"""Fix for reactpy 1.1.0's thread-local hook stack.

reactpy 1.1 keeps the stack of rendering components in a per-*thread* list, but renders are asyncio
tasks that interleave on one thread: when two page loads render at the same moment, one task pops the
other's hook ("Hook stack is in an invalid state") and both websockets close. Upstream fixed this only
in the 2.0 betas (reactpy PR #1254) by keeping the stack in a ContextVar.

This module does the same for 1.1: the stack lives in a ContextVar holding an immutable tuple, so each
asyncio task sees its own stack, and a task created mid-render (effects, scheduled renders) inherits a
snapshot it can never mutate for its parent. It replaces `LifeCycleHook.set_current` / `unset_current`
and the two module globals `current_hook` that ReactPy's hooks call.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING

from reactpy.core import _life_cycle_hook as life_cycle
from reactpy.core import hooks

from medivisit.reactpy_compat._guard import Patch

if TYPE_CHECKING:
    from reactpy.core._life_cycle_hook import LifeCycleHook

PATCH = Patch(__name__)
_stack: ContextVar[tuple[LifeCycleHook, ...]] = ContextVar("reactpy_hook_stack", default=())


def current_hook() -> LifeCycleHook:
    """The hook of the component rendering in this task."""
    stack = _stack.get()
    if not stack:
        raise RuntimeError("No life cycle hook is active. Are you rendering in a layout?")
    return stack[-1]


def _set_current(self: LifeCycleHook) -> None:
    stack = _stack.get()
    if stack:
        self._context_providers.update(stack[-1]._context_providers)
    _stack.set((*stack, self))


def _unset_current(self: LifeCycleHook) -> None:
    stack = _stack.get()
    if not stack or stack[-1] is not self:
        raise RuntimeError("Hook stack is in an invalid state")
    _stack.set(stack[:-1])


def install() -> None:
    """Swap reactpy's thread-local stack for the task-local one (idempotent)."""
    PATCH.check_version()
    hook_class = PATCH.find(life_cycle, "LifeCycleHook")
    PATCH.require(hook_class, "_context_providers")
    PATCH.replace(hook_class, "set_current", _set_current)
    PATCH.replace(hook_class, "unset_current", _unset_current)
    original = PATCH.replace(life_cycle, "current_hook", current_hook)
    PATCH.replace(hooks, "current_hook", current_hook, expected=original)  # the name hooks.py imported
