"""Service Requests: what a service request is (asking for care MediVisit doesn't list yet), what to include,
what happens next, and how to send one through support."""

from __future__ import annotations

from reactpy import component, html

from app.settings import get_settings
from components.icons import icon
from components.ui import button_link, card, grid, mailto_href, page_header, section, steps

EXAMPLES = (
    (
        "stethoscope",
        "A specific skill",
        "For example catheter care, ostomy support or a particular injection.",
    ),
    ("map-pin", "A new area", "A service we list, but not yet in your ZIP code."),
    ("clock", "A different time", "Regular visits at times that are hard to book, such as early mornings."),
    ("users", "A group visit", "Care for several people at one address or at an event."),
)

INCLUDE = (
    "The care you need, and whether a clinician has ordered it",
    "Your ZIP code and where the visit would happen: home, office, clinic, virtual or a corporate venue",
    "How often you need it, and any dates or times that matter",
    "Any language or accessibility needs",
)

NEXT = (
    ("We read your request", "Someone on our team reviews it and may reply with questions."),
    ("We look for providers", "We check with verified providers who could offer the care in your area."),
    ("We let you know", "We reply by email with what's possible, or why we can't offer it yet."),
)


@component
def ServiceRequestsPage() -> dict:
    support = get_settings().support_email
    return html._(
        page_header(
            "Request a service",
            "Need care we don't list yet? Send us a service request and we'll look for a licensed provider "
            "who "
            "can offer it near you.",
            eyebrow="Service Requests",
        ),
        section(
            html.p(
                {"class_name": "section-intro"},
                "Check ",
                html.a({"href": "/services"}, "our services"),
                " first: what you need may already be covered. Service requests are not for urgent care; in an "
                "emergency, call 911.",
            ),
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in EXAMPLES),
                columns=4,
            ),
            title="What you can ask for",
        ),
        section(
            html.div(
                {"class_name": "split"},
                html.div(
                    html.h2({"class_name": "section-title"}, "What happens next"),
                    steps(*NEXT),
                ),
                html.div(
                    {"class_name": "card"},
                    html.h3({"class_name": "card-title"}, "Send a request"),
                    html.p("Email our support team and include:"),
                    html.ul({"class_name": "card-list"}, *(html.li({"key": item}, item) for item in INCLUDE)),
                    html.p(
                        {"class_name": "hint spaced-row"},
                        "Please don't include test results or other detailed medical information.",
                    ),
                    html.div(
                        {"class_name": "button-row"},
                        html.a(
                            {
                                "class_name": "btn btn-primary",
                                "href": mailto_href(support, "Service request"),
                            },
                            icon("mail", size=18),
                            "Email a request",
                        ),
                        button_link("Other ways to contact us", "/contact", variant="outline"),
                    ),
                ),
            ),
            muted=True,
        ),
    )
