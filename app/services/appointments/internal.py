"""The appointments domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.appointments._lifecycle import send_due_reminders
from app.services.appointments._order_notices import (
    announce_paid_order,
    announce_placed_order,
    refresh_order_screens,
    tell_providers_of_released_visits,
)
from app.services.appointments._reads import appointment_read, appointment_reads
from app.services.appointments._reviews import add_review, mark_visit_completed, refresh_ratings
from app.services.appointments._scheduling import eligible_providers, lock_providers, provider_calendars
from app.services.appointments._visit_notices import (
    ask_for_review,
    tell_cancelled,
    tell_confirmed,
    tell_reassigned,
    tell_rescheduled,
)

__all__ = [
    "add_review",
    "announce_paid_order",
    "announce_placed_order",
    "appointment_read",
    "appointment_reads",
    "ask_for_review",
    "eligible_providers",
    "lock_providers",
    "mark_visit_completed",
    "provider_calendars",
    "refresh_order_screens",
    "refresh_ratings",
    "send_due_reminders",
    "tell_cancelled",
    "tell_confirmed",
    "tell_providers_of_released_visits",
    "tell_reassigned",
    "tell_rescheduled",
]
