"""Careers: what MediVisit values, how the team works, and how to apply by email (open roles are posted here
when there are any); licensed providers are pointed to Join as Provider instead."""

from __future__ import annotations

from reactpy import component, html

from app.settings import get_settings
from components.icons import icon
from components.ui import button_link, card, grid, mailto_href, page_header, section

VALUES = (
    (
        "shield",
        "Safety first",
        "Every decision starts with the patient in the room and the provider at the door.",
    ),
    ("heart", "Respect people's time", "Care should fit around people's lives, not the other way round."),
    ("check", "Say what's true", "Clear prices, plain words, and no promises we can't keep."),
    ("users", "Build with providers", "Nurses and clinicians shape the product they use every day."),
)

TEAMS = (
    "Engineering and design",
    "Provider operations and credentialing",
    "Patient support",
    "Clinical quality and compliance",
    "Partnerships and corporate services",
)


@component
def CareersPage() -> dict:
    support = get_settings().support_email
    return html._(
        page_header(
            "Work with us",
            "We're building a simpler way to get licensed care at home. If that matters to you, we'd like "
            "to hear "
            "from you.",
            eyebrow="Careers",
        ),
        section(
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in VALUES), columns=4
            ),
            title="What we value",
        ),
        section(
            html.div(
                {"class_name": "split"},
                html.div(
                    html.h2({"class_name": "section-title"}, "How to apply"),
                    html.p(
                        {"class_name": "text-muted"},
                        "We post open roles on this page when we're hiring. We also read every note we "
                        "receive, so if you'd like to work with us, send an email with:",
                    ),
                    html.ul(
                        {"class_name": "prep-list"},
                        html.li("The kind of work you do and the team you'd like to join"),
                        html.li("Your resume or a link to your work"),
                        html.li("A few lines on why care at home matters to you"),
                    ),
                    html.div(
                        {"class_name": "button-row"},
                        html.a(
                            {
                                "class_name": "btn btn-primary",
                                "href": mailto_href(support, "Careers at MediVisit"),
                            },
                            icon("mail", size=18),
                            "Email us",
                        ),
                    ),
                    html.p(
                        {"class_name": "hint spaced-row"},
                        "We consider all applicants without regard to race, color, religion, sex, sexual "
                        "orientation, gender identity, national origin, age, disability or veteran status.",
                    ),
                ),
                html.div(
                    {"class_name": "card"},
                    html.h3({"class_name": "card-title"}, "Teams"),
                    html.ul({"class_name": "card-list"}, *(html.li({"key": team}, team) for team in TEAMS)),
                ),
            ),
            muted=True,
        ),
        section(
            html.div(
                {"class_name": "cta-band"},
                html.div(
                    html.h2("Licensed provider?"),
                    html.p("You don't need a job application to see patients. Join as a provider instead."),
                ),
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
            ),
        ),
    )
