"""What every patch checks before it touches ReactPy: the version it was written for, and every name
and text it replaces, wraps or reads.

A patch of private internals that no longer fits would otherwise go quiet: an attribute set on a class that
stopped reading it, a wrapper around a method that was renamed. `Patch` turns each of those into an
`IncompatibleReactPy` at start-up that names the patch, the package and the version it was written for.
"""

from __future__ import annotations

import importlib.metadata
from typing import Any, NoReturn

_ANYTHING = object()


class IncompatibleReactPy(RuntimeError):
    """The installed ReactPy (or reactpy-router) is not what a patch was written for: the server refuses to
    start rather than run with the patch silently switched off."""


def installed_version(package: str) -> str | None:
    """The installed version of a distribution, None if it is not installed."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _label(owner: Any) -> str:
    return getattr(owner, "__qualname__", None) or getattr(owner, "__name__", None) or repr(owner)


def _defines(owner: Any, name: str) -> bool:
    """Whether `owner` has `name` of its own: a class's attribute, method or slot (not `object`'s, which every
    class has), a module's global."""
    if isinstance(owner, type):
        return any(name in vars(klass) for klass in owner.__mro__ if klass is not object)
    return hasattr(owner, name)


class Patch:
    """One patch: the package and exact version it was written for, and the originals it replaced."""

    def __init__(self, name: str, *, package: str = "reactpy", version: str = "1.1.0") -> None:
        self.name, self.package, self.version = name, package, version
        self._originals: dict[tuple[Any, str], Any] = {}
        self._installed: dict[tuple[Any, str], Any] = {}

    def fail(self, problem: str) -> NoReturn:
        raise IncompatibleReactPy(
            f"{self.name} was written for {self.package} {self.version}: {problem}. "
            f"Check the patch against the new version's source, then change its version and the pin."
        )

    def check_version(self) -> None:
        found = installed_version(self.package)
        if found != self.version:
            self.fail(f"{self.package} {found} is installed" if found else f"{self.package} is not installed")

    def find(self, owner: Any, name: str) -> Any:
        """`owner.name`, which the patch replaces, wraps or reads."""
        self.require(owner, name)
        return getattr(owner, name)

    def require(self, owner: Any, *names: str) -> None:
        """Every name is defined by `owner` (slots included: reading them is how the patch uses instances)."""
        missing = [name for name in names if not _defines(owner, name)]
        if missing:
            self.fail(f"{_label(owner)} has no {', '.join(missing)}")

    def replace(self, owner: Any, name: str, new: Any, *, expected: Any = _ANYTHING) -> Any:
        """Put `new` in place of `owner.name` and return the original it replaced (the same one when the
        patch is installed again: installing is idempotent). With `expected`, the original must be that
        very object."""
        current = self.find(owner, name)
        key = (owner, name)
        if key in self._installed and current is self._installed[key]:
            original = self._originals[key]  # installed before: only our own replacement is replaced
        elif expected is not _ANYTHING and current is not expected:
            self.fail(f"{_label(owner)}.{name} is not {_label(expected)} but {_label(current)}")
        else:
            original = current
        self._originals[key], self._installed[key] = original, new
        setattr(owner, name, new)
        return original

    def require_text(self, text: str, old: str, *, where: str) -> None:
        """`old` occurs exactly once in `text` (a patch of a bundle by its exact text)."""
        found = text.count(old)
        if found != 1:
            self.fail(f"a patch of {where} matches {found} times instead of once ({old[:60]}…)")
