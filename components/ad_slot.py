"""Ad slots (issue 17 part 4): `AdSlot(placement)` is where a SPEC §3 placement shows an approved ad, and
`ad_card` is its markup, shared with the advertiser's preview on /ad-purchase and the staff review queue, so
what is previewed is what runs.

The slot reads this process's snapshot of live ads (memory, no query: app/services/ads) and, only in a live
tab (never the server's first paint, never a preview), asks the server for the ad to show, which counts the
view. The choice is contextual: the placement alone, never who is looking. Every ad is labelled "Sponsored";
its link goes through /api/ads/click/<id>, which counts the click and redirects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from reactpy import component, html, use_state
from reactpy.types import State, VdomDict

from app.services.ads import live_ads, serve_ad
from app.settings import get_settings
from components import browser
from components.context import use_session
from components.effects import use_effect
from components.hooks import use_action, use_live_tab
from components.kit import UserText, hint
from models.ads import LiveAd

SPONSORED = "Sponsored"


def click_href(flight_id: str, placement: str) -> str:
    return f"/api/ads/click/{flight_id}?p={placement}"


def ad_card(
    *,
    headline: str,
    body: str,
    link_url: str,
    image_url: str = "",
    advertiser: str = "",
    placement: str = "",
    href: str | None = None,
) -> VdomDict:
    """An ad as it runs: the "Sponsored" label, the image, headline, line and where it leads. Without `href`
    (a preview) the card is not a link and nothing is counted."""
    host = (urlsplit(link_url).hostname or "") if link_url.startswith("https://") else ""
    inner = (
        html.img({"class_name": "ad-image", "src": image_url, "alt": "", "loading": "lazy"})
        if image_url
        else "",
        html.span(
            {"class_name": "ad-text"},
            html.span({"class_name": "ad-headline"}, UserText(headline or "Your headline")),
            html.span({"class_name": "ad-body"}, UserText(body or "The line under your headline.")),
            html.span(
                {"class_name": "ad-by"},
                *([UserText(advertiser), " · "] if advertiser else []),
                host or "your-site.example",
            ),
        ),
    )
    card = (
        html.a({"class_name": "ad-card", "href": href, "rel": "sponsored noopener"}, *inner)
        if href
        else html.div({"class_name": "ad-card ad-card-preview"}, *inner)
    )
    return html.div(
        {
            "class_name": f"ad-slot ad-slot-{placement.lower().replace('_', '-')}"
            if placement
            else "ad-slot",
            "data-ad-placement": placement,
        },
        html.p({"class_name": "ad-label"}, SPONSORED),
        card,
    )


def image_field(
    image: dict[str, str] | None, on_image: Callable[[dict[str, str]], None], *, id: str
) -> VdomDict:
    """The creative's image: uploaded by the browser to /api/ads/images (static/js/uploads.js), then shown;
    `on_image({"id", "url"})` receives the stored image."""

    def uploaded(event: dict) -> None:
        try:
            answer = json.loads(event["target"]["value"])
        except (KeyError, TypeError, ValueError):
            return
        if isinstance(answer, dict) and "id" in answer and "url" in answer:
            on_image({"id": str(answer["id"])[:36], "url": str(answer["url"])[:200]})

    return html.fieldset(
        {"class_name": "field ad-image-field", **browser.upload_scope()},
        html.legend({"class_name": "label"}, "Image (optional)"),
        hint("A PNG, JPEG or WebP picture, shown beside your text."),
        html.img({"class_name": "ad-image-thumb", "src": image["url"], "alt": "Your uploaded image"})
        if image
        else "",
        html.label(
            {"class_name": "btn btn-outline btn-sm", "html_for": id},
            "Replace the image" if image else "Upload an image",
        ),
        html.input(
            {
                "id": id,
                "type": "file",
                "class_name": "sr-only",
                "accept": "image/png,image/jpeg,image/webp",
                **browser.upload_input(
                    max_bytes=get_settings().upload_max_bytes, max_files=1, url="/api/ads/images"
                ),
            }
        ),
        html.input({"type": "hidden", **browser.upload_sink(), "on_change": uploaded}),
        html.span({"class_name": "attach-status", **browser.upload_status(), "role": "status"}),
    )


@component
def AdSlot(placement: str) -> Any:
    """The placement's ad for this page view, or nothing (no live ad, over the frequency cap, first paint)."""
    session = use_session()
    live = use_live_tab()
    shown_state: State[LiveAd | None] = use_state(None)
    shown, set_shown = shown_state
    serve = use_action(serve_ad, on_error=lambda _message: None)  # an ad that fails to load is just absent
    available = bool(live_ads(placement)) if live else False

    @use_effect(dependencies=[placement, available])
    async def choose() -> None:
        if not available:
            return
        ad = await serve.run(
            placement=placement,
            visitor=session.visitor_id,
            user_agent=session.user_agent,
            ip=session.actor.ip,
        )
        if ad is not None:
            set_shown(ad)

    if shown is None:
        return html._()
    return ad_card(
        headline=shown.headline,
        body=shown.body,
        link_url=shown.link_url,
        image_url=shown.image_url,
        advertiser=shown.advertiser_name,
        placement=placement,
        href=click_href(shown.flight_id, placement),
    )
