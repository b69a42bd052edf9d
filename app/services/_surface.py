"""The lazy public surface of a domain package: `from app.services.staff import add_staff` imports the
private module that defines `add_staff` on first use (PEP 562 module `__getattr__`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def public_surface(
    package: str, public: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """`__getattr__`, `__dir__` and `__all__` for `package`, from {private module: names it exports}."""
    home = {name: module for module, names in public.items() for name in names}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's name
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(home)

    return __getattr__, __dir__, sorted(home)
