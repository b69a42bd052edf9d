"""Every open tab of a page shares one copy of each element's patch path, installed once at startup.

ReactPy 1.1 keeps, for each element of a tab, the path of the element in the page as a string
("/children/0/children/0/…/children/3"): components nest, so these run to hundreds of characters, and a
`/` tab held ~70 of them (14 KiB). Tabs of the same page have the same paths: interned, each path is
kept once for all of them, and freed with the last tab that uses it.
"""

from __future__ import annotations

import sys
from typing import Any

from reactpy.core.layout import _ModelState

_original_init = _ModelState.__init__


def _init(self: _ModelState, *args: Any, patch_path: str, **kwargs: Any) -> None:
    _original_init(self, *args, patch_path=sys.intern(patch_path), **kwargs)  # ReactPy passes keywords


def install() -> None:
    """Intern every model state's patch path (idempotent)."""
    _ModelState.__init__ = _init
