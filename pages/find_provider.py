"""Find a Provider: what provider search covers (service, location, date, place of visit, provider type) and
where to start while search opens in the visitor's area."""

from __future__ import annotations

from reactpy import component, html

from components.catalog_copy import CATEGORIES, LOCATIONS
from components.icons import icon
from components.ui import button_link, card, grid, notice, page_header, section

SEARCH_BY = (
    ("stethoscope", "Service", "Blood draws, IV therapy, in-home nursing or at-home diagnostics."),
    ("map-pin", "ZIP code", "Only providers who travel to your address are shown."),
    ("calendar", "Date and time", "See real open times and book the one that suits you."),
    ("user", "Provider type", "For example a registered nurse, phlebotomist or nurse practitioner."),
)


@component
def FindProviderPage() -> dict:
    return html._(
        page_header(
            "Find a provider near you",
            "Search verified providers by service, ZIP code and date, and book a visit at home, at work or "
            "wherever suits you.",
            eyebrow="Find a Provider",
        ),
        html.div(
            {"class_name": "container notice-strip"},
            notice(
                "Provider search is opening in your area soon. Until then, you can read about each service, "
                "how to prepare, and how we verify providers."
            ),
        ),
        section(
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in SEARCH_BY),
                columns=4,
            ),
            title="Search by what matters to you",
        ),
        section(
            html.h2({"class_name": "section-title"}, "Choose where the visit happens"),
            html.ul(
                {"class_name": "place-grid"},
                *(
                    html.li(
                        {"key": name, "class_name": "place-item"},
                        html.span({"class_name": "location-icon"}, icon(icon_name, size=18)),
                        html.div(html.strong(name), html.p(text)),
                    )
                    for name, (icon_name, text) in LOCATIONS.items()
                ),
            ),
            muted=True,
        ),
        section(
            grid(
                *(
                    card(
                        html.p(category.tagline),
                        icon_name=category.icon,
                        title=category.name,
                        href=f"/services/{category.slug}",
                    )
                    for category in CATEGORIES
                ),
                columns=4,
            ),
            html.div(
                {"class_name": "button-row spaced-row"},
                button_link("How we verify providers", "/providers", variant="outline"),
                button_link("Which service do I need?", "/ai-assistant", variant="outline"),
            ),
            title="Start with a service",
        ),
        section(
            html.div(
                {"class_name": "cta-band"},
                html.div(
                    html.h2("Providers: be found by patients near you"),
                    html.p(
                        "Set up your profile, services and service area before search opens in your area."
                    ),
                ),
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
            ),
        ),
    )
