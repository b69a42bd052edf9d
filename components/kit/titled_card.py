"""`titled_card`: a public page's card that carries its own heading (a contact channel, the start of an
application, a step of a wizard, "Application sent", "Book a flight"): an optional icon, the
`card-title` heading, a muted lead line, the body, and a row of actions at its foot. The kit's `card` is
the grid tile (an h3 title, or a whole-card link); this one is a panel a screen speaks through."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import classes

Tag = Literal["div", "aside", "form", "section"]


def titled_card(
    title: Any,
    *body: Any,
    icon_name: str | None = None,
    lead: Any = None,
    actions: Sequence[Any] = (),
    actions_class: str | None = None,
    class_name: str | None = None,
    tag: Tag = "div",
    heading: Literal["h2", "h3"] = "h2",
    title_id: str | None = None,
    labelled: bool = False,
    role: str | None = None,
    **attributes: Any,
) -> VdomDict:
    """`{tag}.card.{class_name}` (`role` and other `attributes`, e.g. a form's on_submit, on it; with
    `labelled` it is named by its heading): a `span.card-icon` with `icon_name`, the `{heading}.card-title`
    (id `title_id`) holding `title`, the `lead` as a `p.text-muted`, then `body`, then `actions` in a
    `div.button-row` (`actions_class` added)."""
    own = {"class_name": classes("card", class_name), **attributes}
    if role is not None:
        own["role"] = role
    if labelled and title_id:
        own["aria-labelledby"] = title_id
    title_attributes = {"class_name": "card-title", **({"id": title_id} if title_id else {})}
    return getattr(html, tag)(
        own,
        html.span({"class_name": "card-icon"}, icon(icon_name, size=22)) if icon_name else "",
        getattr(html, heading)(title_attributes, title),
        html.p({"class_name": "text-muted"}, lead) if lead is not None else "",
        *body,
        html.div({"class_name": classes("button-row", actions_class)}, *actions) if actions else "",
    )
