"""The words of notifications, PHI-free by construction: built from a date, a ticket number or an amount,
never from a service's name, a note, a message or a diagnosis (a lock screen or a shared inbox shows them);
the detail is behind the link, where the services check who may see it.

Links point at the object: a visit in the dashboard's appointments (the tab it is listed under), a ticket in
the customer's support page or the staff help desk, the account's settings.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from models.notification import NotificationKind

Audience = Literal["patient", "provider"]
Breach = Literal["first-response", "resolution"]  # the due time a help-desk ticket missed
K = NotificationKind
VISITS_PATH = "/dashboard/appointments"
SETTINGS_PATH = "/dashboard/settings"
SUPPORT_PATH = "/dashboard/support"
HELP_DESK_PATH = "/staff/help-desk"
VERIFICATIONS_PATH = "/staff/verifications"
STAFF_HOME = "/staff"
CLOSED_KINDS = (K.visit_cancelled, K.review_request)


def when_text(moment: datetime, time_zone: str) -> str:
    """'Tue Dec 3 at 10:00 AM' in `time_zone` (where the visit takes place)."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return (
        f"{local:%a %b} {local.day} at {local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"
    )


def visit_link(appointment_id: str, kind: NotificationKind) -> str:
    if kind == K.visit_unassigned:  # no longer the reader's visit: their schedule
        return VISITS_PATH
    tab = "past" if kind in CLOSED_KINDS else "upcoming"
    return f"{VISITS_PATH}?{urlencode({'tab': tab, 'visit': appointment_id})}"


def visit_copy(
    kind: NotificationKind, audience: Audience, starts_at: datetime, time_zone: str
) -> tuple[str, str]:
    """(title, preview) of a visit notification for the patient or the provider."""
    when = when_text(starts_at, time_zone)
    match kind, audience:
        case K.visit_booked, "patient":
            return f"Your visit on {when} was booked", "Your provider will confirm it shortly."
        case K.visit_booked, "provider":
            return f"New visit request for {when}", "Please confirm it in your schedule."
        case K.visit_confirmed, _:
            return f"Your visit on {when} was confirmed", "Open it for the details."
        case K.visit_changed, "patient":
            return f"Your visit was moved to {when}", "Your provider will confirm the new time."
        case K.visit_changed, "provider":
            return f"A visit was moved to {when}", "Please confirm the new time in your schedule."
        case K.visit_reassigned, "patient":
            return f"Your visit on {when} has a new provider", "Open it to see who is coming."
        case K.visit_reassigned, "provider":
            return f"A visit on {when} was assigned to you", "Please confirm it in your schedule."
        case K.visit_unassigned, _:
            return f"The visit on {when} went to another provider", "The time is free again in your schedule."
        case K.visit_cancelled, "patient":
            return f"Your visit on {when} was cancelled", "Nothing is charged for a cancelled visit."
        case K.visit_cancelled, "provider":
            return f"The visit on {when} was cancelled", "The time is free again in your schedule."
        case K.visit_reminder, _:
            return f"Reminder: your visit is on {when}", "Open it to see where and how to prepare."
        case K.review_request, _:
            return f"How was your visit on {when}?", "Leave a review to help others choose."
    raise ValueError(f"No visit notification {kind!r} for the {audience}")


def ticket_reply_copy(number: int) -> tuple[str, str]:
    return f"Support replied to your request #{number}", "Open the request to read the reply."


def ticket_assigned_copy(number: int) -> tuple[str, str]:
    return f"Ticket #{number} was assigned to you", "Open it in the help desk."


def ticket_overdue_copy(number: int, breach: Breach) -> tuple[str, str]:
    """A help-desk ticket missed a due time: its number only (never the subject or the customer)."""
    return f"Ticket #{number} is past its {breach} time", "Open it in the help desk."


def ticket_red_flag_copy(number: int, level: str) -> tuple[str, str]:
    """A customer's ticket or reply has a red flag: the ticket's number and what to do, never their words
    nor the kind of emergency."""
    line = "988 (crisis)" if level == "crisis" else "911 (emergency)"
    return (
        f"Urgent: ticket #{number} may be from someone in danger",
        f"The safety check found words that need a person now. The customer was shown the {line} message. "
        "Open the ticket and reply at once.",
    )


def verification_waiting_copy(resubmitted: bool) -> tuple[str, str]:
    """A provider application reached the verification queue (no names: the detail is behind the link)."""
    if resubmitted:
        return (
            "A provider application is back with the information asked for",
            "Open it in Verification Requests.",
        )
    return "A new provider application is waiting for review", "Open it in Verification Requests."


def verification_link(application_id: str) -> str:
    return f"{VERIFICATIONS_PATH}?{urlencode({'application': application_id})}"


def ticket_link_for_customer(ticket_id: str) -> str:
    return f"{SUPPORT_PATH}?{urlencode({'ticket': ticket_id})}"


def ticket_link_for_staff(ticket_id: str) -> str:
    return f"{HELP_DESK_PATH}?{urlencode({'ticket': ticket_id})}"


def staff_access_copy(removed: bool) -> tuple[str, str]:
    if removed:
        return "Your staff access was removed", "You can no longer open the staff portal."
    return "Your staff access was updated", "Your role or permissions changed."


WAITLIST_APPROVED = (
    "Welcome! Your access was approved",
    "We're glad to have you. Start with your dashboard.",
)

SECURITY_COPY: dict[NotificationKind, tuple[str, str]] = {
    K.new_sign_in: (
        "New sign-in to your account",
        "From a device or network not seen before. If this wasn't you, change your password now.",
    ),
    K.password_changed: (
        "Your password was changed",
        "Other devices were signed out. If this wasn't you, reset your password now.",
    ),
    K.email_change_requested: (
        "A change of your e-mail address was requested",
        "Nothing changes until the new address is confirmed. If this wasn't you, change your password.",
    ),
}


def mfa_copy(turned_on: bool) -> tuple[str, str]:
    if turned_on:
        return "Two-factor sign-in was turned on", "Sign-ins now need a code from your authenticator app."
    return "Two-factor sign-in was turned off", "If this wasn't you, change your password now."


ENROLLMENT_PATH = "/provider-enrollment"
_ENROLLMENT_DECISIONS = {
    "in_review": (
        "Your provider application is being reviewed",
        "A member of our credentialing team has started checking it.",
    ),
    "needs_information": (
        "Your provider application needs more information",
        "Open your application to see what to fix, then send it again.",
    ),
    "approved": (
        "Welcome aboard: your provider application was approved",
        "Your profile is now listed and patients can book you.",
    ),
    "rejected": (
        "Your provider application was not approved",
        "Open your application to read why and when you may apply again.",
    ),
    "document_rejected": (
        "One of your credential documents needs replacing",
        "Open your application to see which one and why.",
    ),
}


def enrollment_decision_copy(decision: str) -> tuple[str, str]:
    """(title, preview) of an enrollment decision (the application's new status, or `document_rejected`):
    fixed words only, never the reviewer's message or the documents (the detail is behind the link)."""
    return _ENROLLMENT_DECISIONS[decision]
