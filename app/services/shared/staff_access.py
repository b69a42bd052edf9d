"""Who may do what in the staff portal (SPEC §6): the portal roles, each role's grants plus the member's
extra permissions, and the checks every staff service makes on every call.

`require_permission` is the one gate: it re-checks the browser session (`require_account`), then the
role, the member's `active` flag and the permission. Screens hide what a member cannot use, but that is
only courtesy; the services refuse on their own.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import false, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.accounts import account_of, owner_emails
from app.services.shared.signed_in import require_account
from models.account import AccountRead, Role
from models.identity import User
from models.staff import PORTAL_ROLES, ROLE_GRANTS, Permission, StaffMember

PORTAL_DENIED = "You don't have permission to access the staff portal."
HELP_DESK_DENIED = "You don't have permission to access the help desk."
INACTIVE = "Your staff access is inactive. Please contact your manager."


def missing_permission(permission: Permission) -> str:
    return f"You don't have the {permission.value} permission."


def effective_permissions(
    role: Role, extra: Iterable[str] = (), *, active: bool = True
) -> frozenset[Permission]:
    """The role's grants plus the extras (unknown names ignored); none for an inactive member or a non-staff
    role. The owner always has every permission."""
    if role == Role.owner:
        return frozenset(Permission)
    if not active or role not in ROLE_GRANTS:
        return frozenset()
    extras = {Permission(p) for p in extra if p in Permission.__members__}
    return ROLE_GRANTS[role] | extras


def _permissions(account: AccountRead, member: StaffMember | None) -> frozenset[Permission]:
    if account.role not in PORTAL_ROLES and not account.is_master_admin:
        return frozenset()
    if account.role == Role.owner or account.is_master_admin:
        return frozenset(Permission)
    if member is None:
        return effective_permissions(account.role)
    return effective_permissions(account.role, member.extra_permissions, active=member.active)


async def permissions_of(*, session: AsyncSession, account: AccountRead) -> frozenset[Permission]:
    """What `account` may do in the portal now (its staff row read fresh)."""
    if account.role not in PORTAL_ROLES and not account.is_master_admin:
        return frozenset()
    member = await session.scalar(select(StaffMember).where(StaffMember.user_id == account.id))
    return _permissions(account, member)


async def members_with(
    *, session: AsyncSession, permission: Permission, limit: int = 500
) -> list[AccountRead]:
    """The staff who hold `permission` now (by the same rules as `permissions_of`), by name: one query for
    the candidates (portal roles, owner e-mails, master admins) and their staff rows."""
    owners = sorted(owner_emails())
    found = await session.execute(
        select(User, StaffMember)
        .outerjoin(StaffMember, StaffMember.user_id == User.id)
        .where(
            or_(
                User.raw_app_meta_data["role"].as_string().in_([role.value for role in PORTAL_ROLES]),
                User.raw_app_meta_data["is_master_admin"].as_boolean().is_(True),
                User.email.in_(owners) if owners else false(),
            )
        )
        .limit(limit)
    )
    accounts = [(account_of(user), member) for user, member in found.tuples()]
    holders = [account for account, member in accounts if permission in _permissions(account, member)]
    return sorted(holders, key=lambda a: (a.name.lower(), a.email))


async def require_staff(
    *, session: AsyncSession, actor: Principal
) -> tuple[AccountRead, frozenset[Permission]]:
    """The signed-in staff member and their permissions; PermissionDenied for anyone else."""
    account = await require_account(session=session, actor=actor)
    if account.role not in PORTAL_ROLES and not account.is_master_admin:
        raise PermissionDenied(PORTAL_DENIED)
    permissions = await permissions_of(session=session, account=account)
    if not permissions and account.role != Role.owner:
        raise PermissionDenied(INACTIVE)
    return account, permissions


async def require_permission(
    *, session: AsyncSession, actor: Principal, permission: Permission
) -> AccountRead:
    """The signed-in staff member, if they hold `permission`; else PermissionDenied."""
    account, permissions = await require_staff(session=session, actor=actor)
    if permission not in permissions:
        raise PermissionDenied(
            HELP_DESK_DENIED
            if permission == Permission.view_support_tickets
            else missing_permission(permission)
        )
    return account
