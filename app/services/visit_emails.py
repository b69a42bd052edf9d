"""E-mails about visits: booking confirmation, changes (confirmed, rescheduled, cancelled) and the 24-hour
reminder. One layout, every value HTML-escaped, times shown in the provider's time zone with its name
(the patient and provider meet there), sent through the outbox (`app.services.email`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.email import send_email
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
    html = visit_email_html(
        heading=heading, intro=intro, appointments=appointments, time_zone=time_zone, closing=closing
    )
    return await send_email(session=session, recipients=[to], subject=subject, html=html)
