"""Every patch of ReactPy 1.1's private internals (and the check of reactpy-router's that the app's router
uses), one module per patch, installed together at start-up by `install()`.

Each patch says in its docstring what it fixes and why. When installed it checks that the installed package
is the exact version it was written for and that every name it replaces, wraps or reads (and, for the
browser client, every text it patches) is there, and raises `IncompatibleReactPy`, naming the patch, the
package and the version, when not: an upgrade stops the server at start-up instead of silently switching a
fix off. The versions are pinned in pyproject.toml and requirements.lock; raising a pin means checking each
patch against the new version's source and changing its `PATCH` version with the pin.

`smallest_updates` is no patch: it is what the patched outgoing loop of `first_paint` sends.
"""

from __future__ import annotations

from medivisit.reactpy_compat import (
    client,
    component_check,
    first_paint,
    hook_stack,
    paths,
    render_gate,
    router_internals,
    teardown,
    websocket_guard,
)
from medivisit.reactpy_compat._guard import IncompatibleReactPy

__all__ = ["IncompatibleReactPy", "install"]


def install(*, first_paint_budget: float) -> None:
    """Install every patch (idempotent); `first_paint_budget` is how long, in seconds, a live connection's
    first frame may wait for the reads it started (medivisit/reactpy_compat/first_paint.py)."""
    hook_stack.install()
    render_gate.install()
    component_check.install()
    teardown.install()
    paths.install()
    websocket_guard.install()
    first_paint.install(first_paint_budget)
    client.install()
    router_internals.install()
