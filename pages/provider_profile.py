"""Public provider profile (/providers/{provider_id}): who the provider is (photo, type, license, Verified
badge, languages, bio), their rating and latest reviews of completed visits, the services they offer at
their prices (flash sale struck through) with Add to cart, the ZIP codes they travel to, and their open
times over the next 7 days in the visitor's time zone for one chosen service.

Only verified and active providers have a profile; any other id shows 'This provider is not available'.
`?service=<slug>` preselects the service whose open times show.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from reactpy import component, html, use_state
from reactpy.types import State, VdomDict
from reactpy_router import use_params, use_search_params

from app.services.appointments import LATEST_REVIEWS, list_reviews
from app.services.providers import NO_PROVIDER, get_provider, list_openings
from components.ad_slot import AdSlot
from components.cart import AddToCartButton
from components.context import use_session
from components.format import format_date, format_minutes, initials
from components.hooks import use_query
from components.icons import icon
from components.kit import (
    Region,
    Select,
    UserText,
    band,
    button_link,
    button_row,
    detail_header,
    error_state,
    frozen,
    hint,
    loading_state,
    page_title,
    toggle_chip,
)
from components.provider_ui import price_tag, rating_line
from components.service_ui import find_href
from models.provider import DaySlots, ProviderRead, ProviderServiceRead, RatingRead, ReviewRead

FIND_PATH = "/find-provider"
UNAVAILABLE = "This provider is not available"
ZIPS_SHOWN = 12


def _clock(moment: datetime, time_zone: str) -> str:
    """'9:00 AM' in `time_zone`."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


def _unavailable() -> VdomDict:
    return html.section(
        {"class_name": "container not-found profile-unavailable"},
        html.span({"class_name": "empty-icon"}, icon("user", size=30)),
        html.h1(UNAVAILABLE),
        html.p(
            {"class_name": "lead"},
            "This profile doesn't exist, or the provider isn't taking visits through us right now. "
            "Other verified providers near you can help.",
        ),
        button_row(
            button_link("Find a provider", FIND_PATH, icon_name="arrow-right"),
            button_link("Browse providers", "/providers", variant="outline"),
        ),
    )


def _photo(provider: ProviderRead) -> VdomDict:
    if provider.photo_url:
        return html.img({"class_name": "profile-photo", "src": provider.photo_url, "alt": provider.name})
    return html.span(
        {"class_name": "profile-photo profile-initials", "aria-hidden": "true"}, initials(provider.name)
    )


def _hero(provider: ProviderRead) -> VdomDict:
    license_text = ", ".join(part for part in (provider.license_type, provider.license_state) if part)
    return frozen(
        detail_header(
            html.div(
                {"class_name": "profile-hero-inner"},
                _photo(provider),
                html.div(
                    {"class_name": "profile-who"},
                    UserText(provider.name, tag="h1", class_name="profile-name"),
                    html.p(
                        {"class_name": "provider-meta profile-meta"},
                        html.span({"class_name": "profile-type"}, provider.provider_type.label),
                        html.span({"class_name": "meta-sep", "aria-hidden": "true"}, "·")
                        if license_text
                        else "",
                        html.span(f"License: {license_text}") if license_text else "",
                        html.span({"class_name": "verified-badge"}, icon("shield", size=14), "Verified"),
                    ),
                    rating_line(provider.rating),
                    html.p(
                        {"class_name": "profile-languages"},
                        icon("message", size=16),
                        "Speaks " + ", ".join(provider.languages),
                    )
                    if provider.languages
                    else "",
                ),
                html.a(
                    {"class_name": "btn btn-primary profile-hero-cta", "href": "#openings"},
                    icon("calendar", size=18),
                    "See open times",
                )
                if provider.services
                else "",
            ),
            trail=(("Providers", "/providers"),),
            current=UserText(provider.name, **{"aria-current": "page"}),
            class_name="profile-hero",
        )
    )


def _service_row(service: ProviderServiceRead, provider_id: str) -> VdomDict:
    heading_id = f"offer-{service.service_slug}"
    places = ", ".join(location.label for location in service.locations)
    return html.li(
        {"key": service.service_slug, "class_name": "profile-service", "aria-labelledby": heading_id},
        frozen(
            html.div(
                {"class_name": "profile-service-text"},
                html.h3({"id": heading_id, "class_name": "profile-service-name"}, service.service_name),
                html.p(
                    {"class_name": "profile-service-meta"},
                    icon("clock", size=14),
                    format_minutes(service.duration_minutes),
                    html.span({"class_name": "meta-sep", "aria-hidden": "true"}, "·"),
                    places,
                ),
            )
        ),
        html.div(
            {"class_name": "profile-service-buy"},
            frozen(price_tag(service.price)),
            AddToCartButton(service.service_slug, provider_id, key=f"cart-{service.service_slug}"),
        ),
    )


