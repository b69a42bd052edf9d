"""`status_card`: one card in a list of like cards that each move through states (a patient's service
requests, the marketplace's open requests, a provider's offers and jobs): its title in a head row beside
the badge that says where it stands, then its details and actions (`.request-card` in static/css)."""

from __future__ import annotations

from typing import Any

from reactpy.types import VdomDict

from components.kit.region import Region


def status_card(title: Any, badge: Any, *children: Any, title_id: str, key: str | None = None) -> VdomDict:
    """`li.card.request-card` named by its `h3.card-title` (`title_id`), in a `div.request-card-head` with
    `badge`, then `children`."""
    return Region(
        title,
        *children,
        title_id=title_id,
        class_name="card request-card",
        tag="li",
        heading="h3",
        title_class="card-title",
        head_class="request-card-head",
        head=(badge,),
        key=key,
    )
