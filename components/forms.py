"""Form state that costs no re-render per keystroke.

Inputs are uncontrolled (`defaultValue`); each change is written to a ref on the server, so the values
survive until submit without re-rendering the form. `reset()` remounts the inputs empty.
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

    def field(self, name: str, **attributes: Any) -> dict[str, Any]:
        """Attributes for an <input>/<textarea> bound to `name`."""

        def on_change(event: dict) -> None:
            self.values[name] = event["target"]["value"]

        return {
            "name": name,
            "id": attributes.pop("id", f"field-{name}"),
            "defaultValue": self.values.get(name, ""),
            "on_change": on_change,
            "key": f"{name}-{self.version}",
            **attributes,
        }

    def reset(self, **initial: str) -> None:
        self.values.clear()
        self.values.update(initial)
        self._bump(lambda v: v + 1)


def use_form(**initial: str) -> Form:
    values = use_ref(dict(initial))
    version, set_version = use_state(0)
    return Form(values.current, version, set_version)
