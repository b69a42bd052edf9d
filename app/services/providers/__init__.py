"""Providers: verified profiles, the provider's own services, hours, time off and service area, open slots,
search and featured providers, and sample providers for demos and benchmarks.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_availability": (
        "BAD_TIME_OFF",
        "NO_OWN_PROFILE",
        "PAST_TIME_OFF",
        "WEEKDAYS",
        "add_own_time_off",
        "add_time_off",
        "check_hours",
        "day_bounds",
        "list_own_time_off",
        "list_slots",
        "list_time_off",
        "next_slots",
        "remove_own_time_off",
        "remove_time_off",
        "set_own_weekly_hours",
        "set_weekly_hours",
    ),
    "_licensing": (
        "NOT_LICENSED",
        "add_profile_license",
        "licensed_states",
    ),
    "_management": (
        "PROVIDERS_TOPIC",
        "get_managed_provider",
        "list_managed_providers",
        "list_provider_audit",
        "reinstate_provider",
        "suspend_provider",
    ),
    "_profiles": (
        "FEATURED_MIN_REVIEWS",
        "MAX_ZIPS",
        "NO_PROVIDER",
        "ServiceOffer",
        "create_provider",
        "get_own_provider",
        "get_provider",
        "list_featured",
        "list_openings",
        "set_listing",
        "set_own_service_area",
        "set_own_services",
        "set_service_area",
        "set_services",
        "sync_listing",
    ),
    "_samples": (
        "METROS",
        "progress_bar",
        "seed_demo_provider",
        "seed_providers",
    ),
    "_search": ("search_providers",),
    "_slots": (
        "Hours",
        "Interval",
        "SlotRules",
        "generate_slots",
        "next_slot",
        "parse_schedule",
        "schedule_key",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
