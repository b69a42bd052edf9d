"""When a patient may cancel or reschedule a visit themselves, and how that rule is put in words.

Free of charge and without asking anyone: up to CANCEL_NOTICE_HOURS before the visit starts; at any time
before it starts while the provider has not confirmed it (nobody has planned around it yet); and within
`cancel_grace_minutes` (settings, 15) of booking it (counted from Place order, the order's time, not from
when checkout first held the time), so a visit booked for this afternoon by mistake can be put right. Otherwise the patient contacts support. Checkout states the rule before Place order, and every
visit's read says whether it applies now, so screens offer only the changes that will work.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.settings import get_settings
from models.booking import AppointmentStatus
from models.identity import as_utc

CANCEL_NOTICE_HOURS = 24
START_EARLY = timedelta(hours=1)  # a provider can start a visit this long before its start time
POLICY = (
    "Visits can be cancelled or rescheduled up to 24 hours before they start. "
    "For a change inside 24 hours, please contact support."
)
STARTED = "This visit has already started, so it can no longer be changed."


def patient_change_refusal(
    *, status: AppointmentStatus, starts_at: datetime, booked_at: datetime | None, now: datetime
) -> str | None:
    """Why the patient may not cancel or reschedule this open visit now; None when they may."""
    starts_at = as_utc(starts_at)
    if now >= starts_at:
        return STARTED
    if starts_at - now >= timedelta(hours=CANCEL_NOTICE_HOURS) or status is AppointmentStatus.pending:
        return None
    grace = timedelta(minutes=get_settings().cancel_grace_minutes)
    if booked_at is not None and now - as_utc(booked_at) <= grace:
        return None
    return POLICY


def checkout_rule(*, starts_at: datetime, now: datetime) -> str:
    """The change rule for a visit at `starts_at`, as checkout states it before the order is placed."""
    grace = get_settings().cancel_grace_minutes
    if as_utc(starts_at) - now >= timedelta(hours=CANCEL_NOTICE_HOURS):
        return "Free to cancel or reschedule until 24 hours before the visit."
    return (
        "Starts within 24 hours: free to cancel or reschedule until the provider confirms it, "
        f"and for {grace} minutes after booking. After that, contact support for a change."
    )


def change_rule_summary() -> str:
    """The whole rule in one sentence (My Appointments' footnote)."""
    grace = get_settings().cancel_grace_minutes
    return (
        "You can cancel or reschedule a visit free up to 24 hours before it starts, while the provider has "
        f"not confirmed it, and within {grace} minutes of booking it."
    )


def provider_sees_details(
    *,
    status: AppointmentStatus,
    ends_at: datetime,
    completed_at: datetime | None,
    cancelled_at: datetime | None,
    now: datetime,
) -> bool:
    """Whether the visit's provider may see the patient's home address and intake notes (HIPAA's minimum
    necessary): while the visit is open, and for VISIT_DETAILS_VISIBLE_HOURS after it ended (its end, or
    its completion if later) or was cancelled; after that they are hidden, as the phone number is."""
    if status not in (AppointmentStatus.completed, AppointmentStatus.cancelled):
        return True
    if status is AppointmentStatus.cancelled:
        closed = as_utc(cancelled_at or ends_at)
    else:
        closed = max(as_utc(ends_at), as_utc(completed_at or ends_at))
    return now < closed + timedelta(hours=get_settings().visit_details_visible_hours)
