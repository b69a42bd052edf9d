"""Staff access (app/services/staff): a member hears that their access changed or was removed."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import StaffAccessChanged
from app.services.notifications._copy import STAFF_HOME, staff_access_copy
from app.services.notifications._delivery import notify
from models.notification import NotificationKind


async def tell_staff_access_changed(session: AsyncSession, changed: StaffAccessChanged) -> None:
    title, body = staff_access_copy(removed=changed.removed)
    await notify(
        session=session,
        recipients=[changed.user_id],
        kind=NotificationKind.staff_access_changed,
        link="/" if changed.removed else STAFF_HOME,
        title=title,
        body=body,
    )
