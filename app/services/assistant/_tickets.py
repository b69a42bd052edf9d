"""'AI analysis requested' in the staff help desk: a reply to a ticket drafted from the help center, for the
agent to read, edit and send themselves (nothing is sent by this). It needs view_support_tickets, is
written to the audit log, and emits SPEC §9's support automation event "AI analysis requested".

The draft follows the assistant's rules: a ticket that describes an emergency or a crisis gets the 911 or
988 message first; a request for a diagnosis or a dose gets the fixed refusal; otherwise the best
help-center passages with their links, or a plain note to the agent that the help center has nothing on it.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.assistant._answer import NOT_FOUND, REFUSAL, asks_for_diagnosis_or_dose, help_reply
from app.services.automation.internal import emit_event
from app.services.safety import find_red_flag
from app.services.shared.accounts import get_account
from app.services.shared.staff_access import require_permission
from app.services.support.internal import load_ticket
from app.settings import get_settings
from models.assistant import TicketDraftRead
from models.audit import AuditAction
from models.staff import Permission

NOTHING_FOUND = (
    f"{NOT_FOUND} Nothing in the help center matches this ticket: please write the reply yourself."
)


async def draft_ticket_reply(*, session: AsyncSession, actor: Principal, ticket_id: str) -> TicketDraftRead:
    """A reply to the ticket drafted from the help center (AI analysis requested), never sent by itself."""
    agent = await require_permission(session=session, actor=actor, permission=Permission.view_support_tickets)
    ticket = await load_ticket(session, ticket_id)
    customer = await get_account(session=session, user_id=ticket.user_id)
    asked = f"{ticket.subject}\n{ticket.description}"
    parts: list[str] = []
    flag = find_red_flag(asked)
    if flag is not None:
        parts.append(flag.message)
    if asks_for_diagnosis_or_dose(asked):
        parts.append(REFUSAL)
    base_url = get_settings().site_url.rstrip("/")
    text, sources = await help_reply(session=session, question=asked, base_url=base_url)
    if sources:
        parts += ["Thank you for getting in touch. Here is what our help center says:", text]
    if parts:
        greeting = f"Hi {customer.first_name or customer.name}," if customer else "Hello,"
        draft = "\n\n".join([greeting, *parts, "If anything is still unclear, reply here and we'll help."])
    else:
        draft = NOTHING_FOUND
    await audit.record_by(
        session=session,
        account=agent,
        actor=actor,
        action=AuditAction.assistant_ticket_draft,
        target=f"ticket #{ticket.number}",
        details={"found": bool(sources)},
    )
    await emit_event(
        session=session,
        event_type="support.ai_analysis_requested",
        fields={
            "ticketId": ticket.id,
            "ticketNumber": ticket.number,
            "userId": ticket.user_id,
            "status": ticket.status.value,
            "category": ticket.category.value,
            "requestedBy": agent.id,
            "draftFound": bool(sources),
        },
        details={"subject": ticket.subject},
    )
    return TicketDraftRead(ticket_id=ticket.id, text=draft, sources=tuple(sources), found=bool(sources))
