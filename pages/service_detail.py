"""Service detail (/services/{slug}): one service category in depth — its services with the price to pay
today, visit length, places and preparation; what's included, how to prepare, where visits happen, who
provides them — or a 'Service not found' section for an unknown slug."""

from __future__ import annotations

from reactpy import component, html
from reactpy_router import use_params

from app.services.catalog import get_category
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
from components.service_ui import NOT_PUBLISHED, service_detail
from components.ui import button_link, card, checklist, grid, notice, page_title, sale_callout, section


def _not_found() -> dict:
    return html.section(
        {"class_name": "container not-found"},
        html.h1("Service not found"),
        html.p(
            {"class_name": "lead"},
            "We don't offer a service at this address. It may have been renamed, or the link may be "
            "mistyped.",
        ),
        html.div(
            {"class_name": "button-row"},
            button_link("See all services", "/services", icon_name="arrow-right"),
            button_link("Request a service", "/service-requests", variant="outline"),
        ),
    )


def _detail(category: ServiceCategory) -> dict:
    others = tuple(other for other in CATEGORIES if other.slug != category.slug)
    return html._(
        html.section(
            {"class_name": "page-header"},
            html.div(
                {"class_name": "container"},
                html.nav(
                    {"class_name": "breadcrumbs", "aria-label": "Breadcrumb"},
                    html.a({"href": "/services"}, "Services"),
                    icon("chevron-right", size=14),
                    html.span({"aria-current": "page"}, category.name),
                ),
                html.div(
                    {"class_name": "detail-title"},
                    html.span({"class_name": "card-icon"}, icon(category.icon, size=24)),
                    html.h1(category.name),
                ),
                html.p({"class_name": "lead"}, category.summary),
            ),
        ),
        section(
            sale_callout(FLASH_SALE_TEXT) if category.on_sale else "",
            _Services(category.slug),
            title="Services and prices",
            id="prices",
        ),
        section(
            html.div(
                {"class_name": "split"},
                html.div(
                    {"class_name": "split-main"},
                    html.h2({"class_name": "subheading-lg"}, "What's included"),
                    checklist(*category.visits),
                    html.h2({"class_name": "subheading-lg"}, "How to prepare"),
                    html.ul(
                        {"class_name": "prep-list"},
                        *(html.li({"key": item}, item) for item in category.preparation),
                    ),
                    html.h2({"class_name": "subheading-lg"}, "Who provides it"),
                    html.p(category.providers),
                    html.p(
                        "Every provider's license or certification is checked before their first visit and "
                        "re-checked when it renews. ",
                        html.a({"href": "/providers"}, "How we verify providers"),
                        ".",
                    ),
                    html.h2({"class_name": "subheading-lg"}, "Good to know"),
                    html.ul(
                        {"class_name": "prep-list"},
                        *(html.li({"key": item}, item) for item in category.good_to_know),
                    ),
                ),
                html.aside(
                    {"class_name": "detail-aside"},
                    html.div(
                        {"class_name": "card"},
                        html.h3({"class_name": "card-title"}, "Where visits happen"),
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
                    ),
                    html.div(
                        {"class_name": "card"},
                        html.h3({"class_name": "card-title"}, "Ready for a visit?"),
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
def _Services(slug: str) -> dict:
    priced = use_query(get_category, slug=slug)
    if priced.data is None:
        text = "Loading prices…" if priced.error is None and priced.loading else NOT_PUBLISHED
        return html.p({"class_name": "text-muted"}, text)
    if not priced.data.services:
        return html.p({"class_name": "text-muted"}, NOT_PUBLISHED)
    return html.div({"class_name": "service-detail-list"}, *(service_detail(s) for s in priced.data.services))


@component
def ServiceDetailPage() -> dict:
    brand = use_session().brand_name
    category = CATEGORIES_BY_SLUG.get(use_params().get("slug", ""))
    title = category.name if category else "Service not found"
    return html._(page_title(f"{title} | {brand}"), _detail(category) if category else _not_found())
