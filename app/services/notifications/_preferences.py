"""Notification preferences: per category (the settings matrix's rows) and channel (in-app, e-mail), plus
a daily digest instead of one e-mail each for the categories whose kinds are all non-urgent.

Critical categories (security alerts, visit cancellations) cannot be turned off: an update that tries is
refused with code `critical_notification`; asking for a digest where none is offered is refused with code
`digest_not_offered`. No row means the defaults (in-app and e-mail on, no digest).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.notifications._catalogue import CATEGORIES, concerns, digest_eligible, is_critical
from app.services.notifications._delivery import Channels, notifications_topic
from app.services.shared.signed_in import require_account
from models.notification import (
    NotificationCategory,
    NotificationPreference,
    PreferenceRead,
    PreferencesUpdate,
)

CRITICAL_REFUSED = "{label} cannot be turned off: {reason}"
NO_DIGEST = "{label} are sent as they happen; a daily digest is not offered for them."
TWICE = "Each category can be changed once per save."


def _read(category: NotificationCategory, channels: Channels) -> PreferenceRead:
    info = CATEGORIES[category]
    critical = is_critical(category)
    return PreferenceRead(
        category=category,
        label=info.label,
        description=info.description,
        in_app=channels.in_app,
        email=channels.email,
        digest=channels.digest,
        critical=critical,
        digest_eligible=digest_eligible(category),
        locked_reason=info.locked_reason if critical else "",
    )


async def _rows(session: AsyncSession, user_id: str) -> dict[str, NotificationPreference]:
    found = await session.scalars(
        select(NotificationPreference).where(NotificationPreference.user_id == user_id)
    )
    return {row.category: row for row in found}


async def get_notification_preferences(
    *, session: AsyncSession, actor: Principal
) -> tuple[PreferenceRead, ...]:
    """The actor's matrix: the categories that concern their role, in catalogue order."""
    account = await require_account(session=session, actor=actor)
    rows = await _rows(session, account.id)
    return tuple(
        _read(category, Channels.of(rows.get(category.value), category))
        for category in CATEGORIES
        if concerns(category, account.role)
    )


def _check(changes: PreferencesUpdate) -> None:
    seen: set[NotificationCategory] = set()
    for change in changes.rows:
        if change.category in seen:
            raise ValidationFailed(TWICE)
        seen.add(change.category)
        info = CATEGORIES[change.category]
        if is_critical(change.category) and (not change.in_app or not change.email or change.digest):
            raise ValidationFailed(
                CRITICAL_REFUSED.format(
                    label=info.label, reason=info.locked_reason.removeprefix("Always sent: ")
                ),
                code="critical_notification",
            )
        if change.digest and not digest_eligible(change.category):
            raise ValidationFailed(NO_DIGEST.format(label=info.label), code="digest_not_offered")


async def update_notification_preferences(
    *, session: AsyncSession, actor: Principal, changes: PreferencesUpdate
) -> tuple[PreferenceRead, ...]:
    """Save the given rows (others keep their values); refused as a whole if any row is not allowed."""
    account = await require_account(session=session, actor=actor)
    changes = PreferencesUpdate.model_validate(changes)
    _check(changes)
    rows = await _rows(session, account.id)
    now = datetime.now(UTC)
    for change in changes.rows:
        if is_critical(change.category):
            continue  # nothing to store: always on
        row = rows.get(change.category.value)
        if row is None:
            row = NotificationPreference(user_id=account.id, category=change.category.value)
            session.add(row)
            rows[change.category.value] = row
        row.in_app, row.email, row.digest, row.updated_at = change.in_app, change.email, change.digest, now
    await session.flush()
    # The badge and the inbox of every open tab depend on what is muted.
    await events.publish_on_commit(session, notifications_topic(account.id), {"change": "preferences"})
    return await get_notification_preferences(session=session, actor=actor)
