"""Staff management (SPEC §3 staff member, §6): who is on the staff, with which role and extra permissions.

A staff member is an account whose role is a portal role (owner, management, hr, support); the
`staff_members` row adds the extra permissions and the active flag. An account given a staff role on the
command line has no row yet: it reads as an active member without extras until its first update.

`get_staff_access` tells the portal what the signed-in member may see. The team commands need
`manage_staff`; role changes go through the accounts domain's `apply_role`, and every change is written to the audit log
and announced on the `staff` topic.
Rules beyond the SPEC: nobody changes or removes their own staff access, so the last owner always stays;
the shared rule of app/services/_privilege.py (you hand out only what you hold): a manager gives only roles
and extra permissions they hold, and changes, deactivates or removes only members who hold nothing they
lack — an owner, or a Management member changed by HR, needs an owner (every refusal is audited); only
patient accounts join the staff (a provider or admin keeps their role). The audit log screen's read
(`read_audit_log`, owners only) is here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, TypedDict

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.auth.common import normalize_email
from app.auth.errors import AuthApiError
from app.auth.sessions import find_user_by_email
from app.principal import Principal
from app.services.accounts.internal import apply_role, send_invitation
from app.services.domain_events import StaffAccessChanged
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.shared.accounts import account_of, is_owner, owner_emails
from app.services.shared.clock import day_bounds
from app.services.shared.privilege import (
    OWNER_ROLES_DENIED,
    Holdings,
    grantable_roles,
    holdings_of,
    require_may_change,
    require_may_give_permissions,
    require_may_give_role,
)
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import (
    effective_permissions,
    require_permission,
    require_staff,
)
from app.services.staff._audit import MAX_PAGE as AUDIT_PAGE
from app.services.staff._audit import list_audit
from app.services.staff._preferences import time_zone_of
from models.account import AccountRead, Role
from models.audit import AuditAction
from models.identity import User, as_utc
from models.staff import (
    PORTAL_ROLES,
    AuditPageRead,
    Permission,
    StaffAccessRead,
    StaffMember,
    StaffMemberRead,
    StaffPageRead,
)

TOPIC = "staff"  # published after every team change: open team lists and staff frames reload
PAGE_SIZE = 100
STAFF_ROLES = (Role.management, Role.hr, Role.support)  # what a staff manager may assign
ASSIGNABLE_ROLES = (Role.owner, *STAFF_ROLES)  # the owner role only by an owner

INVALID_EMAIL = "Please enter a valid e-mail address."
INVALID_ROLE = "Choose a staff role: management, hr or support."
OWNER_ROLE_DENIED = OWNER_ROLES_DENIED
ALREADY_STAFF = "This person is already on the staff."
NOT_A_PATIENT = "Only a patient account can join the staff; this account is a {role}."
MEMBER_NOT_FOUND = "This staff member no longer exists."
OWN_ACCESS = "You cannot change your own staff access."
REMOVE_SELF = "You cannot remove yourself from the staff."
OWNER_ALWAYS_ACTIVE = "An owner is always active."


async def get_staff_access(*, session: AsyncSession, actor: Principal) -> StaffAccessRead:
    """The signed-in member's portal access; PermissionDenied for non-staff and inactive members."""
    account, permissions = await require_staff(session=session, actor=actor)
    return StaffAccessRead(
        user_id=account.id,
        name=account.name,
        email=account.email,
        role=account.role,
        is_owner=is_owner(account),
        permissions=permissions,
        grantable_roles=grantable_roles(await holdings_of(session, account), ASSIGNABLE_ROLES),
        time_zone=await time_zone_of(session, account.id),
    )


# ---- reading the team ------------------------------------------------------------------------------


def _staff_candidates() -> ColumnElement[bool]:
    """Accounts that may hold a portal role: by app_metadata, or by an owner e-mail (their mapped role
    is checked afterwards)."""
    role = User.raw_app_meta_data["role"].as_string()
    condition: ColumnElement[bool] = role.in_([r.value for r in PORTAL_ROLES])
    owners = owner_emails()
    if owners:
        condition = or_(condition, func.lower(User.email).in_(owners))
    return condition


def _member_read(user: User, row: StaffMember | None) -> StaffMemberRead:
    account = account_of(user)
    extras = sorted(
        (Permission(p) for p in (row.extra_permissions if row else []) if p in Permission.__members__),
        key=list(Permission).index,
    )
    active = row.active if row else True
    granted = effective_permissions(account.role, extras, active=active)
    return StaffMemberRead(
        id=row.id if row else user.id,
        user_id=user.id,
        name=account.name,
        email=account.email,
        role=account.role,
        status="active" if active else "inactive",
        extra_permissions=extras,
        permissions=sorted(granted, key=list(Permission).index),
        active=active,
        created_at=as_utc(row.created_at if row else user.created_at),
    )


async def _rows_of(session: AsyncSession, user_ids: Iterable[str]) -> dict[str, StaffMember]:
    rows = await session.scalars(select(StaffMember).where(StaffMember.user_id.in_(list(user_ids))))
    return {row.user_id: row for row in rows}


