"""A faster "is this a component?" for reactpy 1.1.

ReactPy asks `isinstance(child, ComponentType)` for every child of every element it renders and every
element it builds. `ComponentType` is a runtime-checkable `typing.Protocol`, and on Python 3.11 each such
check walks the protocol's members: it was 15 % of a page render's time in a profile of 400 tabs opening at
once. Whether a value is a component depends on its class only (ReactPy's own `Component`, or a class with
the protocol's attributes), so the answer is remembered per class. `install()` replaces the name
`ComponentType` in the two modules that make those checks (the layout and the VDOM builder).
"""

from __future__ import annotations

from typing import Any

from reactpy import types
from reactpy.core import layout, vdom

from medivisit.reactpy_compat._guard import Patch

PATCH = Patch(__name__)


class _ComponentCheckMeta(type):
    _answers: dict[type, bool] = {}
    protocol: Any = None  # reactpy.types.ComponentType, set by install()

    def __instancecheck__(cls, value: Any) -> bool:
        kind = type(value)
        answer = cls._answers.get(kind)
        if answer is None:
            answer = cls._answers[kind] = isinstance(value, cls.protocol)
        return answer


class FastComponentType(metaclass=_ComponentCheckMeta):
    """Stands in for `ComponentType` in ReactPy's isinstance checks."""


def install() -> None:
    """Point the layout's and the VDOM builder's checks at the remembered answers (idempotent)."""
    PATCH.check_version()
    protocol = _ComponentCheckMeta.protocol = PATCH.find(types, "ComponentType")
    for module in (layout, vdom):
        PATCH.replace(module, "ComponentType", FastComponentType, expected=protocol)