def _services(provider: ProviderRead) -> VdomDict:
    body = (
        html.ul(
            {"class_name": "profile-services"}, *(_service_row(s, provider.id) for s in provider.services)
        )
        if provider.services
        else html.p({"class_name": "text-muted"}, "This provider has not listed any services yet.")
    )
    return Region(
        "Services and prices",
        body,
        title_id="profile-services-heading",
        class_name="card profile-card profile-offers",
        title_class="profile-card-title",
    )


def _stars(rating: int) -> VdomDict:
    return html.span(
        {"class_name": "review-stars", "role": "img", "aria-label": f"{rating} out of 5 stars"},
        *(
            html.span(
                {"key": str(n), "class_name": "review-star" + (" is-on" if n <= rating else "")},
                icon("star-filled" if n <= rating else "star", size=15),
            )
            for n in range(1, 6)
        ),
    )


def _review(review: ReviewRead) -> VdomDict:
    return html.li(
        {"key": review.id, "class_name": "review"},
        html.div(
            {"class_name": "review-head"},
            _stars(review.rating),
            UserText(review.author_name or "Verified patient", tag="strong", class_name="review-author"),
            html.span({"class_name": "review-date"}, format_date(review.created_at)),
        ),
        UserText(review.comment, tag="p", class_name="review-comment") if review.comment else "",
    )


@component
def _Reviews(provider_id: str, rating: RatingRead) -> VdomDict:
    reviews = use_query(list_reviews, provider_id=provider_id, limit=LATEST_REVIEWS)
    if rating.count == 0:
        body = html.p(
            {"class_name": "text-muted"}, "No reviews yet. Reviews appear here after completed visits."
        )
    elif reviews.data is None:
        body = (
            error_state(reviews.error, reviews.refetch)
            if reviews.error
            else loading_state("Loading reviews…")
        )
    else:
        shown = len(reviews.data)
        summary = f"The latest {shown} of {rating.count} reviews." if rating.count > shown else ""
        body = html._(
            frozen(html.ul({"class_name": "reviews"}, *(_review(review) for review in reviews.data))),
            hint(summary) if summary else "",
        )
    return Region(
        "Reviews",
        hint("Only patients whose visit was completed can leave a review."),
        body,
        title_id="profile-reviews-heading",
        class_name="card profile-card profile-reviews",
        title_class="profile-card-title",
        head_class="profile-card-head",
        head=(rating_line(rating),),
    )


def _day_button(slots: DaySlots, selected: bool, choose: Callable[[str], None]) -> VdomDict:
    """The day's button: a click chooses the day (`choose(iso date)`)."""
    count = len(slots.starts)
    times = f"{count} open {'time' if count == 1 else 'times'}" if count else "no open times"
    return toggle_chip(
        html.span({"class_name": "day-pick-weekday"}, f"{slots.day:%a}"),
        html.span({"class_name": "day-pick-date"}, str(slots.day.day)),
        html.span({"class_name": "day-pick-dot"}),
        pressed=selected,
        on_click=lambda _event: choose(slots.day.isoformat()),
        class_name="day-pick",
        key=slots.day.isoformat(),
        extra_class=None if count else "is-empty",
        label=f"{slots.day:%A}, {slots.day:%B} {slots.day.day}: {times}",
    )


@component
def _Openings(
    provider_id: str, services: list[ProviderServiceRead], time_zone: str, preferred: str
) -> VdomDict:
    slugs = [service.service_slug for service in services]
    service_slug, set_service_slug = use_state(preferred if preferred in slugs else slugs[0])
    chosen_day_state: State[str | None] = use_state(None)
    chosen_day, set_chosen_day = chosen_day_state
    week = use_query(list_openings, provider_id=provider_id, service_slug=service_slug, time_zone=time_zone)

    def choose_service(slug: str) -> None:
        set_service_slug(slug)  # the chosen day stays, if it has times for this one

    picker = html.div(
        {"class_name": "form openings-service"},
        Select(
            "Service",
            "service",
            options=[(s.service_slug, s.service_name) for s in services],
            default=service_slug,
            on_change=choose_service,
            id="openings-service",
        ),
    )
    if week.data is None:
        content = (
            error_state(week.error, week.refetch) if week.error else loading_state("Loading open times…")
        )
    else:
        content = _week(week.data, chosen_day, set_chosen_day, time_zone, service_slug, bool(week.loading))
    return Region(
        "Next available times",
        picker,
        content,
        html.div(
            {"class_name": "openings-actions"},
            AddToCartButton(service_slug, provider_id, key=f"openings-cart-{service_slug}"),
        ),
        hint(
            f"Times are shown in your time zone ({time_zone.replace('_', ' ')}). "
            "You choose your time at checkout."
        ),
        title_id="openings-heading",
        class_name="card profile-card openings",
        title_class="profile-card-title",
        id="openings",
    )


