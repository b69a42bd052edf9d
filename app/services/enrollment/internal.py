"""The enrollment domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.enrollment._pipeline import nudge_idle_drafts
from app.services.enrollment._reasons import ensure_decision_reasons
from app.services.enrollment._standing import (
    keep_good_standing,
    lapse_expired_credentials,
    restore_standing_if_current,
    send_expiry_reminders,
    standing_problems,
)

__all__ = [
    "ensure_decision_reasons",
    "keep_good_standing",
    "lapse_expired_credentials",
    "nudge_idle_drafts",
    "restore_standing_if_current",
    "send_expiry_reminders",
    "standing_problems",
]
