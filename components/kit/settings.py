"""The usual shape of a dashboard settings card: `SettingsPanel`, a `SettingsCard` whose title is followed
by a line saying what the card is for (`p.settings-text`) and which ends with its actions, and
`settings_actions`, that row of buttons on its own (at the foot of a form inside the card)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit.layout import SettingsCard


def settings_actions(*buttons: Any) -> VdomDict:
    """`div.settings-actions`: a settings card's buttons and button links, side by side."""
    return html.div({"class_name": "settings-actions"}, *buttons)


def SettingsPanel(  # noqa: N802 - a kit element, named like the components
    title: Any,
    *body: Any,
    title_id: str,
    lead: Any = None,
    actions: Sequence[Any] = (),
    class_name: str | None = None,
    key: str | None = None,
    id: str | None = None,
) -> VdomDict:
    """A `SettingsCard` named by `title`: the `lead` line (`p.settings-text`) under the title, then `body`,
    then the `actions` (`settings_actions`) when there are any. `id` is the card's own anchor."""
    lead_line = (html.p({"class_name": "settings-text"}, lead),) if lead else ()
    foot = (settings_actions(*actions),) if actions else ()
    card = SettingsCard(title, *lead_line, *body, *foot, title_id=title_id, class_name=class_name, key=key)

    if id is not None:
        card["attributes"] = {**card.get("attributes", {}), "id": id}

    return card