def _week(
    week: list[DaySlots],
    chosen: str | None,
    choose: Callable[[str], None],
    time_zone: str,
    service_slug: str,
    busy: bool,
) -> VdomDict:
    if not any(day.starts for day in week):
        return html.div(
            {"class_name": "openings-none", "role": "status"},
            html.p(f"No open times in the next {len(week)} days for this service."),
            html.a({"href": find_href(service_slug)}, "Find another provider for this service"),
        )
    selected = next((d for d in week if d.day.isoformat() == chosen), None) or next(
        d for d in week if d.starts
    )
    return html.div(
        {"class_name": "openings-week", "aria-busy": "true" if busy else "false"},
        html.div(
            {"class_name": "day-picks", "role": "group", "aria-label": "Choose a day"},
            *(_day_button(day, day is selected, choose) for day in week),
        ),
        html.h3({"class_name": "openings-day"}, f"{selected.day:%A}, {format_date(selected.day)}"),
        html.ul(
            {"class_name": "slot-list", "aria-label": f"Open times on {selected.day:%A}"},
            *(
                html.li(
                    {"key": moment.isoformat(), "class_name": "slot", "data-slot": moment.isoformat()},
                    _clock(moment, time_zone),
                )
                for moment in selected.starts
            ),
        )
        if selected.starts
        else html.p({"class_name": "text-muted"}, "No open times on this day."),
    )


def _service_area(zip_codes: list[str]) -> VdomDict:
    shown, rest = zip_codes[:ZIPS_SHOWN], zip_codes[ZIPS_SHOWN:]
    chips = html.ul(
        {"class_name": "chips zip-chips", "aria-label": "ZIP codes"},
        *(html.li({"key": code, "class_name": "chip"}, code) for code in shown),
    )
    more = (
        html.details(
            {"class_name": "zip-more"},
            html.summary(f"Show all {len(zip_codes)} ZIP codes"),
            html.p({"class_name": "zip-all"}, ", ".join(zip_codes)),
        )
        if rest
        else ""
    )
    body = (
        html._(chips, more)
        if zip_codes
        else html.p({"class_name": "text-muted"}, "No service area listed yet.")
    )
    return frozen(
        Region(
            (icon("map-pin", size=18), "Service area"),
            hint("Visits at home or at work in these ZIP codes."),
            body,
            title_id="profile-area-heading",
            class_name="card profile-card profile-area",
            title_class="profile-card-title",
        )
    )


def _profile(provider: ProviderRead, time_zone: str, preferred: str, brand: str) -> VdomDict:
    return html._(
        page_title(f"{provider.name} | {brand}"),
        _hero(provider),
        band(
            html.div(
                {"class_name": "profile-main"},
                frozen(
                    Region(
                        "About",
                        UserText(provider.bio, tag="p", class_name="profile-bio")
                        if provider.bio
                        else html.p(
                            {"class_name": "profile-bio"},
                            UserText(provider.name),
                            f" is a verified {provider.provider_type.label}.",
                        ),
                        title_id="profile-about-heading",
                        class_name="card profile-card profile-about",
                        title_class="profile-card-title",
                    )
                ),
                _services(provider),
                _Reviews(provider.id, provider.rating, key=f"reviews-{provider.id}"),
            ),
            html.aside(
                {"class_name": "profile-aside"},
                _Openings(provider.id, provider.services, time_zone, preferred, key=f"openings-{provider.id}")
                if provider.services
                else "",
                _service_area(provider.zip_codes),
                AdSlot("PROVIDER_PROFILE"),
            ),
            class_name="profile-section",
            container_class="profile-layout",
        ),
    )


@component
def ProviderProfilePage() -> VdomDict:
    session = use_session()
    provider_id = use_params().get("provider_id", "")
    preferred = (use_search_params().get("service") or [""])[0]
    profile = use_query(get_provider, provider_id=provider_id)
    if profile.error == NO_PROVIDER:
        return html._(page_title(f"{UNAVAILABLE} | {session.brand_name}"), _unavailable())
    if profile.error:
        return html.section({"class_name": "container section"}, error_state(profile.error, profile.refetch))
    if profile.data is None:
        return html.section(
            {"class_name": "container section profile-loading", "aria-busy": "true"},
            loading_state("Loading profile…"),
        )
    return _profile(profile.data, session.time_zone, preferred, session.brand_name)
