"""Provider listings shared by Browse Providers, Find a Provider and Featured Providers: the result card,
prices (struck through during the flash sale), ratings, sort links and pagination. Plain links only: the
URL carries every filter, so a reload or a shared link shows the same page. When the search named one
service, the cards carry an Add to cart button for that service with that provider."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from urllib.parse import urlencode

from reactpy import html
from reactpy.types import VdomDict

from components.cart import AddToCartButton
from components.format import format_currency, format_minutes, format_rating, format_slot, initials
from components.icons import icon
from components.kit import UserText, frozen
from models.catalog import Price
from models.provider import (
    FeaturedProvider,
    ProviderCard,
    ProviderPage,
    ProviderQuery,
    RatingRead,
    SearchSort,
)

SORT_LABELS = {SearchSort.soonest: "Soonest", SearchSort.rating: "Rating", SearchSort.price: "Price"}
MAX_SERVICES_SHOWN = 4


def profile_href(provider_id: str) -> str:
    return f"/providers/{provider_id}"


def query_href(path: str, query: ProviderQuery, **changes: object) -> str:
    params = query.to_params(**changes)
    return f"{path}?{urlencode(params)}" if params else path


def price_tag(price: Price | None, *, is_from: bool = False) -> VdomDict:
    """The price to pay; during the sale the original is struck through next to it."""
    if price is None:
        return html.span({"class_name": "price-tag"})
    prefix = html.span({"class_name": "price-from"}, "From ") if is_from else ""
    if not price.on_sale:
        return html.span({"class_name": "price-tag"}, prefix, html.strong(format_currency(price.charge)))
    return html.span(
        {"class_name": "price-tag price-tag-sale"},
        prefix,
        html.s(
            {"class_name": "price-original"},
            html.span({"class_name": "sr-only"}, "Regular price "),
            format_currency(price.original),
        ),
        html.strong(
            {"class_name": "price-now"},
            html.span({"class_name": "sr-only"}, "Sale price "),
            format_currency(price.charge),
        ),
        html.span({"class_name": "sale-badge"}, f"{price.discount_percent}% off today"),
    )


def rating_line(rating: RatingRead) -> VdomDict:
    if rating.count == 0:
        return html.p({"class_name": "rating rating-none"}, "No reviews yet")
    reviews = "review" if rating.count == 1 else "reviews"
    return html.p(
        {"class_name": "rating"},
        icon("star-filled", size=16),
        html.strong(format_rating(rating.average)),
        html.span({"class_name": "rating-count"}, f" ({rating.count} {reviews})"),
    )


def provider_avatar(name: str, photo_url: str) -> VdomDict:
    if photo_url:
        return html.img({"class_name": "provider-avatar", "src": photo_url, "alt": "", "loading": "lazy"})
    return html.span(
        {"class_name": "provider-avatar provider-initials", "aria-hidden": "true"}, initials(name)
    )


def _credentials(provider_type_label: str, license_type: str, license_state: str) -> VdomDict:
    license_text = ", ".join(part for part in (license_type, license_state) if part)
    return html.p(
        {"class_name": "provider-meta"},
        html.span(provider_type_label),
        html.span({"class_name": "meta-sep", "aria-hidden": "true"}, "·"),
        html.span(f"License: {license_text}") if license_text else "",
        html.span({"class_name": "verified-badge"}, icon("shield", size=14), "Verified"),
    )


def _services(names: Sequence[str]) -> VdomDict:
    shown = list(names[:MAX_SERVICES_SHOWN])
    more = len(names) - len(shown)
    return html.ul(
        {"class_name": "chips provider-services", "aria-label": "Services offered"},
        *(html.li({"key": name, "class_name": "chip"}, name) for name in shown),
        html.li({"key": "more", "class_name": "chip chip-muted"}, f"+{more} more") if more > 0 else "",
    )


def chosen_service(page: ProviderPage) -> str | None:
    """The service slug a search named, when it named one service (not a category): then each card can
    add that service with its provider to the cart. Only a chosen service gives cards a visit length."""
    if page.query.service and page.items and page.items[0].slot_minutes is not None:
        return page.query.service
    return None


def provider_card(card: ProviderCard, time_zone: str, *, add_service: str | None = None) -> VdomDict:
    """A search result; with `add_service`, an Add to cart button books that service with this provider.
    Without one nothing on it acts: it is one frozen element, written once for every tab and search that
    shows the same provider with the same figures (popular searches show the same cards again and again)."""
    if not add_service:
        return _frozen_card(_SameContent(card), time_zone)
    return _card(card, time_zone, add_service)


class _SameContent:
    """A card as a cache key: equal when everything it shows is (the card's JSON), whatever the object."""

    __slots__ = ("card", "key")

    def __init__(self, card: ProviderCard) -> None:
        self.card = card
        self.key = card.model_dump_json()

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SameContent) and other.key == self.key


@lru_cache(maxsize=2048)  # a few MB at most: a card's HTML is ~1 KB
def _frozen_card(content: _SameContent, time_zone: str) -> VdomDict:
    return _card(content.card, time_zone, None)


