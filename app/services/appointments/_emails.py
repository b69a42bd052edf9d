"""E-mails about visits: booking confirmation, changes (confirmed, rescheduled, cancelled) and the 24-hour
reminder. One layout, every value HTML-escaped, times shown in the provider's time zone with its name
(the patient and provider meet there), sent through the outbox (`app.services.email`).

`send_visit_update` words the lifecycle's messages (app/services/appointments.py) for the patient or the
provider.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.outbox import Email, send_email
from app.settings import get_settings
from models.booking import AppointmentRead
from models.mail import OutboxMessageRead


def visit_when(appointment: AppointmentRead, time_zone: str) -> str:
    """'Mon, Nov 23, 2026 at 9:30 AM EST' in `time_zone`."""
    local = appointment.starts_at.astimezone(ZoneInfo(time_zone))
    return local.strftime("%a, %b %-d, %Y at %-I:%M %p %Z")


def visit_where(appointment: AppointmentRead) -> str:
    address = ", ".join(
        part
        for part in (
            appointment.address_line,
            appointment.city,
            f"{appointment.state} {appointment.zip_code}".strip(),
        )
        if part
    )
    return f"{appointment.location.label}: {address}" if address else appointment.location.label


def visit_email_html(
    *, heading: str, intro: str, appointments: Sequence[AppointmentRead], time_zone: str, closing: str = ""
) -> str:
    """The shared layout: a heading, a sentence, one block per visit, an optional closing line."""
    brand = escape(get_settings().brand_name)
    blocks = "".join(
        "<table role='presentation' style='margin:16px 0;border:1px solid #e2e8f0;border-radius:8px;"
        "padding:12px;width:100%'>"
        f"<tr><td><strong>{escape(a.service_name)}</strong> with {escape(a.provider_name)}</td></tr>"
        f"<tr><td>{escape(visit_when(a, time_zone))}</td></tr>"
        f"<tr><td>{escape(visit_where(a))}</td></tr>"
        f"<tr><td>Status: {escape(a.status.label)}</td></tr>"
        "</table>"
        for a in appointments
    )
    tail = f"<p>{escape(closing)}</p>" if closing else ""
    return (
        "<div style='font-family:system-ui,sans-serif;max-width:560px;color:#0f172a'>"
        f"<h1 style='font-size:20px'>{escape(heading)}</h1><p>{escape(intro)}</p>{blocks}{tail}"
        f"<p style='color:#64748b;font-size:13px'>{brand} — mobile healthcare at your door.</p></div>"
    )


def visit_email(
    *,
    to: str,
    subject: str,
    heading: str,
    intro: str,
    appointments: Sequence[AppointmentRead],
    time_zone: str,
    closing: str = "",
) -> Email:
    """A message about visits, for `app.outbox.send_emails` (several sent with one insert)."""
    html = visit_email_html(
        heading=heading, intro=intro, appointments=appointments, time_zone=time_zone, closing=closing
    )
    return Email(recipients=[to], subject=subject, html=html)


async def send_visit_email(
    *,
    session: AsyncSession,
    to: str,
    subject: str,
    heading: str,
    intro: str,
    appointments: Sequence[AppointmentRead],
    time_zone: str,
    closing: str = "",
) -> OutboxMessageRead:
    email = visit_email(
        to=to,
        subject=subject,
        heading=heading,
        intro=intro,
        appointments=appointments,
        time_zone=time_zone,
        closing=closing,
    )
    return await send_email(session=session, recipients=email.recipients, subject=subject, html=email.html)


# ---- the lifecycle's messages ---------------------------------------------------------------------
POLICY_LINE = (
    "You can reschedule or cancel in My Appointments up to 24 hours before the visit starts; "
    "for a change inside 24 hours, please contact support at {support}."
)


def _cancelled_intro(a: AppointmentRead, by: str, audience: str) -> str:
    if by == "patient":
        return (
            f"You cancelled your {a.service_name} visit with {a.provider_name}."
            if audience == "patient"
            else f"{a.patient_name} cancelled their {a.service_name} visit with you."
        )
    if by == "provider":
        return f"{a.provider_name} cancelled your {a.service_name} visit."
    return (
        f"Our team cancelled your {a.service_name} visit with {a.provider_name}."
        if audience == "patient"
        else f"Our team cancelled {a.patient_name}'s {a.service_name} visit with you."
    )


def visit_update_copy(kind: str, audience: str, a: AppointmentRead) -> tuple[str, str, str, str]:
    """(subject, heading, intro, closing) of a lifecycle e-mail: `kind` is confirmed, rescheduled, cancelled
    or reminder, or a change staff made (staff_rescheduled, reassigned, unassigned: the provider who had
    the visit); `audience` is patient or provider."""
    policy = POLICY_LINE.format(support=flags.support_email())
    match kind, audience:
        case "confirmed", "patient":
            intro = f"{a.provider_name} confirmed your {a.service_name} visit."
            return "Your visit is confirmed", "Your visit is confirmed", intro, policy
        case "rescheduled", "patient":
            intro = (
                f"Your {a.service_name} visit with {a.provider_name} is now at the time below. "
                f"{a.provider_name} will confirm the new time."
            )
            return "Your visit was rescheduled", "Your visit was rescheduled", intro, policy
        case "rescheduled", "provider":
            intro = f"{a.patient_name} moved their {a.service_name} visit to the time below."
            closing = "Please confirm the new time in your schedule."
            return "A patient rescheduled a visit", "A visit was rescheduled", intro, closing
        case "staff_rescheduled", "patient":
            intro = (
                f"Our team moved your {a.service_name} visit with {a.provider_name} to the time below. "
                f"{a.provider_name} will confirm the new time."
            )
            return "Your visit was rescheduled", "Your visit was rescheduled", intro, policy
        case "staff_rescheduled", "provider":
            intro = f"Our team moved {a.patient_name}'s {a.service_name} visit to the time below."
            closing = "Please confirm the new time in your schedule."
            return "A visit was rescheduled", "A visit was rescheduled", intro, closing
        case "reassigned", "patient":
            intro = (
                f"Our team gave your {a.service_name} visit to {a.provider_name}, at the same time and place. "
                f"{a.provider_name} will confirm it."
            )
            return "Your visit has a new provider", "Your visit has a new provider", intro, policy
        case "reassigned", "provider":
            intro = f"Our team assigned {a.patient_name}'s {a.service_name} visit to you."
            closing = "Please confirm it in your schedule."
            return "A visit was assigned to you", "A visit was assigned to you", intro, closing
        case "unassigned", "provider":
            intro = (
                f"Our team gave {a.patient_name}'s {a.service_name} visit below to another provider; "
                "it is no longer on your schedule."
            )
            return "A visit went to another provider", "A visit went to another provider", intro, ""
        case "cancelled", _:
            reason = f"Reason: {a.cancel_reason}" if a.cancel_reason else ""
            closing = " ".join(part for part in (reason, "Nothing is charged for a cancelled visit.") if part)
            intro = _cancelled_intro(a, a.cancelled_by, audience)
            return "A visit was cancelled", "Visit cancelled", intro, closing
        case "reminder", "patient":
            intro = f"Your {a.service_name} visit with {a.provider_name} starts within 24 hours."
            return "Reminder: your visit is coming up", "Your visit is coming up", intro, policy
    raise ValueError(f"No e-mail for {kind!r} to the {audience}")


async def send_visit_update(
    *,
    session: AsyncSession,
    to: str,
    kind: str,
    audience: str,
    appointment: AppointmentRead,
    time_zone: str,
) -> OutboxMessageRead:
    """One lifecycle e-mail about `appointment` (see `visit_update_copy`)."""
    subject, heading, intro, closing = visit_update_copy(kind, audience, appointment)
    return await send_visit_email(
        session=session,
        to=to,
        subject=subject,
        heading=heading,
        intro=intro,
        appointments=[appointment],
        time_zone=time_zone,
        closing=closing,
    )
