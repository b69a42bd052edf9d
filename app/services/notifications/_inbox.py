"""The inbox of the signed-in person: list (unread / all / archived, newest first, at most MAX_PAGE_SIZE a
page), the unread count of the bell, and mark read, mark all read, archive, unarchive.

Ownership: every query and command re-checks the actor's session (`require_account`) and touches only rows
whose recipient is that account; someone else's notification id is "not found", never "forbidden" (an id
reveals nothing).

Muted means the category's in-app channel is off (notification settings): its notifications are still
stored (they feed the e-mail and the daily digest), but the inbox's tabs, the badge and the live updates
leave them out; turning in-app back on brings them back. Critical categories cannot be muted. The filter is
one `NOT IN (the person's muted categories)` subquery inside each statement, never a loop.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import ColumnElement, Select, and_, false, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.db import changed_rows
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.notifications._delivery import notifications_topic
from app.services.shared.signed_in import require_account
from models.notification import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    InboxTab,
    Notification,
    NotificationPageRead,
    NotificationPreference,
    NotificationRead,
)

MAX_PAGE = 1000
NO_NOTIFICATION = "This notification does not exist."
BAD_TAB = "Choose unread, all or archived."


def _not_muted(user_id: str) -> ColumnElement[bool]:
    muted = select(NotificationPreference.category).where(
        NotificationPreference.user_id == user_id, NotificationPreference.in_app == false()
    )
    return Notification.category.not_in(muted.scalar_subquery())


def _unread(user_id: str) -> ColumnElement[bool]:
    return and_(
        Notification.recipient_id == user_id,
        Notification.read_at.is_(None),
        Notification.archived_at.is_(None),
        _not_muted(user_id),
    )


def _tab(user_id: str, tab: InboxTab) -> ColumnElement[bool]:
    if tab is InboxTab.unread:
        return _unread(user_id)
    archived = (
        Notification.archived_at.is_not(None)
        if tab is InboxTab.archived
        else Notification.archived_at.is_(None)
    )
    return and_(Notification.recipient_id == user_id, archived, _not_muted(user_id))


def _unread_count(user_id: str) -> Select[int]:
    return select(func.count()).select_from(Notification).where(_unread(user_id))


async def count_unread(*, session: AsyncSession, actor: Principal) -> int:
    """The bell's number: unread, not archived, not muted."""
    account = await require_account(session=session, actor=actor)
    return await session.scalar(_unread_count(account.id)) or 0


async def list_notifications(
    *,
    session: AsyncSession,
    actor: Principal,
    tab: InboxTab | str = InboxTab.unread,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> NotificationPageRead:
    """One page of the actor's notifications in `tab`, newest first, with the unread count."""
    account = await require_account(session=session, actor=actor)
    try:
        tab = InboxTab(tab)
    except ValueError:
        raise ValidationFailed(BAD_TAB) from None
    page = min(max(int(page), 1), MAX_PAGE)
    page_size = min(max(int(page_size), 1), MAX_PAGE_SIZE)
    rows = (
        await session.scalars(
            select(Notification)
            .where(_tab(account.id, tab))
            .order_by(Notification.created_at.desc(), Notification.id.desc())
            .offset((page - 1) * page_size)
            .limit(page_size + 1)
        )
    ).all()
    return NotificationPageRead(
        tab=tab,
        page=page,
        page_size=page_size,
        items=tuple(NotificationRead.model_validate(row) for row in rows[:page_size]),
        has_more=len(rows) > page_size,
        unread=await session.scalar(_unread_count(account.id)) or 0,
    )


async def _own(session: AsyncSession, actor: Principal, notification_id: str) -> Notification:
    account = await require_account(session=session, actor=actor)
    row = await session.scalar(
        select(Notification).where(
            Notification.id == str(notification_id)[:36], Notification.recipient_id == account.id
        )
    )
    if row is None:
        raise NotFound(NO_NOTIFICATION)
    return row


async def _changed(session: AsyncSession, row: Notification, change: str) -> NotificationRead:
    await session.flush()
    await events.publish_on_commit(
        session, notifications_topic(row.recipient_id), {"id": row.id, "change": change}
    )
    return NotificationRead.model_validate(row)


def _now() -> datetime:
    return datetime.now(UTC)


async def mark_read(*, session: AsyncSession, actor: Principal, notification_id: str) -> NotificationRead:
    """Mark one of the actor's notifications read (again: nothing changes)."""
    row = await _own(session, actor, notification_id)
    if row.read_at is not None:
        return NotificationRead.model_validate(row)
    row.read_at = _now()
    return await _changed(session, row, "read")


async def mark_unread(*, session: AsyncSession, actor: Principal, notification_id: str) -> NotificationRead:
    row = await _own(session, actor, notification_id)
    if row.read_at is None:
        return NotificationRead.model_validate(row)
    row.read_at = None
    return await _changed(session, row, "unread")


async def mark_all_read(*, session: AsyncSession, actor: Principal) -> int:
    """Mark every unread notification of the actor read (muted ones too: they were never to be seen);
    returns how many changed. One statement."""
    account = await require_account(session=session, actor=actor)
    result = await changed_rows(
        session,
        update(Notification)
        .where(Notification.recipient_id == account.id, Notification.read_at.is_(None))
        .values(read_at=_now())
        .execution_options(synchronize_session=False),
    )
    if result:
        await events.publish_on_commit(session, notifications_topic(account.id), {"change": "all_read"})
    return result


async def archive_notification(
    *, session: AsyncSession, actor: Principal, notification_id: str
) -> NotificationRead:
    """Archive one of the actor's notifications; archiving also marks it read (it leaves the badge)."""
    row = await _own(session, actor, notification_id)
    if row.archived_at is not None:
        return NotificationRead.model_validate(row)
    row.archived_at = _now()
    row.read_at = row.read_at or row.archived_at
    return await _changed(session, row, "archived")


async def unarchive_notification(
    *, session: AsyncSession, actor: Principal, notification_id: str
) -> NotificationRead:
    row = await _own(session, actor, notification_id)
    if row.archived_at is None:
        return NotificationRead.model_validate(row)
    row.archived_at = None
    return await _changed(session, row, "unarchived")
