"""A closed tab gives its memory back at once (medivisit/reactpy_compat/teardown.py): the state its components
held is freed when the layout exits, not left in reference cycles for a full garbage collection."""

from __future__ import annotations

import gc
import weakref

import pytest
from reactpy import component, html, use_effect, use_state
from reactpy.core._life_cycle_hook import LifeCycleHook
from reactpy.core.layout import Layout
from reactpy.types import VdomDict

from medivisit.reactpy_compat import teardown
from medivisit.reactpy_compat._guard import IncompatibleReactPy


class Held:
    """Something a component keeps in its state (a page's data)."""


async def test_a_closed_layout_frees_its_components_state_without_a_collection() -> None:
    teardown.install()
    held: list[weakref.ref[Held]] = []

    @component
    def Child() -> VdomDict:
        value, set_value = use_state(Held)
        held.append(weakref.ref(value))

        @use_effect(dependencies=[])
        async def load() -> None:
            set_value(value)  # a setter used from an effect, as the hooks do

        return html.p("child")

    @component
    def Page() -> VdomDict:
        value, _set_value = use_state(Held)
        held.append(weakref.ref(value))
        return html.div(Child(), Child())

    gc.collect()
    gc.disable()
    try:
        async with Layout(Page()) as layout:
            await layout.render()
        assert len(held) == 3
        assert [ref() for ref in held] == [None, None, None]
    finally:
        gc.enable()


def test_a_reactpy_without_the_replaced_or_read_names_is_refused(monkeypatch) -> None:
    teardown.install()
    monkeypatch.delattr(LifeCycleHook, "affect_layout_did_render")
    with pytest.raises(IncompatibleReactPy, match="LifeCycleHook has no affect_layout_did_render"):
        teardown.install()
    monkeypatch.undo()
    monkeypatch.delattr(LifeCycleHook, "_effect_stops")  # a slot the taskless effects and the exit read
    with pytest.raises(IncompatibleReactPy, match="LifeCycleHook has no _effect_stops"):
        teardown.install()
