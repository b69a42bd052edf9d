"""The waitlist (app/services/accounts): an approved person is welcomed in their inbox."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import WaitlistApproved
from app.services.notifications._copy import WAITLIST_APPROVED
from app.services.notifications._delivery import notify
from models.notification import NotificationKind


async def tell_waitlist_approved(session: AsyncSession, approved: WaitlistApproved) -> None:
    title, body = WAITLIST_APPROVED
    await notify(
        session=session,
        recipients=[approved.user_id],
        kind=NotificationKind.waitlist_approved,
        link="/dashboard",
        title=title,
        body=body,
    )
