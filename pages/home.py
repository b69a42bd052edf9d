"""Home: what MediVisit is, the four service lines, how a visit works, and the way in for providers."""

from __future__ import annotations

from reactpy import component, html

from components.icons import icon
from components.ui import button_link, card, checklist, grid, section

SERVICE_LINES = (
    (
        "droplet",
        "Mobile Phlebotomy",
        "Lab-ordered blood draws at home or at work, delivered to the lab the same day.",
        "/services#phlebotomy",
    ),
    (
        "syringe",
        "IV Therapy",
        "Hydration and vitamin infusions given by licensed nurses, on your schedule.",
        "/services#iv-therapy",
    ),
    (
        "stethoscope",
        "In-Home Nursing",
        "Wound care, injections, post-surgical checks and medication support.",
        "/services#nursing",
    ),
    (
        "flask",
        "At-Home Diagnostics",
        "Screenings and sample collection without a trip to the clinic.",
        "/services#diagnostics",
    ),
)

STEPS = (
    ("search", "Choose a service", "Browse services or search providers who cover your ZIP code."),
    ("calendar", "Pick a time", "See real availability and book the slot that suits you."),
    ("map-pin", "We come to you", "A licensed, verified provider arrives at your home or office."),
)


@component
def HomePage() -> dict:
    return html._(
        html.section(
            {"class_name": "hero"},
            html.div(
                {"class_name": "container hero-inner"},
                html.div(
                    {"class_name": "hero-copy"},
                    html.p({"class_name": "eyebrow"}, "Mobile healthcare"),
                    html.h1("Licensed care, at your door."),
                    html.p(
                        {"class_name": "lead"},
                        "Book blood draws, IV therapy, in-home nursing and at-home diagnostics with verified "
                        "providers who come to your home or office.",
                    ),
                    html.div(
                        {"class_name": "button-row"},
                        button_link("Find a Provider", "/find-provider", icon_name="arrow-right"),
                        button_link("Browse Services", "/services", variant="outline"),
                    ),
                    checklist(
                        "Every provider's license is checked before their first visit",
                        "Clear prices before you book",
                        "Reschedule or cancel up to 24 hours before your visit",
                    ),
                ),
                html.div(
                    {"class_name": "hero-card", "aria-hidden": "true"},
                    html.div(
                        {"class_name": "hero-card-row"},
                        icon("calendar", size=20),
                        html.span("Choose a time that suits you"),
                    ),
                    html.div(
                        {"class_name": "hero-card-row"},
                        icon("map-pin", size=20),
                        html.span("Home, office or corporate venue"),
                    ),
                    html.div(
                        {"class_name": "hero-card-row"},
                        icon("shield", size=20),
                        html.span("Verified, licensed providers"),
                    ),
                ),
            ),
        ),
        section(
            grid(
                *(
                    card(html.p(text), icon_name=i, title=title, href=href)
                    for i, title, text, href in SERVICE_LINES
                ),
                columns=4,
            ),
            title="Care we bring to you",
        ),
        section(
            grid(*(card(html.p(text), icon_name=i, title=title) for i, title, text in STEPS), columns=3),
            html.div(
                {"class_name": "button-row", "style": {"margin_top": "24px"}},
                button_link("How it works", "/how-it-works", variant="outline"),
            ),
            title="How a visit works",
            muted=True,
        ),
        section(
            html.div(
                {"class_name": "cta-band"},
                html.div(
                    html.h2("Are you a licensed provider?"),
                    html.p(
                        "Set your own hours and service area, and get paid for visits you already know how to do."
                    ),
                ),
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
            ),
        ),
    )
