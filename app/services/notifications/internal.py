"""The notifications domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.notifications._delivery import notify, notify_each
from app.services.notifications._digest import send_daily_digests
from app.services.notifications._payments import tell_payment_failed
from app.services.notifications._visits import notify_visits
from app.services.notifications._wallet import tell_credit_granted, tell_refund_credited

__all__ = [
    "notify",
    "notify_each",
    "notify_visits",
    "send_daily_digests",
    "tell_credit_granted",
    "tell_payment_failed",
    "tell_refund_credited",
]
