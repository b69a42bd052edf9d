"""Corporate clients (app/services/corporate): the desk hears of new enquiries, a member of the lead
assigned to them, providers of the on-site event days booked for them."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import CorporateEventDayBooked, CorporateLeadAssigned, CorporateLeadReceived
from app.services.notifications._delivery import notify
from app.services.shared.staff_access import members_with
from models.notification import NotificationKind
from models.staff import Permission

LEADS_LINK = "/staff/leads"


async def tell_lead_received(session: AsyncSession, lead: CorporateLeadReceived) -> None:
    """Everyone who manages services (the corporate desk)."""
    desk = await members_with(session=session, permission=Permission.manage_services)
    await notify(
        session=session,
        recipients=[member.id for member in desk],
        kind=NotificationKind.corporate_lead,
        link=LEADS_LINK,
        title="New corporate enquiry",
        body=f"{lead.company}: about {lead.headcount:,} people, {lead.site_count} site(s).",
    )


async def tell_lead_assigned(session: AsyncSession, assigned: CorporateLeadAssigned) -> None:
    await notify(
        session=session,
        recipients=[assigned.assignee_id],
        kind=NotificationKind.corporate_lead,
        link=LEADS_LINK,
        title="Corporate lead assigned to you",
        body=f"{assigned.company} ({assigned.status}), assigned by {assigned.by_name}.",
    )


async def tell_event_day_booked(session: AsyncSession, booked: CorporateEventDayBooked) -> None:
    day = booked.local_day
    await notify(
        session=session,
        recipients=booked.provider_user_ids,
        kind=NotificationKind.event_day_booked,
        link="/dashboard/appointments",
        title="New on-site event day",
        body=f"{booked.service_name} at {booked.address_line}, {booked.zip_code} on {day:%b} {day.day}, "
        f"{day.year}: confirm it in your appointments.",
    )