async def list_staff(*, session: AsyncSession, actor: Principal, page: int = 1) -> StaffPageRead:
    """The staff, by e-mail, 100 a page; needs manage_staff."""
    await require_permission(session=session, actor=actor, permission=Permission.manage_staff)
    page = max(1, int(page))
    users = list(
        await session.scalars(
            select(User)
            .where(_staff_candidates())
            .order_by(User.email, User.id)
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE + 1)
        )
    )
    has_more = len(users) > PAGE_SIZE
    users = [u for u in users[:PAGE_SIZE] if account_of(u).role in PORTAL_ROLES]
    rows = await _rows_of(session, (u.id for u in users))
    return StaffPageRead(
        members=[_member_read(u, rows.get(u.id)) for u in users], page=page, has_more=has_more
    )


# ---- changing the team -----------------------------------------------------------------------------


def _role(value: Role | str) -> Role:
    """`value` as a portal role (whether the manager may give it is the shared rule's)."""
    try:
        role = Role(value)
    except ValueError:
        raise ValidationFailed(INVALID_ROLE) from None
    if role not in ASSIGNABLE_ROLES:
        raise ValidationFailed(INVALID_ROLE)
    return role


def _permissions(values: Iterable[Permission | str]) -> list[Permission]:
    chosen = set()
    for value in values:
        try:
            chosen.add(Permission(value))
        except ValueError:
            raise ValidationFailed(f"Unknown permission {value!r}.") from None
    return sorted(chosen, key=list(Permission).index)


async def _record(
    session: AsyncSession,
    manager: AccountRead,
    actor: Principal,
    action: AuditAction,
    member: User,
    details: dict[str, Any],
) -> None:
    await audit.record_by(
        session=session,
        account=manager,
        actor=actor,
        action=action,
        target=member.email or member.id,
        details={"user_id": member.id, **details},
    )
    await events.publish_on_commit(session, TOPIC, {"user_id": member.id, "action": str(action)})
    # The member hears of it, unless they acted themselves or were just invited (the invitation says it).
    if member.id != manager.id and member.email_confirmed_at is not None:
        await events.publish_event(
            session, StaffAccessChanged(user_id=member.id, removed=action == AuditAction.staff_remove)
        )


async def _manager(session: AsyncSession, actor: Principal) -> tuple[AccountRead, Holdings]:
    """The signed-in member, if they hold manage_staff, and everything they hold (what they may grant)."""
    manager = await require_permission(session=session, actor=actor, permission=Permission.manage_staff)
    return manager, await holdings_of(session, manager)


async def add_staff(
    *,
    session: AsyncSession,
    actor: Principal,
    email: str,
    role: Role | str,
    extra_permissions: Sequence[Permission | str] = (),
    name: str = "",
) -> StaffMemberRead:
    """Put the account at `email` on the staff with `role`; without an account, e-mail an invitation
    (the person sets a password from the link) and make the invited account staff."""
    manager, held = await _manager(session, actor)
    role = _role(role)
    await require_may_give_role(session=session, by=manager, role=role, actor=actor, held=held)
    extras = _permissions(extra_permissions)
    await require_may_give_permissions(
        session=session, by=manager, permissions=extras, actor=actor, held=held
    )
    try:
        email = normalize_email(email)
    except AuthApiError:
        raise ValidationFailed(INVALID_EMAIL) from None
    user = await find_user_by_email(session, email)
    invited = user is None
    if user is None:
        user = await send_invitation(session=session, email=email, name=" ".join(name.split())[:200])
    else:
        current = account_of(user).role
        row = await session.scalar(select(StaffMember).where(StaffMember.user_id == user.id))
        if current in PORTAL_ROLES and (row is not None or current == role):
            raise ValidationFailed(ALREADY_STAFF)
        if current not in PORTAL_ROLES and current != Role.patient:
            raise ValidationFailed(NOT_A_PATIENT.format(role=current.value))
    if account_of(user).role != role:
        await apply_role(session=session, by=manager, user_id=user.id, role=role, actor=actor)
    row = StaffMember(user_id=user.id, extra_permissions=[p.value for p in extras], active=True)
    session.add(row)
    await session.flush()
    await _record(
        session,
        manager,
        actor,
        AuditAction.staff_add,
        user,
        {"role": role.value, "permissions": [p.value for p in extras], "invited": invited},
    )
    return _member_read(user, row)


async def _member(session: AsyncSession, user_id: str) -> tuple[User, StaffMember | None]:
    user = await session.get(User, user_id, populate_existing=True)
    if user is None or account_of(user).role not in PORTAL_ROLES:
        raise NotFound(MEMBER_NOT_FOUND)
    row = await session.scalar(select(StaffMember).where(StaffMember.user_id == user_id))
    return user, row


def _attempt(role: Role | None, extras: Sequence[Permission | str] | None, active: bool | None) -> str:
    """The change asked for, in words, for the audit entry of a refusal."""
    parts = [f"give the {role.value} role"] if role is not None else []
    parts += ["change the extra permissions"] if extras is not None else []
    parts += [] if active is None else ["reactivate" if active else "deactivate"]
    return ", ".join(parts) or "change the staff access"


