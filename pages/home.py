"""Home: a search in the hero (service and ZIP code, to /find-provider), the marketplace's own figures when
there are enough of them, the four service lines, how a visit works, and the way in for providers."""

from __future__ import annotations

from functools import cache, lru_cache

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.appointments import MarketplaceFigures, marketplace_figures
from components import browser
from components.ad_slot import AdSlot
from components.hooks import use_query
from components.icons import icon
from components.illustrations import illustration
from components.kit import (
    Button,
    browser_select,
    button_link,
    button_row,
    card,
    checklist,
    cta_band,
    feature_grid,
    frozen,
    grid,
    section,
)
from components.service_ui import NO_SERVICES, catalog_service_options, zip_search_field

# (slug of /services#<slug> and of its illustration, name, one line)
SERVICE_LINES = (
    (
        "phlebotomy",
        "Mobile Phlebotomy",
        "Lab-ordered blood draws at home or at work, delivered to the lab the same day.",
    ),
    (
        "iv-therapy",
        "IV Therapy",
        "Hydration and vitamin infusions given by licensed nurses, on your schedule.",
    ),
    (
        "nursing",
        "In-Home Nursing",
        "Wound care, injections, post-surgical checks and medication support.",
    ),
    (
        "diagnostics",
        "At-Home Diagnostics",
        "Screenings and sample collection without a trip to the clinic.",
    ),
)


@component
def HeroSearch() -> VdomDict:
    """Service and ZIP code, sent to Find a Provider as its URL (`/find-provider?service=…&zip=…`) by the
    browser alone: the form is frozen markup, one copy for every tab showing the same catalog."""
    return _hero_search(use_query(catalog_service_options).data or NO_SERVICES)


@lru_cache(maxsize=4)  # the catalog now, and the one before a change while tabs catch up
def _hero_search(options: tuple) -> VdomDict:
    return frozen(
        html.form(
            {
                "class_name": "form hero-search",
                "method": "get",
                "action": "/find-provider",
                "role": "search",
                "aria-label": "Find a provider near you",
                **browser.client_get_form(),
            },
            browser_select("Service", "service", options=options, id_prefix="hero"),
            zip_search_field(id_prefix="hero"),
            Button("Search", type="submit", icon="search", class_name="hero-search-submit"),
        )
    )


@component
def TrustFigures() -> VdomDict | str:
    """Counted from the database, and only those with enough behind them (appointments._figures)."""
    figures: MarketplaceFigures | None = use_query(marketplace_figures).data
    if figures is None:
        return ""
    shown = []
    if figures.verified_providers is not None:
        shown.append((f"{figures.verified_providers:,}", "verified providers"))
    if figures.visits_completed is not None:
        shown.append((f"{figures.visits_completed:,}", "visits completed"))
    if figures.average_rating is not None:
        shown.append((f"{figures.average_rating} / 5", f"average rating from {figures.reviews:,} reviews"))
    return _trust_figures(tuple(shown)) if shown else ""


@lru_cache(maxsize=4)
def _trust_figures(shown: tuple[tuple[str, str], ...]) -> VdomDict:
    return frozen(
        html.dl(
            {"class_name": "trust-figures", "aria-label": "MediVisit in numbers"},
            *(html.div({"key": label}, html.dt(label), html.dd(value)) for value, label in shown),
        )
    )


STEPS = (
    ("search", "Choose a service", "Browse services or search providers who cover your ZIP code."),
    ("calendar", "Pick a time", "See real availability and book the slot that suits you."),
    ("map-pin", "We come to you", "A licensed, verified provider arrives at your home or office."),
)


@component
def HomePage() -> VdomDict:
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
                    HeroSearch(),
                    button_row(button_link("Browse Services", "/services", variant="outline")),
                    _promises(),
                ),
                _hero_card(),
            ),
        ),
        html.div({"class_name": "container"}, TrustFigures()),
        html.div({"class_name": "container"}, AdSlot("HOME_TOP")),
        _fixed_sections()[0],
        html.div({"class_name": "container"}, AdSlot("HOMEPAGE_FEATURED")),
        _fixed_sections()[1],
        html.div({"class_name": "container"}, AdSlot("HOME")),
        _fixed_sections()[2],
    )


@cache
def _fixed_sections() -> tuple[VdomDict, ...]:
    """The service lines, the steps of a visit and the way in for providers: nothing on them changes."""
    return (
        frozen(section(_service_lines(), title="Care we bring to you")),
        frozen(
            section(
                _steps(),
                html.div(
                    {"class_name": "button-row spaced-above"},
                    button_link("How it works", "/how-it-works", variant="outline"),
                ),
                title="How a visit works",
                muted=True,
            )
        ),
        frozen(section(_provider_invitation())),
    )


# The page's fixed parts are frozen (kit `frozen`): one element each on the server, shared by every tab.
def _service_lines() -> VdomDict:
    return grid(
        *(
            card(
                html.p(text),
                media=illustration(slug, class_name="card-media"),
                title=title,
                href=f"/services#{slug}",
            )
            for slug, title, text in SERVICE_LINES
        ),
        columns=4,
    )


def _steps() -> VdomDict:
    return feature_grid(STEPS, columns=3)


@cache
def _promises() -> VdomDict:
    return frozen(
        checklist(
            "Every provider's license is checked before their first visit",
            "Clear prices before you book",
            "Reschedule or cancel up to 24 hours before your visit",
        )
    )


@cache
def _hero_card() -> VdomDict:
    return frozen(
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
        )
    )


def _provider_invitation() -> VdomDict:
    return cta_band(
        "Are you a licensed provider?",
        "Set your own hours and service area, and get paid for visits you already know how to do.",
        button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
    )
