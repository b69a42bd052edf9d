"""Who runs hiring: staff holding manage_staff (HR by role; owners and master admins hold every permission).
Applicants' names, addresses, notes and CVs are read by them only, checked on every call."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.staff import Permission

HR_ONLY = "Only staff with the manage_staff permission can manage careers and applications."


async def require_hr(session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in staff member behind `actor` if they hold manage_staff; PermissionDenied otherwise."""
    if not actor.is_user:
        raise PermissionDenied(HR_ONLY)
    try:
        return await require_permission(session=session, actor=actor, permission=Permission.manage_staff)
    except PermissionDenied:
        raise PermissionDenied(HR_ONLY) from None


async def can_manage_careers(*, session: AsyncSession, actor: Principal) -> bool:
    """Whether `actor` may manage postings and read applications; never raises for visitors."""
    try:
        await require_hr(session, actor)
    except PermissionDenied:
        return False
    return True
