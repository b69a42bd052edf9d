"""Services: the four service lines (phlebotomy, IV therapy, nursing, diagnostics) with their services,
prices (the original struck through during the flash sale), visit lengths, what a visit covers, how to
prepare and where visits can happen. The nav links to each section by id (/services#phlebotomy …)."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.catalog import flash_sale_running, list_catalog
from components.ad_slot import AdSlot
from components.catalog_copy import CATEGORIES, FLASH_SALE_TEXT, LOCATIONS, ServiceCategory
from components.hooks import use_query
from components.icons import icon
from components.illustrations import illustration
from components.kit import (
    band,
    bullets,
    button_link,
    checklist,
    cta_band,
    public_page,
    sale_callout,
    section,
    split,
    titled_card,
)
from components.service_ui import price_list
from models.catalog import CategoryRead


def _jump_links() -> VdomDict:
    return html.nav(
        {"class_name": "jump-links", "aria-label": "Service categories"},
        *(
            html.a(
                {"key": category.slug, "href": f"#{category.slug}", "class_name": "jump-link"},
                icon(category.icon, size=16),
                category.name,
            )
            for category in CATEGORIES
        ),
    )


def _locations(category: ServiceCategory) -> VdomDict:
    return html.ul(
        {"class_name": "location-list"},
        *(
            html.li(
                {"key": name, "class_name": "location-item"},
                icon(LOCATIONS[name][0], size=16),
                html.span(name),
            )
            for name in category.locations
        ),
    )


def _category_section(
    category: ServiceCategory, index: int, priced: CategoryRead | None, loading: bool
) -> VdomDict:
    return band(
        html.div(
            {"class_name": "category-heading"},
            illustration(category.slug, class_name="category-illus"),
            html.div(
                html.h2({"class_name": "section-title"}, category.name),
                html.p({"class_name": "category-tagline"}, category.tagline),
            ),
        ),
        sale_callout(FLASH_SALE_TEXT, running=category.on_sale and flash_sale_running()),
        split(
            html.p({"class_name": "category-summary"}, category.summary),
            html.h3({"class_name": "subheading"}, "Typical visits"),
            checklist(*category.visits),
            html.h3({"class_name": "subheading"}, "Where visits happen"),
            _locations(category),
            html.h3({"class_name": "subheading"}, "Services and prices"),
            price_list(priced.services if priced else [], loading=loading),
            main_class="split-main",
            aside=titled_card(
                "How to prepare",
                bullets(category.preparation, class_name="prep-list"),
                class_name="prep-card",
                tag="aside",
                heading="h3",
            ),
        ),
        html.div(
            {"class_name": "button-row category-actions"},
            button_link(f"More about {category.name}", f"/services/{category.slug}", icon_name="arrow-right"),
            button_link("Find a Provider", f"/find-provider?service={category.slug}", variant="outline"),
        ),
        class_name="category-section" + (" section-muted" if index % 2 else ""),
        id=category.slug,
        key=category.slug,
    )


@component
def ServicesPage() -> VdomDict:
    catalog = use_query(list_catalog)
    priced = {category.slug: category for category in catalog.data or []}
    loading = catalog.data is None and catalog.error is None
    return public_page(
        "Care we bring to you",
        html.div({"class_name": "container"}, _jump_links()),
        html.div({"class_name": "container"}, AdSlot("SERVICES_TOP")),
        *(
            html._(
                {"key": category.slug},
                _category_section(category, index, priced.get(category.slug), loading),
                html.div({"class_name": "container"}, AdSlot("SERVICES_MIDDLE"))
                if index == len(CATEGORIES) // 2 - 1
                else "",
            )
            for index, category in enumerate(CATEGORIES)
        ),
        html.div({"class_name": "container"}, AdSlot("SERVICES_BOTTOM")),
        section(
            AdSlot("SERVICES"),
            cta_band(
                "Don't see what you need?",
                "Tell us about the care you're looking for and we'll look for a provider who offers it.",
                button_link("Request a service", "/service-requests", icon_name="arrow-right"),
            ),
        ),
        lead="Licensed providers come to your home, office or workplace for blood draws, IV therapy, nursing "
        "care and diagnostic tests. Here is what each service covers and how to get ready for your "
        "visit.",
        eyebrow="Services",
    )
