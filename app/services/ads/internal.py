"""The ads domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.ads._billing import close_finished_ad_flights, settle_ad_payment
from app.services.ads._serving import forget_old_ad_views, keep_ads_fresh, load_live_ads, read_live_ads

__all__ = [
    "close_finished_ad_flights",
    "forget_old_ad_views",
    "keep_ads_fresh",
    "load_live_ads",
    "read_live_ads",
    "settle_ad_payment",
]
