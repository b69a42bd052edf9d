"""Form state that costs no re-render per keystroke: the storage behind the kit's fields.

The kit's controls (components/kit/fields.py) are uncontrolled; each change is written to `values`, a ref on
the server, so the values survive until submit without re-rendering the form. `reset()` bumps `version`, which
keys the controls, so they remount with the new values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reactpy import use_ref, use_state


@dataclass
class Form:
    values: dict[str, str]
    version: int
    _bump: Any

    def reset(self, **initial: str) -> None:
        self.values.clear()
        self.values.update(initial)
        self._bump(lambda v: v + 1)


def use_form(**initial: str) -> Form:
    values = use_ref(dict(initial))
    version, set_version = use_state(0)
    return Form(values.current, version, set_version)
