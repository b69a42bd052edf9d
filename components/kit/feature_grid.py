"""`feature_grid`: a band's grid of feature cards — what we value, the benefits of joining, the checks we
make, the forum's guidelines, what employers can book: each card an icon, a title and one line of text;
with an address, the whole card is a link (who MediVisit is for, "Not a patient?")."""

from __future__ import annotations

from collections.abc import Iterable

from reactpy import html
from reactpy.types import VdomDict

from components.kit.layout import card, grid

Feature = tuple[str, str, str] | tuple[str, str, str, str]
"""(icon name, title, text) or (icon name, title, text, href)."""


def feature_grid(features: Iterable[Feature], *, columns: int = 3) -> VdomDict:
    """`grid(columns)` of `card`s, one a feature: its icon and h3 title over a `p` with the text, the whole
    card a link to the feature's href when it has one."""
    return grid(
        *(
            card(html.p(text), icon_name=icon_name, title=title, href=href[0] if href else None)
            for icon_name, title, text, *href in features
        ),
        columns=columns,
    )
