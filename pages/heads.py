"""What a page's HTML head says about it: its title and meta description.

Every screen of the route table (pages/routes.py) has a description, the site's general sentence unless it
sets its own. A route whose path names something (a provider, a service) also has a `head` look-up that
names it in the title and description, or says it is not there (the HTTP layer then answers 404). `{brand}`
in these sentences is the configured wordmark (BRAND_NAME), put in by the HTTP layer. Prices in a
description are the regular ones: a flash sale's would outlive the sale in search results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.services.catalog import get_service_page
from app.services.errors import NotFound
from app.services.providers import get_provider
from components.catalog_copy import CATEGORIES_BY_SLUG
from components.format import format_currency, format_minutes
from models.catalog import ServiceLocation

MAX_DESCRIPTION = 160  # what search engines show of a description
SITE_DESCRIPTION = (
    "{brand} brings licensed providers to your home or office: blood draws, IV therapy, in-home nursing and "
    "at-home diagnostics."
)


@dataclass(frozen=True)
class PageHead:
    title: str
    description: str


def for_brand(text: str, brand: str) -> str:
    """A description as the page carries it: the wordmark put in, clipped to MAX_DESCRIPTION."""
    return clip(text.replace("{brand}", brand))


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """One line of at most `limit` characters, cut at a word with an ellipsis when it is longer."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _joined(names: list[str], word: str = "and") -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {word} " + names[-1]


def _where(locations: list[ServiceLocation]) -> str:
    """' at home, office or clinic', ' by video', ' at home or by video'; '' when none is listed."""
    places = [location.label.lower() for location in locations if location is not ServiceLocation.virtual]
    ways = ([f"at {_joined(places, 'or')}"] if places else []) + (
        ["by video"] if ServiceLocation.virtual in locations else []
    )
    return f" {' or '.join(ways)}" if ways else ""


async def service_page_head(*, session: Any, slug: str) -> PageHead | None:
    """/services/<slug>: a category of the catalog or one of its active services, by name."""
    found = await get_service_page(session=session, slug=slug)
    if found is None:
        return None
    category, service = found
    copy = CATEGORIES_BY_SLUG.get(category.slug)
    if service is not None:
        return PageHead(
            service.name,
            f"{service.name}: {service.description} {format_currency(service.price.original)} for "
            f"{format_minutes(service.duration_minutes)}{_where(service.locations)}.",
        )
    name = copy.name if copy else category.name
    tagline = f" {copy.tagline}" if copy else ""
    prices = [s.price.original for s in category.services]
    from_price = f", prices from {format_currency(min(prices))}" if prices else ""
    return PageHead(name, f"{name}:{tagline} What a visit covers{from_price} and how to prepare.")


async def provider_head(*, session: Any, provider_id: str) -> PageHead | None:
    """/providers/<id>: a listed (verified, active) provider, by name, type and the care they offer."""
    try:
        provider = await get_provider(session=session, provider_id=provider_id)
    except NotFound:
        return None
    lines = list(
        dict.fromkeys(
            CATEGORIES_BY_SLUG[s.category_slug].name
            if s.category_slug in CATEGORIES_BY_SLUG
            else s.service_name
            for s in provider.services
        )
    )
    offers = f": {_joined(lines)}" if lines else ""
    return PageHead(
        provider.name,
        f"{provider.name}, {provider.provider_type.label} verified by {{brand}}{offers}. "
        "Prices, reviews and next available times.",
    )
