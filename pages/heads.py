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

from app.principal import SYSTEM, Principal
from app.services.careers import get_posting
from app.services.catalog import get_service_page
from app.services.errors import NotFound
from app.services.forum import get_topic, list_forum_categories
from app.services.providers import get_provider
from components.catalog_copy import CATEGORIES_BY_SLUG
from components.format import format_currency, format_minutes
from models.careers import EMPLOYMENT_LABELS
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


async def forum_topic_head(*, session: Any, topic_id: str, slug: str = "") -> PageHead | None:
    """/forum/t/<id>/<slug>: a published topic, by its title and category (what a visitor may read)."""
    del slug  # the id names the topic; the slug is only for people reading the address
    try:
        found = await get_topic(session=session, actor=Principal.visitor(""), topic_id=topic_id)
    except NotFound:
        return None
    topic = found.topic
    return PageHead(
        topic.title,
        f"“{topic.title}”: a conversation in the {{brand}} Community Forum, in {topic.category_name}. "
        "Not medical advice.",
    )


async def forum_category_head(*, session: Any, slug: str) -> PageHead | None:
    """/forum/c/<slug>: one of the forum's categories, by name."""
    found = {c.slug: c for c in await list_forum_categories(session=session, actor=Principal.visitor(""))}
    category = found.get(slug)
    if category is None:
        return None
    return PageHead(f"{category.name} · Community Forum", f"{category.name}: {category.description}")


async def career_posting_head(*, session: Any, slug: str) -> PageHead | None:
    """/careers/<slug>: an open job, by title, team, place and employment type."""
    try:
        posting = await get_posting(session=session, actor=SYSTEM, slug=slug)
    except NotFound:
        return None
    kind = EMPLOYMENT_LABELS[posting.employment_type].lower()
    return PageHead(
        f"{posting.title} · Careers",
        f"{posting.title} ({kind}, {posting.location}) in {posting.team} at {{brand}}. Read the job and apply.",
    )
