"""The red-flag banner (issue 27): the 911 / 988 message shown at once to a person whose words describe a
medical emergency or a mental-health crisis, wherever they wrote them (forum, help desk, service requests,
visit notes). Announced to screen readers (role="alert"), with call links."""

from __future__ import annotations

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit import button_link, button_row


def emergency_banner(message: str) -> VdomDict:
    """The red-flag detector's words (911 or 988), announced at once."""
    return html.div(
        {"class_name": "forum-emergency", "role": "alert"},
        icon("alert", size=22),
        html.div(
            html.p({"class_name": "forum-emergency-title"}, "Are you safe right now?"),
            html.p(message),
            button_row(
                button_link("Call 911", "tel:911", variant="danger", size="sm"),
                button_link("Call or text 988", "tel:988", variant="outline", size="sm"),
            ),
        ),
    )
