"""A closed tab gives its memory back at once (medivisit/reactpy_teardown.py): the state its components
held is freed when the layout exits, not left in reference cycles for a full garbage collection."""

from __future__ import annotations

import gc
import weakref

from reactpy import component, html, use_effect, use_state
from reactpy.core.layout import Layout

from medivisit import reactpy_teardown


class Held:
    """Something a component keeps in its state (a page's data)."""


async def test_a_closed_layout_frees_its_components_state_without_a_collection() -> None:
    reactpy_teardown.install()
    held: list[weakref.ref[Held]] = []

    @component
    def Child() -> dict:
        value, set_value = use_state(Held)
        held.append(weakref.ref(value))

        @use_effect(dependencies=[])
        async def load() -> None:
            set_value(value)  # a setter used from an effect, as the hooks do

        return html.p("child")

    @component
    def Page() -> dict:
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
