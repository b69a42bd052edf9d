"""The features domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.features._discounts import discount_funding
from app.services.features._keeper import keep_toggles_fresh, load_toggles
from app.services.features._payment_modes import allowed_payment_modes
from app.services.features._payout_rule import payout_second_approval_above
from app.services.features._pricing import store_pricing

__all__ = [
    "allowed_payment_modes",
    "discount_funding",
    "keep_toggles_fresh",
    "load_toggles",
    "payout_second_approval_above",
    "store_pricing",
]
