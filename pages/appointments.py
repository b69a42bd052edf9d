"""My Appointments (/appointments): a patient's upcoming and past visits — reschedule, cancel, review — or,
for a provider, their schedule. Signed-out visitors are sent to sign in and brought back here."""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict

from components.appointment_ui import AppointmentsBoard, is_provider
from components.context import use_session
from components.kit import band, public_page

PATH = "/appointments"


@component
def AppointmentsPage() -> VdomDict:
    provider = is_provider(use_session().signed_in_user)
    return public_page(
        "My Appointments",
        band(AppointmentsBoard(PATH), class_name="appts-section"),
        lead="Confirm, start and complete your visits with patients."
        if provider
        else "Your upcoming and past visits: reschedule or cancel up to 24 hours ahead, and review your care.",
        eyebrow="Schedule" if provider else "Bookings",
    )
