"""Appointments in the dashboard (/dashboard/appointments): the same visits as My Appointments — a patient's
bookings or a provider's schedule — inside the dashboard's frame. Login required."""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict

from components.appointment_ui import AppointmentsBoard, is_provider
from components.context import use_session
from components.kit import dashboard_header, portal_body, portal_page

PATH = "/dashboard/appointments"


@component
def DashboardAppointmentsPage() -> VdomDict:
    provider = is_provider(use_session().signed_in_user)
    return portal_page(
        dashboard_header(
            "Appointments",
            lead="Your schedule with patients." if provider else "Your visits, past and upcoming.",
        ),
        portal_body(AppointmentsBoard(PATH)),
    )
