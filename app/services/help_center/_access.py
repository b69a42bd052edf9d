"""Who edits the Help Center: owners, admins and master admins, and HR (an active staff member). Everyone
else, signed in or not, reads published articles only."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.accounts import is_admin
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_staff
from models.account import AccountRead, Role

EDITORS_ONLY = "Only owners, admins and HR can change the Help Center."


async def require_editor(session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in editor behind `actor`; PermissionDenied for anyone else (an inactive HR member too)."""
    account = await require_account(session=session, actor=actor)
    if is_admin(account):
        return account
    if account.role == Role.hr:
        account, _permissions = await require_staff(session=session, actor=actor)
        return account
    raise PermissionDenied(EDITORS_ONLY)


async def can_edit_help_center(*, session: AsyncSession, actor: Principal) -> bool:
    """Whether `actor` may write articles (and so see drafts); never raises for visitors."""
    if not actor.is_user:
        return False
    try:
        await require_editor(session, actor)
    except PermissionDenied:
        return False
    return True
