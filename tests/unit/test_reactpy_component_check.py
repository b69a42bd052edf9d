"""The remembered "is this a component?" (medivisit/reactpy_compat/component_check.py): the same answers as
ReactPy's protocol check, once per class; it refuses to replace a `ComponentType` that is not ReactPy's."""

from __future__ import annotations

import pytest
from reactpy import component, html
from reactpy.core import layout as reactpy_layout
from reactpy.core import vdom
from reactpy.core.layout import Layout
from reactpy.types import ComponentType, VdomDict

from medivisit.reactpy_compat import component_check
from medivisit.reactpy_compat._guard import IncompatibleReactPy
from medivisit.reactpy_compat.component_check import FastComponentType


class Custom:
    """A component of its own class: anything with the protocol's attributes is one."""

    key = None
    type = object

    def render(self) -> VdomDict:
        return html.p("custom")


@component
def Leaf() -> VdomDict:
    return html.li("leaf")


async def test_the_answers_are_reactpys_and_are_remembered_per_class() -> None:
    component_check.install()
    assert reactpy_layout.ComponentType is FastComponentType and vdom.ComponentType is FastComponentType
    for value in (Leaf(), Custom(), html.p("x"), "text", None):
        assert isinstance(value, FastComponentType) == isinstance(value, ComponentType)
    assert FastComponentType._answers[type(Leaf())] is True and FastComponentType._answers[Custom] is True
    assert FastComponentType._answers[dict] is False

    @component
    def Page() -> VdomDict:
        return html.ul(Leaf(key="a"), Custom())

    async with Layout(Page()) as layout:
        update = await layout.render()
    assert "leaf" in str(update["model"]) and "custom" in str(update["model"])


def test_a_check_that_is_not_reactpys_protocol_is_refused(monkeypatch) -> None:
    component_check.install()
    monkeypatch.setattr(vdom, "ComponentType", Custom)  # an upgrade that checks against something else
    with pytest.raises(IncompatibleReactPy, match="vdom.ComponentType is not ComponentType but Custom"):
        component_check.install()
    monkeypatch.delattr(vdom, "ComponentType")  # or no longer checks by that name at all
    with pytest.raises(IncompatibleReactPy, match="has no ComponentType"):
        component_check.install()
