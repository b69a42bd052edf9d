"""Every open tab of a page shares one copy of each element's patch path.

ReactPy 1.1 keeps, for each element of a tab, the path of the element in the page as a string
("/children/0/children/0/…/children/3"): components nest, so these run to hundreds of characters, and a
`/` tab held ~70 of them (14 KiB). Tabs of the same page have the same paths: interned, each path is
kept once for all of them, and freed with the last tab that uses it. `install()` wraps
`_ModelState.__init__`, which ReactPy calls with the path as the keyword `patch_path`.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

from reactpy.core import layout

from medivisit.reactpy_compat._guard import Patch

PATCH = Patch(__name__)
_original_init: Any = None


def _init(self: Any, *args: Any, patch_path: str, **kwargs: Any) -> None:
    _original_init(self, *args, patch_path=sys.intern(patch_path), **kwargs)


def install() -> None:
    """Intern every model state's patch path (idempotent)."""
    global _original_init
    PATCH.check_version()
    model_state = PATCH.find(layout, "_ModelState")
    init = PATCH.find(model_state, "__init__")
    if init is not _init and "patch_path" not in inspect.signature(init).parameters:
        PATCH.fail("_ModelState.__init__ takes no patch_path")
    _original_init = PATCH.replace(model_state, "__init__", _init)
