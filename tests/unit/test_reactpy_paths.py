"""Tabs of the same page share their elements' patch paths (medivisit/reactpy_compat/paths.py)."""

from __future__ import annotations

import pytest
from reactpy import component, html
from reactpy.core.layout import Layout, _ModelState
from reactpy.types import VdomDict

from medivisit.reactpy_compat import paths
from medivisit.reactpy_compat._guard import IncompatibleReactPy


def _paths(layout: Layout) -> dict[str, str]:
    states = layout._model_states_by_life_cycle_state_id.values()  # the components' states
    found: dict[str, str] = {}
    stack = list(states)
    while stack:
        state = stack.pop()
        found[state.patch_path] = state.patch_path
        stack.extend(state.children_by_key.values())
    return found


async def test_two_tabs_of_a_page_hold_one_copy_of_each_path() -> None:
    paths.install()

    @component
    def Leaf(n: int) -> VdomDict:
        return html.li(f"item {n}")

    @component
    def Page() -> VdomDict:
        return html.div(html.ul(*(Leaf(n, key=str(n)) for n in range(3))))

    async with Layout(Page()) as first, Layout(Page()) as second:
        await first.render()
        await second.render()
        one, other = _paths(first), _paths(second)
    deep = [path for path in one if path.count("/children/") >= 3]
    assert deep and set(one) == set(other)
    assert all(one[path] is other[path] for path in deep)  # the same string object, not an equal copy


def test_a_model_state_built_without_a_patch_path_is_refused(monkeypatch) -> None:
    paths.install()
    monkeypatch.setattr(_ModelState, "__init__", lambda self, *args, path, **kwargs: None)
    with pytest.raises(IncompatibleReactPy, match="_ModelState.__init__ takes no patch_path"):
        paths.install()
    monkeypatch.delattr(_ModelState, "__init__")
    with pytest.raises(IncompatibleReactPy, match="_ModelState has no __init__"):
        paths.install()
