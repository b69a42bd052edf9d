"""Appointments: the visit lifecycle (confirm, start, complete, cancel, reschedule), reads of visits for
patients, providers and staff, visit e-mails and 24-hour reminders, reviews of completed visits, and the
staff's appointments screen (every visit by day or week, a visit's details, reassign, reschedule and cancel
on the patient's behalf: `_staff_reads`, `_staff_actions`), who may take a visit's time (`_scheduling`, for
booking and staff alike), and what an order's people hear of it (`_order_notices`: subscribers of the
checkout and payment events).

Its public surface: the names below (`__all__`).
"""

from app.services.appointments._contact import PatientPhone, show_patient_phone
from app.services.appointments._emails import visit_email, visit_where
from app.services.appointments._figures import MarketplaceFigures, forget_figures, marketplace_figures
from app.services.appointments._lifecycle import (
    LIST_LIMIT,
    OPEN,
    appointments_topic,
    cancel_appointment,
    complete_appointment,
    confirm_appointment,
    get_my_visit_summary,
    list_my_appointments,
    list_provider_schedule,
    list_reschedule_slots,
    reschedule_appointment,
    start_appointment,
)
from app.services.appointments._policy import (
    POLICY,
    change_rule_summary,
    checkout_rule,
    provider_sees_details,
)
from app.services.appointments._reads import read_of
from app.services.appointments._reviews import (
    LATEST_REVIEWS,
    MAX_COMMENT,
    list_reviews,
    public_author_name,
    review_visit,
)
from app.services.appointments._scheduling import (
    Calendars,
    Candidate,
    serves_zip,
)
from app.services.appointments._staff_actions import (
    STAFF_TOPIC,
    cancel_visit_for_patient,
    list_reassign_options,
    list_staff_reschedule_times,
    reassign_visit,
    reschedule_visit_for_patient,
)
from app.services.appointments._staff_reads import (
    get_provider_schedule,
    get_staff_visit,
    get_staff_visit_filters,
    list_staff_visits,
    shown_days,
)
from app.services.shared.ratings import rating_summary

__all__ = [
    "Calendars",
    "Candidate",
    "LATEST_REVIEWS",
    "LIST_LIMIT",
    "MAX_COMMENT",
    "MarketplaceFigures",
    "OPEN",
    "POLICY",
    "PatientPhone",
    "STAFF_TOPIC",
    "appointments_topic",
    "cancel_appointment",
    "cancel_visit_for_patient",
    "change_rule_summary",
    "checkout_rule",
    "complete_appointment",
    "confirm_appointment",
    "forget_figures",
    "get_my_visit_summary",
    "get_provider_schedule",
    "get_staff_visit",
    "get_staff_visit_filters",
    "list_my_appointments",
    "list_provider_schedule",
    "list_reassign_options",
    "list_reschedule_slots",
    "list_reviews",
    "list_staff_reschedule_times",
    "list_staff_visits",
    "marketplace_figures",
    "provider_sees_details",
    "public_author_name",
    "rating_summary",
    "read_of",
    "reassign_visit",
    "reschedule_appointment",
    "reschedule_visit_for_patient",
    "review_visit",
    "serves_zip",
    "show_patient_phone",
    "shown_days",
    "start_appointment",
    "visit_email",
    "visit_where",
]