def _card(card: ProviderCard, time_zone: str, add_service: str | None) -> VdomDict:
    heading_id = f"provider-{card.id}"
    slot = (
        html.p(
            {"class_name": "provider-slot"},
            icon("calendar", size=16),
            html.span("Next opening: "),
            html.strong(
                {"data-next-slot": card.next_slot.isoformat()}, format_slot(card.next_slot, time_zone)
            ),
            html.span({"class_name": "slot-length"}, f" ({format_minutes(card.slot_minutes)} visit)")
            if card.slot_minutes
            else "",
        )
        if card.next_slot
        else html.p(
            {"class_name": "provider-slot provider-slot-none"},
            icon("calendar", size=16),
            "No openings in the next 30 days",
        )
    )
    parts = (
        html.div(
            {"class_name": "provider-head"},
            *_avatar_and_who(card, heading_id),
            html.div({"class_name": "provider-price"}, price_tag(card.price, is_from=card.price_is_from)),
        ),
        UserText(card.bio, tag="p", class_name="provider-bio") if card.bio else "",
        _services(card.services),
        html.p({"class_name": "provider-languages"}, "Speaks " + ", ".join(card.languages))
        if card.languages
        else "",
    )
    article = {"class_name": "provider-card", "key": card.id, "aria-labelledby": heading_id}
    if not add_service:
        return frozen(html.article(article, *parts, slot))  # nothing on it acts: one element
    foot = html.div(
        {"class_name": "provider-card-foot"}, frozen(slot), AddToCartButton(add_service, provider_id=card.id)
    )
    return html.article(article, *_frozen_parts(*parts), foot)


def _avatar_and_who(provider: ProviderCard | FeaturedProvider, heading_id: str) -> tuple[VdomDict, VdomDict]:
    """The head of a provider's card: photo or initials, then the name (a link to the profile, the card's
    heading), the credentials and the rating."""
    return (
        provider_avatar(provider.name, provider.photo_url),
        html.div(
            {"class_name": "provider-who"},
            html.h3(
                {"id": heading_id, "class_name": "provider-name"},
                html.a({"href": profile_href(provider.id)}, UserText(provider.name)),
            ),
            _credentials(provider.provider_type.label, provider.license_type, provider.license_state),
            rating_line(provider.rating),
        ),
    )


def _frozen_parts(*parts: VdomDict | str) -> list[VdomDict]:
    """A card's parts that only show data, each held as one element (kit `frozen`): a page of 20 results
    keeps a fraction of the elements on the server for each open tab."""
    return [frozen(part) for part in parts if not isinstance(part, str)]  # "": a part not shown


def featured_card(provider: FeaturedProvider) -> VdomDict:
    heading_id = f"featured-{provider.id}"
    return frozen(  # nothing on it acts: one element
        html.article(
            {"class_name": "provider-card featured-card", "key": provider.id, "aria-labelledby": heading_id},
            html.div({"class_name": "provider-head"}, *_avatar_and_who(provider, heading_id)),
            UserText(provider.bio, tag="p", class_name="provider-bio") if provider.bio else "",
            _services(provider.services),
        )
    )


def sort_links(path: str, query: ProviderQuery) -> VdomDict:
    return html.nav(
        {"class_name": "sort-links", "aria-label": "Sort providers"},
        html.span({"class_name": "sort-label"}, "Sort by"),
        *(
            html.a(
                {
                    "key": sort.value,
                    "href": query_href(path, query, sort=sort, page=1),
                    "class_name": "sort-link" + (" is-active" if sort == query.sort else ""),
                    **({"aria-current": "true"} if sort == query.sort else {}),
                },
                label,
            )
            for sort, label in SORT_LABELS.items()
        ),
    )


def pagination(path: str, page: ProviderPage) -> VdomDict:
    if page.pages <= 1 and not page.more:
        return html._()
    query = page.query
    previous = (
        html.a({"class_name": "btn btn-outline", "href": query_href(path, query, page=page.page - 1), "rel": "prev"},
               icon("arrow-left", size=16), "Previous")
        if page.page > 1
        else html.span({"class_name": "btn btn-outline is-disabled", "aria-disabled": "true"}, "Previous")
    )  # fmt: skip
    following = (
        html.a({"class_name": "btn btn-outline", "href": query_href(path, query, page=page.page + 1), "rel": "next"},
               "Next", icon("arrow-right", size=16))
        if page.has_next
        else html.span({"class_name": "btn btn-outline is-disabled", "aria-disabled": "true"}, "Next")
    )  # fmt: skip
    return html.nav(
        {"class_name": "pagination", "aria-label": "Pages"},
        previous,
        html.span(
            {"class_name": "page-status", "aria-live": "polite"},
            f"Page {page.page} of {page.pages:,}{'+' if page.more else ''}",
        ),
        following,
    )


def result_summary(page: ProviderPage) -> str:
    if page.total == 0:
        return "No providers match these filters."
    first = (page.page - 1) * page.per_page + 1
    last = first + len(page.items) - 1
    noun = "provider matches" if page.total == 1 and not page.more else "providers match"
    return f"{page.total:,}{'+' if page.more else ''} {noun}; showing {first:,}–{last:,}."
