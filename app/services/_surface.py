"""The lazy public surface of a domain package: `from app.services.booking import place_order` imports the
private module that defines `place_order` on first use (PEP 562 module `__getattr__`).

Kept for the packages not yet converted to explicit surfaces. To convert one, once no cycle runs through it
(explicit imports fail at import time on a cycle): replace `PUBLIC` and the `public_surface` call with
`from app.services.<domain>._<module> import <names>` lines and `__all__`, as app/services/staff/__init__.py
does; a name a private module only re-exports from `app.services.shared` is imported from there."""

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
