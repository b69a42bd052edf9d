"""Notes set apart from the text: `notice` (a toned note), `sale_callout` (the flash-sale note),
`cta_band` (a call to action: a heading, a line and what to do) and `coming_soon` (the card of a screen
that is not built yet)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon


def notice(text: str, *, tone: str = "info") -> VdomDict:
    """`div.notice.notice-{tone}[role=note]`: an alert icon and one paragraph."""
    return html.div(
        {"class_name": f"notice notice-{tone}", "role": "note"}, icon("alert", size=18), html.p(text)
    )


def sale_callout(sale_text: str, *, running: bool) -> VdomDict | str:
    """The flash-sale note shown on IV-therapy content; nothing unless `running` (the caller asks the
    catalog whether the sale runs)."""
    if not running:
        return ""
    return html.div(
        {"class_name": "sale-callout"},
        icon("zap", size=18),
        html.p(html.strong(sale_text), " The discount applies to IV therapy visits booked today."),
    )


def cta_band(heading: Any, text: Any, *actions: Any) -> VdomDict:
    """`div.cta-band`: an h2 and a line of text, then the actions (usually a `button_link`)."""
    return html.div({"class_name": "cta-band"}, html.div(html.h2(heading), html.p(text)), *actions)


def coming_soon(*, feature: str, heading: str, status: str, links: tuple[tuple[str, str], ...]) -> VdomDict:
    """The 'Feature Coming Soon' card of the dashboard and the staff portal; `links` are (label, href),
    the first one the primary button."""
    return html.section(
        {"class_name": "container coming-soon"},
        html.div(
            {"class_name": "coming-soon-card"},
            html.span({"class_name": "coming-soon-icon"}, icon("clock", size=30)),
            html.p({"class_name": "eyebrow"}, feature),
            html.h1(heading),
            html.p({"class_name": "coming-soon-text"}, html.strong(feature), f" {status}."),
            html.div(
                {"class_name": "button-row"},
                *(
                    html.a(
                        {
                            "class_name": "btn btn-primary" if i == 0 else "btn btn-outline",
                            "href": href,
                            "key": href,
                        },
                        label,
                    )
                    for i, (label, href) in enumerate(links)
                ),
            ),
        ),
    )
