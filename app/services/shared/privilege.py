"""You hand out only what you hold (issue 27): the one rule of every place that changes a role, a staff
member's permissions or access, or an account's flags and sessions — the admin console, staff management,
the accounts domain's `apply_role` (which provider enrolment uses too). The command line is the operator
(`SYSTEM`, passed here as `by=None`) and may do anything.

What an account *holds*: its staff permissions (its role's grants and its extra permissions, whether or not
it is active now: reactivating a member gives them back); an owner, admin or master admin also holds the
administration rights of the admin console; owner rights (the owner role or the master-admin flag) hold
everything. Then, for anyone without owner rights:

- a role is theirs to give only if they hold all it grants, an extra permission only if they hold it, and
  the owner and admin roles never (administration rights are an owner's to hand out);
- an account is theirs to change (role, permissions, active flag, removal, flags, disabling, signing out)
  only if it holds nothing they lack: an account with administration rights, or with a permission they do
  not hold, is an owner's to change.

A refusal by these rules is an attempted escalation: it is written to the audit log (`privilege_refused`)
apart from the command's unit of work, so it stays although the command itself is rolled back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import PermissionDenied
from models.account import ADMIN_ROLES, AccountRead, Role
from models.audit import AuditAction
from models.staff import PORTAL_ROLES, ROLE_GRANTS, Permission, StaffMember

ADMINISTRATION = "administration rights"
OWNER_ROLES_DENIED = "Only an owner can grant or take away the owner and admin roles."
ROLE_DENIED = "You cannot give the {role} role: it holds permissions you do not hold: {names}."
PERMISSIONS_DENIED = "You cannot grant permissions you do not hold: {names}."
ADMIN_TARGET_DENIED = "Only an owner can change an owner's or admin's account."
TARGET_DENIED = "Only an owner can change {name}: they hold permissions you do not hold: {names}."

_ORDER = {p: i for i, p in enumerate(Permission)}


@dataclass(frozen=True)
class Holdings:
    """What an account holds, or what a role grants."""

    permissions: frozenset[Permission] = frozenset()
    administration: bool = False  # the admin console (owner, admin, master admin)
    owner: bool = False  # owner rights: everything

    def lacks(self, other: Holdings) -> list[str]:
        """What `other` holds that these holdings may not hand out or act on: administration rights first,
        then the permissions, in the catalogue's order. Nothing for owner rights."""
        if self.owner:
            return []
        missing = [ADMINISTRATION] if other.administration or other.owner else []
        return missing + [
            p.value for p in sorted(other.permissions - self.permissions, key=_ORDER.__getitem__)
        ]


EVERYTHING = Holdings(frozenset(Permission), administration=True, owner=True)


def role_holdings(role: Role) -> Holdings:
    """What `role` grants."""
    if role == Role.owner:
        return EVERYTHING
    return Holdings(ROLE_GRANTS.get(role, frozenset()), administration=role in ADMIN_ROLES)


def _extras(values: Iterable[str]) -> frozenset[Permission]:
    return frozenset(Permission(p) for p in values if p in Permission.__members__)


async def holdings_of(
    session: AsyncSession, account: AccountRead, *, extras: Iterable[str] | None = None
) -> Holdings:
    """What `account` holds now (its staff row read fresh unless `extras` are given)."""
    if account.role == Role.owner or account.is_master_admin:
        return EVERYTHING
    held = role_holdings(account.role)
    if account.role not in PORTAL_ROLES:
        return held
    if extras is None:
        row = await session.scalar(select(StaffMember).where(StaffMember.user_id == account.id))
        extras = row.extra_permissions if row is not None else ()
    return Holdings(held.permissions | _extras(extras), administration=held.administration)


def grantable_roles(held: Holdings, roles: Iterable[Role]) -> tuple[Role, ...]:
    """The `roles` someone holding `held` may give."""
    return tuple(role for role in roles if not held.lacks(role_holdings(role)))


def may_change(held: Holdings, target: Holdings) -> bool:
    """Whether someone holding `held` may change an account holding `target`."""
    return not held.lacks(target)


async def _refuse(
    session: AsyncSession,
    by: AccountRead,
    actor: Principal | None,
    target: AccountRead | None,
    attempt: str,
    missing: list[str],
    message: str,
) -> PermissionDenied:
    await audit.record_apart(
        session=session,
        actor_id=by.id,
        actor_email=by.email,
        action=AuditAction.privilege_refused,
        target=target.email if target is not None else "",
        ip=actor.ip if actor is not None else "",
        user_agent=actor.user_agent if actor is not None else "",
        details={
            "attempt": attempt,
            "missing": missing,
            **({"user_id": target.id} if target is not None else {}),
        },
    )
    return PermissionDenied(message)


async def require_may_change(
    *,
    session: AsyncSession,
    by: AccountRead | None,
    target: AccountRead,
    attempt: str,
    actor: Principal | None = None,
    held: Holdings | None = None,
) -> Holdings:
    """`by` may change `target` (`attempt` says how, for the audit log: "disable the account"); else the
    refusal is audited and PermissionDenied raised. Returns what `by` holds (everything for the operator).
    Acting on one's own account is the callers' to refuse, each with its own words."""
    if by is None:
        return EVERYTHING
    held = held or await holdings_of(session, by)
    missing = held.lacks(await holdings_of(session, target))
    if missing:
        message = (
            ADMIN_TARGET_DENIED
            if missing[0] == ADMINISTRATION
            else TARGET_DENIED.format(
                name=target.name if target.name != "User" else target.email, names=", ".join(missing)
            )
        )
        raise await _refuse(session, by, actor, target, attempt, missing, message)
    return held


async def require_may_give_role(
    *,
    session: AsyncSession,
    by: AccountRead | None,
    role: Role,
    target: AccountRead | None = None,
    actor: Principal | None = None,
    held: Holdings | None = None,
) -> Holdings:
    """`by` may give `role` (to `target`, whom they must also be allowed to change; None: an account not
    made yet); else the refusal is audited and PermissionDenied raised. Returns what `by` holds."""
    if by is None:
        return EVERYTHING
    held = held or await holdings_of(session, by)
    attempt = f"give the {role.value} role"
    if target is not None:
        await require_may_change(
            session=session, by=by, target=target, attempt=attempt, actor=actor, held=held
        )
    missing = held.lacks(role_holdings(role))
    if missing:
        message = (
            OWNER_ROLES_DENIED
            if missing[0] == ADMINISTRATION
            else ROLE_DENIED.format(role=role.value, names=", ".join(missing))
        )
        raise await _refuse(session, by, actor, target, attempt, missing, message)
    return held


async def require_may_give_permissions(
    *,
    session: AsyncSession,
    by: AccountRead | None,
    permissions: Iterable[Permission],
    target: AccountRead | None = None,
    actor: Principal | None = None,
    held: Holdings | None = None,
) -> Holdings:
    """`by` holds every one of `permissions` (extras they hand out); else the refusal is audited and
    PermissionDenied raised. Returns what `by` holds."""
    if by is None:
        return EVERYTHING
    held = held or await holdings_of(session, by)
    missing = held.lacks(Holdings(frozenset(permissions)))
    if missing:
        attempt = "grant " + ", ".join(missing)
        message = PERMISSIONS_DENIED.format(names=", ".join(missing))
        raise await _refuse(session, by, actor, target, attempt, missing, message)
    return held
