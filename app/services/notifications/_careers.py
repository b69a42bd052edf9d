"""Careers (app/services/careers): HR (manage_staff) hears of each application to a job posting."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import CareerApplicationReceived
from app.services.notifications._delivery import notify
from app.services.shared.staff_access import members_with
from models.notification import NotificationKind
from models.staff import Permission


async def tell_career_application(session: AsyncSession, received: CareerApplicationReceived) -> None:
    hr = await members_with(session=session, permission=Permission.manage_staff)
    await notify(
        session=session,
        recipients=[member.id for member in hr],
        kind=NotificationKind.career_application,
        link=f"/staff/careers/{received.posting_slug}",
        title=f"New application for {received.posting_title}",
    )
