"""Self-serve ad placements (issue 17 part 4): advertisers book flights (SPEC §3 placements, dates, a budget,
one creative) priced per thousand views; staff with manage_ads review them, with a health-claim screening to
help; approved flights serve contextually from an in-memory snapshot, their views and clicks counted on the
server with billing hygiene; advertisers read their own figures.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_rules": (
        "ADVERTISER_ROLES",
        "FREQUENCY_CAP",
        "PRICES",
        "TOPIC",
        "flight_problems",
        "screen_claims",
        "truncate_ip",
    ),
    "_flights": (
        "FlightInvalid",
        "edit_ad_creative",
        "end_my_ad_flight",
        "get_ad_availability",
        "list_ad_flights",
        "list_ad_prices",
        "list_my_ad_flights",
        "review_ad_flight",
        "set_ad_flight_status",
        "submit_ad_flight",
    ),
    "_images": ("add_ad_image", "open_ad_image"),
    "_serving": (
        "forget_old_ad_views",
        "keep_ads_fresh",
        "live_ads",
        "load_live_ads",
        "read_live_ads",
        "record_ad_click",
        "serve_ad",
    ),
    "_figures": ("get_ad_figures",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
