"""Catalog pieces shared by the services overview and the category screens: a compact price list and the
detailed service cards (price to pay now, length, places, preparation), each with an Add to cart button."""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from reactpy import html
from reactpy.types import VdomDict

from app.services.catalog import list_catalog
from components.cart import AddToCartButton
from components.catalog_copy import LOCATIONS
from components.format import format_minutes
from components.icons import icon
from components.kit import browser_field, button_link, button_row
from components.provider_ui import price_tag
from models.catalog import CategoryRead, ServiceRead

NOT_PUBLISHED = "Prices for these services are not published yet."


def find_href(service_slug: str) -> str:
    return "/find-provider?" + urlencode({"service": service_slug, "sort": "soonest"})


def _places(service: ServiceRead) -> str:
    return ", ".join(location.label for location in service.locations)


def price_list(services: list[ServiceRead], *, loading: bool = False) -> VdomDict:
    """Name, length, places and price of each service (original struck through during the sale)."""
    if not services:
        text = "Loading prices…" if loading else NOT_PUBLISHED
        return html.p({"class_name": "text-muted"}, text)
    return html.ul(
        {"class_name": "service-list", "aria-label": "Services and prices"},
        *(
            html.li(
                {"key": service.slug, "class_name": "service-row"},
                html.div(
                    html.h4({"class_name": "service-row-name"}, service.name),
                    html.p(
                        {"class_name": "service-row-meta"},
                        f"{format_minutes(service.duration_minutes)} · {_places(service)}",
                    ),
                ),
                html.div(
                    {"class_name": "service-row-buy"}, price_tag(service.price), AddToCartButton(service.slug)
                ),
            )
            for service in services
        ),
    )


def service_detail(service: ServiceRead) -> VdomDict:
    heading_id = f"service-{service.slug}"
    return html.article(
        {"class_name": "card service-detail-card", "key": service.slug, "aria-labelledby": heading_id},
        html.div(
            {"class_name": "service-row-head"},
            html.h3({"id": heading_id, "class_name": "card-title"}, service.name),
            price_tag(service.price),
        ),
        html.p(service.description),
        html.ul(
            {"class_name": "service-facts"},
            html.li(icon("clock", size=16), format_minutes(service.duration_minutes)),
            *(
                html.li({"key": loc.value}, icon(LOCATIONS[loc.label][0], size=16), loc.label)
                for loc in service.locations
            ),
        ),
        html.p({"class_name": "service-prep"}, html.strong("How to prepare: "), service.preparation)
        if service.preparation
        else "",
        button_row(
            AddToCartButton(service.slug),
            button_link("Find a provider", find_href(service.slug), variant="outline"),
        ),
    )


async def catalog_service_options(*, session: Any) -> tuple:
    """`service_options` of the catalog as it is (a query for `use_query`), as one tuple every tab shares
    while the catalog is unchanged: a search form's tab keeps this, not its own copy of the catalog."""
    return _shared(service_options(await list_catalog(session=session)))


NO_SERVICES = (("", "Any service"),)  # the options while the catalog loads


def zip_search_field(*, id_prefix: str, value: str = "", hint: str | None = None) -> VdomDict:
    """The ZIP code field of a search form the browser submits (home's hero, Find a Provider's filters)."""
    return browser_field(
        "ZIP code",
        "zip",
        value=value,
        hint=hint,
        id_prefix=id_prefix,
        input_mode="numeric",
        auto_complete="postal-code",
        max_length=10,
        placeholder="e.g. 10001",
    )


@lru_cache(maxsize=4)
def _shared(options: tuple) -> tuple:
    """The first of equal option tuples (lru_cache answers an equal key with the result it kept)."""
    return options


def service_options(catalog: list[CategoryRead]) -> tuple:
    """'Any service', then one group per category: 'Any <category> service' and its services (tuples, so
    that equal option lists are one cache key)."""
    return (
        NO_SERVICES[0],
        *(
            (
                category.name,
                (
                    (category.slug, f"Any {category.name} service"),
                    *((service.slug, service.name) for service in category.services),
                ),
            )
            for category in catalog
        ),
    )
