"""Featured Providers (/provider-of-month): the highest-rated verified providers, by the average of their
reviews from completed visits, among those with at least a minimum number of such reviews."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.providers import FEATURED_MIN_REVIEWS, list_featured
from components.hooks import use_query
from components.kit import QueryView, button_link, feature_grid, notice, public_page, section
from components.provider_ui import featured_card

CRITERIA = (
    (
        "star",
        "Patient ratings",
        "The average rating patients gave after their visits. Only reviews of completed visits count.",
    ),
    (
        "users",
        "Enough reviews to trust",
        f"At least {FEATURED_MIN_REVIEWS} reviews from completed visits, so one great visit isn't enough.",
    ),
    ("shield", "Good standing", "Verified license and identity, and an active profile you can book today."),
)


@component
def _Featured() -> VdomDict:
    featured = use_query(list_featured)
    return QueryView(
        featured,
        lambda providers: html.div(
            {"class_name": "featured-grid"}, *(featured_card(provider) for provider in providers)
        ),
        loading_label="Loading featured providers…",
        empty=notice(
            "No provider has enough reviews from completed visits to be featured yet. Every provider you can "
            "book on MediVisit is verified, featured or not."
        ),
    )


@component
def FeaturedProvidersPage() -> VdomDict:
    return public_page(
        "Featured Providers",
        section(
            _Featured(),
            html.div(
                {"class_name": "button-row spaced-row"},
                button_link("Find a provider near you", "/find-provider", icon_name="search"),
                button_link("Browse all providers", "/providers", variant="outline"),
            ),
        ),
        section(
            feature_grid(CRITERIA, columns=3),
            html.p(
                {"class_name": "text-muted spaced-row"},
                "Featuring is based on patient reviews of completed visits only. Providers can't pay to be "
                "featured; sponsored placements are always labelled as ads.",
            ),
            title="How providers are chosen",
            muted=True,
        ),
        lead="The providers patients rate highest after their visits, among those with at least "
        f"{FEATURED_MIN_REVIEWS} reviews from completed visits.",
        eyebrow="Provider of the month",
    )
