"""The red-flag banner (issue 27): the 911 / 988 message shown at once to a person whose words describe a
medical emergency or a mental-health crisis, wherever they wrote them (forum, help desk, service requests,
visit notes). Announced to screen readers (role="alert"), with call links."""

from __future__ import annotations

from reactpy import html

from components.icons import icon


def emergency_banner(message: str) -> dict:
    """The red-flag detector's words (911 or 988), announced at once."""
    return html.div(
        {"class_name": "forum-emergency", "role": "alert"},
        icon("alert", size=22),
        html.div(
            html.p({"class_name": "forum-emergency-title"}, "Are you safe right now?"),
            html.p(message),
            html.div(
                {"class_name": "button-row"},
                html.a({"class_name": "btn btn-danger btn-sm", "href": "tel:911"}, "Call 911"),
                html.a({"class_name": "btn btn-outline btn-sm", "href": "tel:988"}, "Call or text 988"),
            ),
        ),
    )
