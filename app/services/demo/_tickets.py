"""Help-desk tickets of the demo (`python -m medivisit seed --demo`): a few requests from the demo patient and from
demo marketplace patients, one answered by the demo support agent, so the staff help desk has work to show.

Tickets are numbered and written with the help desk's own helpers (`insert_ticket`, `add_message`,
`record_change`, `apply_status`), opened some hours or days before `now` with the due times that follow
from their priority. Seeding twice adds nothing (the demo patient's first ticket marks them as present).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.sessions import find_user_by_email
from app.services.accounts import DEMO_PATIENT_DOMAIN, demo_email
from app.services.errors import PermissionDenied
from app.services.support import apply_status, record_change
from app.services.support.internal import add_message, create_ticket
from app.settings import get_settings
from models.account import Role
from models.support import Ticket, TicketCategory, TicketPriority, TicketStatus

# (customer: a demo role or a demo marketplace patient's e-mail name, hours ago, category, priority,
#  subject, description, the support agent's reply or '')
TICKETS = (
    (
        Role.patient, 50, TicketCategory.booking, TicketPriority.medium,
        "Can my IV visit move to another day?",
        "I have a work trip the week of my vitamin infusion. Is there a slot with the same nurse the week "
        "after?",
        "Hi Jordan, you can move the visit yourself under My Appointments → Reschedule up to 24 hours "
        "before it starts. Priya has times open the week after; let us know if anything gets in the way.",
    ),
    (
        Role.patient, 20, TicketCategory.billing, TicketPriority.low,
        "Receipt for my insurance claim",
        "Could you send me an itemised receipt for my last blood draw? My insurer needs the provider's "
        "licence number on it.",
        "",
    ),
    (
        Role.patient, 3, TicketCategory.services, TicketPriority.medium,
        "Fasting before a lipid panel",
        "My doctor ordered a lipid panel. How long do I need to fast, and can I drink black coffee?",
        "",
    ),
    (
        "maria.gonzalez", 30, TicketCategory.booking, TicketPriority.high,
        "Nurse has not confirmed my visit",
        "I booked a home blood draw for my father three days ago and it still says pending. He needs the "
        "results before his cardiology appointment.",
        "",
    ),
    (
        "daniel.cohen", 8, TicketCategory.account, TicketPriority.urgent,
        "Cannot sign in after changing my e-mail",
        "I changed my e-mail address and now the sign-in page says my account does not exist.",
        "",
    ),
)  # fmt: skip


async def seed_demo_tickets(*, session: AsyncSession, now: datetime | None = None) -> list[str]:
    """Open the demo tickets once (see the module docstring); returns the lines to print."""
    if get_settings().is_production:
        raise PermissionDenied("Demo data is never created with APP_ENV=production.")
    now = (now or datetime.now(UTC)).astimezone(UTC)
    patient = await find_user_by_email(session, demo_email(Role.patient))
    agent = await find_user_by_email(session, demo_email(Role.support))
    if patient is None or agent is None:
        return ["no demo patient or support account"]
    first_subject = TICKETS[0][4]
    if await session.scalar(
        select(Ticket.id).where(Ticket.user_id == patient.id, Ticket.subject == first_subject).limit(1)
    ):
        return ["already present"]
    opened = 0
    for customer, hours_ago, category, priority, subject, description, reply in TICKETS:
        email = demo_email(customer) if isinstance(customer, Role) else f"{customer}@{DEMO_PATIENT_DOMAIN}"
        user = patient if customer == Role.patient else await find_user_by_email(session, email)
        if user is None:
            continue
        created = now - timedelta(hours=hours_ago)
        ticket = await create_ticket(
            session,
            customer_id=user.id,
            created_by=user.id,
            subject=subject,
            description=description,
            category=category,
            priority=priority,
            at=created,
        )
        if reply:
            answered = created + timedelta(hours=3)
            await add_message(
                session,
                ticket,
                sender_id=agent.id,
                content=reply,
                from_staff=True,
                internal=False,
                attachment_ids=(),
                now=answered,
            )
            old = ticket.status
            apply_status(ticket, TicketStatus.waiting, answered)
            record_change(session, ticket, agent.id, "status", old.label, ticket.status.label)
            ticket.first_responded_at = answered
        opened += 1
    await session.flush()
    return [f"{opened} tickets opened, one answered by the demo support agent"]
