"""Appointments: the visit lifecycle (confirm, start, complete, cancel, reschedule), reads of visits for
patients, providers and staff, visit e-mails and 24-hour reminders, and reviews of completed visits.

The public surface of the domain: screens, HTTP routes and the assembly import these names from here only;
the `_*` modules are private. Names load on first use (PEP 562), so domains that call each other (a visit
confirmed from the staff dashboard, a hold checked against appointments) never meet a half-imported package.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_emails": ("visit_where",),
    "_lifecycle": (
        "LIST_LIMIT",
        "POLICY",
        "appointments_topic",
        "cancel_appointment",
        "complete_appointment",
        "confirm_appointment",
        "list_my_appointments",
        "list_provider_schedule",
        "list_reschedule_slots",
        "reschedule_appointment",
        "send_due_reminders",
        "start_appointment",
    ),
    "_reviews": (
        "LATEST_REVIEWS",
        "MAX_COMMENT",
        "add_review",
        "list_reviews",
        "mark_visit_completed",
        "rating_summary",
        "review_visit",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
