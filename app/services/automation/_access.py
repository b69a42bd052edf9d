"""The one gate of every automation command and query: a signed-in owner or admin (or master admin);
the `SYSTEM` actor (the command line, the delivery job) is let through. Rotating the signing secret is
for owners."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.accounts import is_admin, is_owner
from app.services.shared.signed_in import require_account
from models.account import AccountRead
from models.automation import AutomationIntegration

ADMINS_ONLY = "Only owners and admins can manage automation."
OWNERS_ONLY = "Only an owner can rotate the signing secret."
INTEGRATION_ID = "default"


async def require_administrator(*, session: AsyncSession, actor: Principal) -> AccountRead | None:
    """The acting owner or admin (None for `SYSTEM`); PermissionDenied for anyone else."""
    if actor.is_system:
        return None
    account = await require_account(session=session, actor=actor)
    if not is_admin(account):
        raise PermissionDenied(ADMINS_ONLY)
    return account


def may_rotate(account: AccountRead | None) -> bool:
    return account is None or is_owner(account)


async def integration_row(session: AsyncSession, *, create: bool = False) -> AutomationIntegration | None:
    """The integration's one row (made on first need when `create`)."""
    row = await session.get(AutomationIntegration, INTEGRATION_ID)
    if row is None and create:
        row = AutomationIntegration(id=INTEGRATION_ID, disabled_types=[], detailed_types=[])
        session.add(row)
        await session.flush()
    return row
