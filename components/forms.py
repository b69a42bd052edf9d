"""Form state that costs no re-render per keystroke: the storage behind the kit's fields.

The kit's controls (components/kit/fields.py) are uncontrolled; each change is written to `values`, a ref on
the server, so the values survive until submit without re-rendering the form. `reset()` bumps `version`, which
keys the controls, so they remount with the new values.

A form a user would hate to lose (a new ticket, a reply, a review, visit notes) names a `draft` key:
`use_form(draft=f"support:reply:{ticket.id}", content="")`. Its values are then also kept in the database
(components/hooks.py `use_draft`) once typing pauses, for whoever is signed in (or this browser's visitor),
and come back when the form mounts again: after a reconnect, a server restart, on another worker. Values
equal to the initial ones delete the draft; so does `reset()` to them (after a reply is sent) and
`discard_draft()` (after a form that closes on success was sent).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from reactpy import Ref, use_context, use_ref, use_state

from components.context import SessionContext
from components.hooks import DraftSaver, use_draft


def _is_blank(values: Mapping[str, Any], initial: Mapping[str, Any]) -> bool:
    """Nothing typed: every value is its initial one (or empty, for a field without one)."""
    return all(
        value == initial[name] if name in initial else value in ("", False, None)
        for name, value in values.items()
    )


@dataclass
class _Kept:
    """What lives across renders: the values, the initial ones and whether the user changed anything."""

    values: dict[str, Any]
    initial: dict[str, Any]
    touched: bool = False


@dataclass
class Form:
    values: dict[str, Any]
    version: int
    _bump: Any
    _kept: _Kept = field(default_factory=lambda: _Kept({}, {}))
    _draft: DraftSaver | None = None

    def changed(self) -> None:
        """A control changed a value (the kit's fields call this): a draft form saves once typing pauses."""
        self._kept.touched = True
        if self._draft is not None:
            self._draft.save(None if _is_blank(self.values, self._kept.initial) else self.values)

    def reset(self, **initial: Any) -> None:
        self.values.clear()
        self.values.update(initial)
        self._bump(lambda v: v + 1)
        if self._draft is not None:
            self._draft.save(None if _is_blank(self.values, self._kept.initial) else self.values, now=True)

    def discard_draft(self) -> None:
        """Forget the saved draft now (the form was sent)."""
        if self._draft is not None:
            self._draft.discard()


def use_form(*, draft: str | None = None, **initial: Any) -> Form:
    """The form's storage; with `draft`, also kept in the database under that key (see the module)."""
    kept_ref: Ref[_Kept | None] = use_ref(None)
    if kept_ref.current is None:
        kept_ref.current = _Kept(dict(initial), dict(initial))
    kept: _Kept = kept_ref.current
    version, set_version = use_state(0)
    session = use_context(SessionContext)

    def restore(saved: dict[str, Any]) -> None:
        if kept.touched:  # typed before the saved draft arrived: what they typed now wins
            return
        kept.values.update(saved)
        set_version(lambda v: v + 1)  # remount the controls with the restored values

    saver = use_draft(draft if session is not None else None, on_load=restore)
    return Form(kept.values, version, set_version, kept, saver)
