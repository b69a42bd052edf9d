"""The console's one gate: a signed-in administrator (owner, admin or master admin), re-checked on every
call (signed out, disabled or demoted since the tab opened: refused)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.accounts import is_admin
from app.services.shared.signed_in import require_account
from models.account import AccountRead

ADMIN_ONLY = "Only an owner or admin can use the admin console."


async def require_admin(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The actor's account if it has administration rights now; else PermissionDenied."""
    account = await require_account(session=session, actor=actor)
    if not is_admin(account):
        raise PermissionDenied(ADMIN_ONLY)
    return account
