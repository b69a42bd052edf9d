"""Find a Provider (/find-provider): search verified providers by service or category, ZIP code, provider type,
place of visit and date; sort by soonest opening, rating or price; 20 per page.

Every filter lives in the URL (`?service=iv-hydration&zip=10001&sort=soonest&page=2`): the form is a plain
GET form (static/js/app.js turns its submit into an in-page navigation) and sorting and paging are links, so
a reload, the back button or a shared link shows the same results. Times show in the visitor's time zone.
A ZIP code that is not a US ZIP (5 digits; full-width digits count, a ZIP+4 searches its ZIP) is said to be
invalid instead of being ignored (`zip_problem`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from urllib.parse import parse_qs, urlencode
from zoneinfo import ZoneInfo

from reactpy import component, html, use_location
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.errors import ValidationFailed
from app.services.providers import search_providers
from app.services.validation import us_zip
from components import browser
from components.ad_slot import AdSlot
from components.context import use_session
from components.hooks import use_live_tab, use_query
from components.icons import icon
from components.kit import (
    band,
    browser_field,
    browser_select,
    button_link,
    cta_band,
    error_state,
    form_error,
    frozen,
    loading_state,
    no_results,
    notice,
    public_page,
    section,
)
from components.provider_ui import chosen_service, pagination, provider_card, result_summary, sort_links
from components.service_ui import NO_SERVICES, catalog_service_options, zip_search_field
from models.catalog import ServiceLocation
from models.provider import ProviderQuery, ProviderType, SearchSort

PATH = "/find-provider"
DEFAULT_SORT = SearchSort.soonest
# Provider types most patients look for first; the rest follow in SPEC order.
COMMON_TYPES = (ProviderType.nurse, ProviderType.np, ProviderType.technician, ProviderType.lvn)


def _raw_zip(params: dict[str, list[str]]) -> str:
    return ((params.get("zip") or [""])[0] or "").strip()


def zip_problem(params: dict[str, list[str]]) -> str | None:
    """Why the ZIP code in the query string is not a US ZIP code, or None (no ZIP, or a valid one)."""
    raw = _raw_zip(params)
    if not raw:
        return None
    try:
        us_zip(raw)
    except ValidationFailed as exc:
        return exc.message
    return None


@component
def _SearchForm(query: ProviderQuery, today: str, typed_zip: str = "") -> VdomDict:
    options = use_query(catalog_service_options)
    if options.data is None and options.error is None:
        # Wait for the services, so the service list is complete when the fields appear.
        return loading_state("Loading search…")
    return _search_form(
        options.data or NO_SERVICES,
        today,
        service=query.service or "",
        zip_code=query.zip_code or typed_zip,
        provider_type=query.provider_type.value if query.provider_type else "",
        location=query.location.value if query.location else "",
        day=query.day.isoformat() if query.day else "",
        sort=query.sort.value,
    )


@lru_cache(maxsize=256)
def _search_form(
    options: tuple,
    today: str,
    *,
    service: str,
    zip_code: str,
    provider_type: str,
    location: str,
    day: str,
    sort: str,
) -> VdomDict:
    """The filters in force, as a form the browser submits itself (a GET to this path, in the page). Each
    field is frozen markup, shared by every tab with the same filters, so a new search sends only the fields
    whose value changed (a new ZIP code: that field, not the service list again). Typing changes nothing
    on the server, so no update elsewhere on the page can reset what the visitor is typing."""
    types = [*COMMON_TYPES, *(t for t in ProviderType if t not in COMMON_TYPES)]
    return html.form(
        {
            "class_name": "form search-form",
            "method": "get",
            "action": PATH,
            "role": "search",
            "aria-label": "Find a provider",
            **browser.client_get_form(),
        },
        frozen(browser_select("Service", "service", options=options, value=service, id_prefix="search")),
        frozen(zip_search_field(id_prefix="search", value=zip_code, hint="A 5-digit US ZIP code.")),
        frozen(
            browser_select(
                "Provider type",
                "type",
                options=[("", "Any provider type"), *((t.value, t.label) for t in types)],
                value=provider_type,
                id_prefix="search",
            )
        ),
        frozen(
            browser_select(
                "Place of visit",
                "location",
                options=[("", "Anywhere"), *((loc.value, loc.label) for loc in ServiceLocation)],
                value=location,
                id_prefix="search",
            )
        ),
        frozen(browser_field("Date", "date", type="date", value=day, min=today, id_prefix="search")),
        html.input({"type": "hidden", "name": "sort", "value": sort}),
        _SEARCH_ACTIONS,
    )


_SEARCH_ACTIONS = frozen(
    html.div(
        {"class_name": "search-actions"},
        html.button({"class_name": "btn btn-primary", "type": "submit"}, icon("search", size=18), "Search"),
        button_link("Clear filters", PATH, variant="outline"),
    )
)


@component
def _Results(search: str, time_zone: str) -> VdomDict:
    params = parse_qs(search.lstrip("?"))
    query = ProviderQuery.from_params(params, default_sort=DEFAULT_SORT)
    problem = zip_problem(params)
    # An invalid ZIP searches nothing (enabled=False) and says why.
    # Unmet demand is counted by the live page only, not again by the first paint's server copy.
    live = use_live_tab()
    results = use_query(
        search_providers, query=query, time_zone=time_zone, count_unmet=live, enabled=problem is None
    )
    if problem:
        return html.div(
            {"class_name": "search-results"},
            no_results("Check the ZIP code", form_error(problem), key="invalid-zip"),
        )
    page = results.data
    if results.error:
        return html.div({"class_name": "search-results"}, error_state(results.error, results.refetch))
    if page is None:
        return html.div(
            {"class_name": "search-results", "aria-busy": "true"},
            loading_state("Searching providers…"),
        )
    service = chosen_service(page)
    body = (
        [provider_card(card, time_zone, add_service=service) for card in page.items]
        if page.items
        else [
            no_results(
                "No providers match these filters",
                html.p("Try another date, a nearby ZIP code, or any provider type."),
                button_link("Clear filters", PATH, variant="outline"),
                key="empty",
            )
        ]
    )
    hints = list(page.notes)
    if page.query.zip_code is None and page.total:
        hints.append("Add your ZIP code to see only providers who travel to you.")
    return html.div(
        {
            "class_name": "search-results",
            "aria-busy": "true" if results.loading else "false",
            "data-results-for": urlencode(page.query.to_params()),
        },
        *(html.div({"key": hint, "class_name": "results-note"}, notice(hint)) for hint in hints),
        html.div(
            {"class_name": "results-bar"},
            html.p({"class_name": "results-status", "role": "status"}, result_summary(page)),
            sort_links(PATH, page.query),
        ),
        AdSlot("SEARCH_RESULTS") if page.total else "",
        html.div({"class_name": "provider-list"}, *body),
        pagination(PATH, page),
        html.p(
            {"class_name": "results-footnote"},
            f"Times are shown in your time zone ({time_zone.replace('_', ' ')}). Ratings count only reviews of "
            "completed visits. Every provider listed is verified.",
        ),
    )


@component
def FindProviderPage() -> VdomDict:
    session = use_session()
    search = use_location().search
    params = use_search_params()
    query = ProviderQuery.from_params(params, default_sort=DEFAULT_SORT)
    today = datetime.now(UTC).astimezone(ZoneInfo(session.time_zone)).date().isoformat()
    return public_page(
        "Find a provider near you",
        band(
            html.aside({"class_name": "card search-panel"}, _SearchForm(query, today, _raw_zip(params))),
            _Results(search, session.time_zone),
            class_name="search-section",
            container_class="search-layout",
        ),
        section(
            cta_band(
                "Providers: be found by patients near you",
                "Set up your profile, services, hours and service area.",
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
            ),
        ),
        lead="Search verified providers by service, ZIP code and date, and see when each one can come to you.",
        eyebrow="Find a Provider",
    )
