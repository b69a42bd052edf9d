"""A staff member's own preferences (/staff/settings, issue 15 item 5): the time zone the portal shows times
in (pinned, or the browser's) and the signature added under their help-desk replies to customers (never
under internal notes)."""

from __future__ import annotations

import unicodedata

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.shared.staff_access import require_staff
from models.staff import (
    MAX_SIGNATURE,
    STAFF_TIME_ZONES,
    StaffPreference,
    StaffPreferencesRead,
    StaffPreferencesUpdate,
)

UNKNOWN_ZONE = "Choose a time zone from the list."
SIGNATURE_TOO_LONG = f"Keep the signature under {MAX_SIGNATURE} characters."
SIGNATURE_LINES = 6


async def get_my_staff_preferences(*, session: AsyncSession, actor: Principal) -> StaffPreferencesRead:
    account, _permissions = await require_staff(session=session, actor=actor)
    row = await session.get(StaffPreference, account.id)
    return _read(row)


def _read(row: StaffPreference | None) -> StaffPreferencesRead:
    return StaffPreferencesRead(
        time_zone=row.time_zone if row is not None else None,
        signature=row.signature if row is not None else "",
    )


def _signature(raw: str) -> str:
    lines = [" ".join(unicodedata.normalize("NFKC", line).split()) for line in raw.strip().splitlines()]
    text = "\n".join(lines[:SIGNATURE_LINES]).strip()
    if len(text) > MAX_SIGNATURE:
        raise ValidationFailed(SIGNATURE_TOO_LONG)
    return text


async def update_my_staff_preferences(
    *, session: AsyncSession, actor: Principal, data: StaffPreferencesUpdate
) -> StaffPreferencesRead:
    """Save the member's time zone ("" for the browser's) and help-desk signature (at most six lines)."""
    account, _permissions = await require_staff(session=session, actor=actor)
    zone = data.time_zone.strip()
    if zone and zone not in dict(STAFF_TIME_ZONES):
        raise ValidationFailed(UNKNOWN_ZONE)
    signature = _signature(data.signature)
    row = await session.get(StaffPreference, account.id, with_for_update=True)
    if row is None:
        row = StaffPreference(user_id=account.id)
        session.add(row)
    row.time_zone, row.signature = zone or None, signature
    await session.flush()
    return _read(row)


async def time_zone_of(session: AsyncSession, user_id: str) -> str | None:
    return await session.scalar(select(StaffPreference.time_zone).where(StaffPreference.user_id == user_id))


async def signed(session: AsyncSession, user_id: str, content: str) -> str:
    """`content` with the member's signature under it, if they have one."""
    signature = await session.scalar(
        select(StaffPreference.signature).where(StaffPreference.user_id == user_id)
    )
    return f"{content}\n\n{signature}" if signature else content
