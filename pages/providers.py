"""Browse Providers (/providers): every verified, active provider, 20 per page, sorted by rating, price or
soonest opening (sort and page in the URL), and how each provider is verified."""

from __future__ import annotations

from urllib.parse import parse_qs

from reactpy import component, html, use_location
from reactpy.types import VdomDict

from app.services.providers import search_providers
from components.context import use_session
from components.hooks import use_query
from components.kit import (
    band,
    button_link,
    button_row,
    card,
    chips,
    cta_band,
    empty_state,
    error_state,
    feature_grid,
    loading_state,
    public_page,
    section,
    split,
    steps,
)
from components.provider_ui import pagination, provider_card, result_summary, sort_links
from models.provider import ProviderQuery

PATH = "/providers"


VERIFICATION = (
    (
        "Identity",
        "Each provider confirms who they are with a government-issued photo ID before their profile goes "
        "live.",
    ),
    (
        "License or certification",
        "We check every license or certification with the board or body that issued it, for each service "
        "the provider offers.",
    ),
    ("Background check", "Providers consent to a background check before their first visit."),
    ("Insurance", "Providers carry professional liability insurance for the care they give."),
    (
        "Ongoing checks",
        "Licenses are re-checked when they renew, and patient feedback after each visit is reviewed.",
    ),
)

PROVIDER_TYPES = (
    "Registered Nurses",
    "LVNs / LPNs",
    "Nurse Practitioners",
    "Doctors",
    "Phlebotomists and Technicians",
    "Medical Assistants",
    "CNAs and Caregivers",
    "Pharmacists",
    "Therapists",
    "Nutritionists",
    "Wellness Coaches",
)

PROFILE = (
    ("shield", "Credentials", "License type and the state that issued it, shown on every profile."),
    (
        "stethoscope",
        "Services",
        "What the provider offers and where: home, office, clinic, virtual or on site.",
    ),
    ("map-pin", "Service area", "The neighborhoods and ZIP codes the provider travels to."),
    ("calendar", "Availability", "Open times you can book, kept up to date by the provider."),
)


@component
def _Directory(search: str, time_zone: str) -> VdomDict:
    params = parse_qs(search.lstrip("?"))
    query = ProviderQuery.from_params({k: v for k, v in params.items() if k in ("sort", "page")})
    results = use_query(search_providers, query=query, time_zone=time_zone)  # compared by equality
    page = results.data
    if results.error:
        return error_state(results.error, results.refetch)
    if page is None:
        return loading_state("Loading providers…")
    if page.total == 0:
        return empty_state(
            "No providers are listed yet",
            "Providers appear here once their license and identity checks are complete.",
            action=button_link("Join as Provider", "/become-provider", variant="outline"),
        )
    return html.div(
        {"class_name": "search-results", "aria-busy": "true" if results.loading else "false"},
        html.div(
            {"class_name": "results-bar"},
            html.p({"class_name": "results-status", "role": "status"}, result_summary(page)),
            sort_links(PATH, page.query),
        ),
        html.div({"class_name": "provider-list"}, *(provider_card(c, time_zone) for c in page.items)),
        pagination(PATH, page),
        button_row(button_link("Search by ZIP code and date", "/find-provider", icon_name="search")),
    )


@component
def ProvidersPage() -> VdomDict:
    session = use_session()
    return public_page(
        "Licensed providers who come to you",
        band(
            _Directory(use_location().search, session.time_zone),
            class_name="search-section",
            label="Providers",
        ),
        section(
            split(
                steps(*VERIFICATION),
                title="How we verify every provider",
                lead="No one sees patients through MediVisit until these checks are complete.",
                aside=card(
                    html.p("Providers are licensed or certified for each service they offer."),
                    html.div({"class_name": "chips-spaced"}, chips(*PROVIDER_TYPES)),
                    title="Who you'll find",
                ),
            ),
            muted=True,
        ),
        section(
            feature_grid(PROFILE, columns=4),
            title="What each profile shows",
        ),
        section(
            cta_band(
                "Are you a licensed provider?",
                "Set your own hours and service area, and see patients who need care at home.",
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
            ),
        ),
        lead="Nurses, phlebotomists, nurse practitioners and other licensed professionals, each verified "
        "before "
        "their first visit.",
        eyebrow="Browse Providers",
    )
