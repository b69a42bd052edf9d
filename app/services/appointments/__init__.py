"""Appointments: the visit lifecycle (confirm, start, complete, cancel, reschedule), reads of visits for
patients, providers and staff, visit e-mails and 24-hour reminders, and reviews of completed visits.

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.appointments._emails import (
    visit_where,
)
from app.services.appointments._lifecycle import (
    LIST_LIMIT,
    POLICY,
    appointments_topic,
    cancel_appointment,
    complete_appointment,
    confirm_appointment,
    list_my_appointments,
    list_provider_schedule,
    list_reschedule_slots,
    mark_visit_completed,
    reschedule_appointment,
    send_due_reminders,
    start_appointment,
)
from app.services.appointments._reviews import (
    LATEST_REVIEWS,
    MAX_COMMENT,
    add_review,
    list_reviews,
    rating_summary,
    review_visit,
)

__all__ = [
    "LATEST_REVIEWS",
    "LIST_LIMIT",
    "MAX_COMMENT",
    "POLICY",
    "add_review",
    "appointments_topic",
    "cancel_appointment",
    "complete_appointment",
    "confirm_appointment",
    "list_my_appointments",
    "list_provider_schedule",
    "list_reschedule_slots",
    "list_reviews",
    "mark_visit_completed",
    "rating_summary",
    "reschedule_appointment",
    "review_visit",
    "send_due_reminders",
    "start_appointment",
    "visit_where",
]