async def update_staff(
    *,
    session: AsyncSession,
    actor: Principal,
    user_id: str,
    role: Role | str | None = None,
    extra_permissions: Sequence[Permission | str] | None = None,
    active: bool | None = None,
) -> StaffMemberRead:
    """Change a member's role, extra permissions or active flag (None leaves a field as it is)."""
    manager, held = await _manager(session, actor)
    user, row = await _member(session, user_id)
    if user.id == manager.id:
        raise PermissionDenied(OWN_ACCESS)
    before = _member_read(user, row)
    new_role = before.role if role is None or role == before.role else _role(role)
    await require_may_change(
        session=session,
        by=manager,
        target=account_of(user),
        attempt=_attempt(new_role if new_role != before.role else None, extra_permissions, active),
        actor=actor,
        held=held,
    )
    if active is False and new_role == Role.owner:
        raise ValidationFailed(OWNER_ALWAYS_ACTIVE)
    changes: dict[str, Any] = {}
    if new_role != before.role:
        await apply_role(session=session, by=manager, user_id=user.id, role=new_role, actor=actor)
        changes["role"] = {"from": before.role.value, "to": new_role.value}
    if row is None:
        row = StaffMember(user_id=user.id, extra_permissions=[], active=True)
        session.add(row)
    if extra_permissions is not None:
        extras = _permissions(extra_permissions)
        added = [p for p in extras if p not in before.extra_permissions]
        removed = [p for p in before.extra_permissions if p not in extras]
        await require_may_give_permissions(
            session=session, by=manager, permissions=added, target=account_of(user), actor=actor, held=held
        )
        if added or removed:
            row.extra_permissions = [p.value for p in extras]
            changes["permissions"] = {
                "added": [p.value for p in added],
                "removed": [p.value for p in removed],
            }
    if active is not None and active != before.active:
        row.active = active
        changes["active"] = {"from": before.active, "to": active}
    await session.flush()
    if changes:
        await _record(session, manager, actor, AuditAction.staff_update, user, changes)
    return _member_read(user, row)


async def remove_staff(*, session: AsyncSession, actor: Principal, user_id: str) -> StaffMemberRead:
    """Take a member off the staff: their role goes back to patient and their staff row is deleted.
    Returns the member as they were."""
    manager, held = await _manager(session, actor)
    user, row = await _member(session, user_id)
    if user.id == manager.id:
        raise PermissionDenied(REMOVE_SELF)
    before = _member_read(user, row)
    await require_may_change(
        session=session,
        by=manager,
        target=account_of(user),
        attempt="remove from the staff",
        actor=actor,
        held=held,
    )
    await apply_role(session=session, by=manager, user_id=user.id, role=Role.patient, actor=actor)
    if row is not None:
        await session.delete(row)
    await session.flush()
    await _record(
        session,
        manager,
        actor,
        AuditAction.staff_remove,
        user,
        {"role": before.role.value, "permissions": [p.value for p in before.extra_permissions]},
    )
    return before


# ---- demo data ----------------------------------------------------------------------------------------


async def ensure_staff_rows(
    *,
    session: AsyncSession,
    user_ids: Iterable[str],
    extras: Mapping[str, Iterable[Permission]] | None = None,
) -> int:
    """Give each of these staff-role accounts a staff row (active, with its `extras` by user id, else none)
    if it has none; returns how many were created. For seeding; never for a screen."""
    ids = list(user_ids)
    existing = await _rows_of(session, ids)
    extras = extras or {}
    created = [
        StaffMember(user_id=uid, extra_permissions=sorted(p.value for p in extras.get(uid, ())), active=True)
        for uid in ids
        if uid not in existing
    ]
    session.add_all(created)
    await session.flush()
    return len(created)


# ---- the audit log screen ------------------------------------------------------------------------------


class _AuditFilters(TypedDict):
    """What both of `read_audit_log`'s reads of the log filter on."""

    action: str | None
    actor_query: str | None
    target_query: str | None
    since: datetime | None
    until: datetime | None


async def read_audit_log(
    *,
    session: AsyncSession,
    actor: Principal,
    time_zone: str,
    action: str | None = None,
    actor_query: str | None = None,
    target_query: str | None = None,
    since: date | None = None,
    until: date | None = None,
    older_than: str | None = None,
) -> AuditPageRead:
    """One page (100) of the audit log for an owner; `since` and `until` are whole days (both included)
    in `time_zone`, `older_than` the id of the last entry of the previous page."""
    account = await require_account(session=session, actor=actor)
    filters: _AuditFilters = {
        "action": action or None,
        "actor_query": actor_query,
        "target_query": target_query,
        "since": day_bounds(since, time_zone)[0] if since else None,
        "until": day_bounds(until, time_zone)[1] if until else None,
    }
    entries = await list_audit(session=session, reader=account, older_than=older_than, **filters)
    has_more = len(entries) == AUDIT_PAGE and bool(
        await list_audit(session=session, reader=account, limit=1, older_than=entries[-1].id, **filters)
    )
    return AuditPageRead(entries=entries, has_more=has_more)
