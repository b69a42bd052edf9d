"""The providers domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.providers._availability import (
    list_slots,
    load_blocks,
    load_calendars,
    load_hours,
    next_slots,
)
from app.services.providers._licensing import add_profile_license, licensed_states, sync_listing
from app.services.providers._profiles import provider_read
from app.services.providers._samples import load_catalog, seed_demo_provider, seed_providers

__all__ = [
    "add_profile_license",
    "licensed_states",
    "list_slots",
    "load_blocks",
    "load_calendars",
    "load_catalog",
    "load_hours",
    "next_slots",
    "provider_read",
    "seed_demo_provider",
    "seed_providers",
    "sync_listing",
]
