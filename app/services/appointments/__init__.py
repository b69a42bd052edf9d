"""Appointments: the visit lifecycle (confirm, start, complete, cancel, reschedule), reads of visits for
patients, providers and staff, visit e-mails and 24-hour reminders, reviews of completed visits, and the
staff's appointments screen (every visit by day or week, a visit's details, reassign, reschedule and cancel
on the patient's behalf: `_staff_reads`, `_staff_actions`).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_contact": ("PatientPhone", "show_patient_phone"),
    "_emails": ("visit_email", "visit_where"),
    "_figures": ("MarketplaceFigures", "forget_figures", "marketplace_figures"),
    "_order_notices": (
        "announce_paid_order",
        "announce_placed_order",
        "refresh_order_screens",
        "tell_providers_of_released_visits",
    ),
    "_scheduling": (
        "Calendars",
        "Candidate",
        "eligible_providers",
        "lock_providers",
        "provider_calendars",
        "serves_zip",
    ),
    "_policy": ("POLICY", "change_rule_summary", "checkout_rule", "provider_sees_details"),
    "_lifecycle": (
        "LIST_LIMIT",
        "OPEN",
        "appointments_topic",
        "cancel_appointment",
        "complete_appointment",
        "confirm_appointment",
        "get_my_visit_summary",
        "list_my_appointments",
        "list_provider_schedule",
        "list_reschedule_slots",
        "reschedule_appointment",
        "send_due_reminders",
        "start_appointment",
    ),
    "_staff_actions": (
        "STAFF_TOPIC",
        "cancel_visit_for_patient",
        "list_reassign_options",
        "list_staff_reschedule_times",
        "reassign_visit",
        "reschedule_visit_for_patient",
    ),
    "_staff_reads": (
        "get_provider_schedule",
        "get_staff_visit",
        "get_staff_visit_filters",
        "list_staff_visits",
        "shown_days",
    ),
    "_reviews": (
        "LATEST_REVIEWS",
        "MAX_COMMENT",
        "add_review",
        "list_reviews",
        "mark_visit_completed",
        "public_author_name",
        "rating_summary",
        "refresh_ratings",
        "review_visit",
    ),
    "_reads": ("appointment_read", "appointment_reads", "read_of"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
