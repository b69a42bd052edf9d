"""Service detail (/services/{slug}): one service category in depth — its services with the price to pay
today, visit length, places and preparation; what's included, how to prepare, where visits happen, who
provides them — or a 'Service not found' section for an unknown slug.

The slug is a category's (/services/iv-therapy) or any active service's in the catalog
(/services/routine-blood-draw): a service's page is its category's, with the service named in the
breadcrumbs and shown first. An unknown slug also answers HTTP 404 (pages/routes.py `exists`)."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import use_params

from app.services.catalog import flash_sale_running, get_category, get_service_page
from components.ad_slot import AdSlot
from components.catalog_copy import (
    CATEGORIES,
    CATEGORIES_BY_SLUG,
    FLASH_SALE_TEXT,
    LOCATIONS,
    ServiceCategory,
)
from components.context import use_session
from components.hooks import use_query
from components.icons import icon
from components.kit import (
    bullets,
    button_link,
    button_row,
    card,
    checklist,
    detail_header,
    grid,
    loading_state,
    notice,
    page_title,
    sale_callout,
    section,
    split,
)
from components.service_ui import NOT_PUBLISHED, service_detail
from models.catalog import ServiceRead


def _not_found() -> VdomDict:
    return html.section(
        {"class_name": "container not-found"},
        html.h1("Service not found"),
        html.p(
            {"class_name": "lead"},
            "We don't offer a service at this address. It may have been renamed, or the link may be "
            "mistyped.",
        ),
        button_row(
            button_link("See all services", "/services", icon_name="arrow-right"),
            button_link("Request a service", "/service-requests", variant="outline"),
        ),
    )


def _detail(category: ServiceCategory, service: ServiceRead | None = None) -> VdomDict:
    others = tuple(other for other in CATEGORIES if other.slug != category.slug)
    return html._(
        detail_header(
            html.div(
                {"class_name": "detail-title"},
                html.span({"class_name": "card-icon"}, icon(category.icon, size=24)),
                html.h1(service.name if service else category.name),
            ),
            html.p({"class_name": "lead"}, service.description if service else category.summary),
            trail=(
                ("Services", "/services"),
                *(((category.name, f"/services/{category.slug}"),) if service else ()),
            ),
            current=service.name if service else category.name,
        ),
        section(
            sale_callout(FLASH_SALE_TEXT, running=category.on_sale and flash_sale_running()),
            _Services(category.slug, service.slug if service else ""),
            AdSlot("SERVICE_DETAIL_PAGE" if service else "CATEGORY_PAGE"),
            title="Services and prices",
            id="prices",
        ),
        section(
            split(
                html.h2({"class_name": "subheading-lg"}, "What's included"),
                checklist(*category.visits),
                html.h2({"class_name": "subheading-lg"}, "How to prepare"),
                bullets(category.preparation, class_name="prep-list"),
                html.h2({"class_name": "subheading-lg"}, "Who provides it"),
                html.p(category.providers),
                html.p(
                    "Every provider's license or certification is checked before their first visit and "
                    "re-checked when it renews. ",
                    html.a({"href": "/providers"}, "How we verify providers"),
                    ".",
                ),
                html.h2({"class_name": "subheading-lg"}, "Good to know"),
                bullets(category.good_to_know, class_name="prep-list"),
                main_class="split-main",
                aside=html.aside(
                    {"class_name": "detail-aside"},
                    card(
                        html.ul(
                            {"class_name": "location-detail-list"},
                            *(
                                html.li(
                                    {"key": name},
                                    html.span(
                                        {"class_name": "location-icon"}, icon(LOCATIONS[name][0], size=16)
                                    ),
                                    html.div(html.strong(name), html.p(LOCATIONS[name][1])),
                                )
                                for name in category.locations
                            ),
                        ),
                        title="Where visits happen",
                    ),
                    card(
                        html.p("Find a verified provider who covers your area, or ask us a question first."),
                        html.div(
                            {"class_name": "button-row aside-actions"},
                            button_link(
                                "Find a Provider",
                                f"/find-provider?service={category.slug}",
                                icon_name="arrow-right",
                            ),
                            button_link("Help Center", "/help-center", variant="outline"),
                        ),
                        title="Ready for a visit?",
                    ),
                ),
            ),
            html.div(
                {"class_name": "spaced-notice"},
                notice(
                    "MediVisit visits are for planned, non-emergency care. If you think you may have a "
                    "medical "
                    "emergency, call 911.",
                    tone="warning",
                ),
            ),
        ),
        section(
            grid(
                *(
                    card(
                        html.p(other.tagline),
                        icon_name=other.icon,
                        title=other.name,
                        href=f"/services/{other.slug}",
                    )
                    for other in others
                ),
                columns=3,
            ),
            title="Other services",
            muted=True,
        ),
    )


@component
def _Services(slug: str, first: str = "") -> VdomDict:
    priced = use_query(get_category, slug=slug)
    if priced.data is None:
        text = "Loading prices…" if priced.error is None and priced.loading else NOT_PUBLISHED
        return html.p({"class_name": "text-muted"}, text)
    if not priced.data.services:
        return html.p({"class_name": "text-muted"}, NOT_PUBLISHED)
    services = sorted(priced.data.services, key=lambda s: s.slug != first)  # the page's service first
    return html.div({"class_name": "service-detail-list"}, *(service_detail(s) for s in services))


@component
def ServiceDetailPage() -> VdomDict | Component:
    brand = use_session().brand_name
    slug = use_params().get("slug", "")
    category = CATEGORIES_BY_SLUG.get(slug)
    if category is not None:
        return _page(category.name, brand, _detail(category))
    return _ServicePage(slug)


@component
def _ServicePage(slug: str) -> VdomDict:
    """/services/<service-slug>: the service's category page, the service first."""
    brand = use_session().brand_name
    found = use_query(get_service_page, slug=slug)
    if found.data is None and found.error is None and found.loading:
        return html.section({"class_name": "container section", "aria-busy": "true"}, loading_state())
    category, service = found.data if found.data else (None, None)
    copy = CATEGORIES_BY_SLUG.get(category.slug) if category else None
    if copy is None:
        return _page("Service not found", brand, _not_found())
    return _page(service.name if service else copy.name, brand, _detail(copy, service))


def _page(title: str, brand: str, body: VdomDict) -> VdomDict:
    return html._(page_title(f"{title} | {brand}"), body)
