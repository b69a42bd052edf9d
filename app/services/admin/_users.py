"""Accounts in the admin console: find them (name or e-mail, a role; 50 a page), look at one, change its
role (the accounts domain's `set_role` rules), its VIP and free-access flags (app_metadata `is_vip`,
`has_free_access`, read by accounts' `map_account`), disable and re-enable it (`banned_until`, which the
identity service refuses at sign-in, token refresh and every command's re-check), and end its sessions.

Who may act on whom: nobody on their own account; otherwise the shared rule of app/services/_privilege.py
(you hand out only what you hold): an administrator without staff permissions gives only the roles that
grant none (patient, provider) and changes only accounts that hold nothing they lack, so an account with
administration rights or staff permissions is an owner's to change; an owner e-mail (OWNER_EMAILS) is never
disabled and keeps its flags. Every change is audited with the administrator's address and browser, and so
is every refused escalation.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import String, and_, delete, func, literal_column, not_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.auth.sessions import banned_now, inactivity_limit_of, session_over
from app.db import changed_rows
from app.principal import Principal
from app.services.accounts import BANNED_FOREVER, DELETED_DOMAIN, OWN_ROLE, set_role
from app.services.admin._access import require_admin
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.shared.accounts import account_of, map_account, owner_emails
from app.services.shared.privilege import (
    Holdings,
    grantable_roles,
    holdings_of,
    may_change,
    require_may_change,
)
from models.account import AccountRead, Role
from models.admin import UserDetailRead, UserPageRead, UserSummaryRead
from models.audit import AuditAction
from models.base import utcnow
from models.identity import AuthSession, User, as_utc

PAGE_SIZE = 50
MAX_QUERY = 200
MAX_PAGE = 10_000
NO_ACCOUNT = "There is no such account."
STAFF_TARGET = "This account holds staff permissions you do not hold: only an owner can change it."
OWN_ACCOUNT = "You cannot change your own account here."
OWNER_EMAIL_FIXED = "An owner e-mail address (OWNER_EMAILS) always keeps its flags and cannot be disabled."
QUERY_TOO_LONG = f"Search for at most {MAX_QUERY} characters."
BAD_PAGE = "That page does not exist."


# ---- reading ----------------------------------------------------------------------------------------
def _like(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _role_clause(role: Role) -> Any:
    """SPEC §6 in SQL: the role in app_metadata; without a known one, owner for an owner e-mail, else
    patient (accounts' `map_account` rule)."""
    stored = func.coalesce(User.raw_app_meta_data["role"].as_string(), "")
    unknown = not_(stored.in_([r.value for r in Role]))
    owners = func.lower(func.coalesce(User.email, "")).in_(sorted(owner_emails()))
    if role == Role.owner:
        return or_(stored == Role.owner.value, and_(unknown, owners))
    if role == Role.patient:
        return or_(stored == Role.patient.value, and_(unknown, not_(owners)))
    return stored == role.value


def _meta_text(key: str) -> Any:
    return func.coalesce(
        User.raw_user_meta_data.op("->>", return_type=String)(literal_column(f"'{key}'")),
        literal_column("''", String),
    )


# What the search looks in: the e-mail address and the name, lowercased. Written with literals only (no
# bound parameters), so that PostgreSQL matches it to the trigram index of migration 0033.
SEARCH_TEXT = func.lower(
    func.coalesce(User.email, literal_column("''", String))
    + literal_column("' '", String)
    + _meta_text("first_name")
    + literal_column("' '", String)
    + _meta_text("last_name")
)


def _filters(query: str, role: Role | None) -> list[Any]:
    clauses: list[Any] = [
        or_(User.email.is_(None), not_(User.email.endswith(f"@{DELETED_DOMAIN}"))),
    ]
    clauses += [SEARCH_TEXT.like(_like(term), escape="\\") for term in query.lower().split()[:5]]
    if role is not None:
        clauses.append(_role_clause(role))
    return clauses


def _role_filter(role: Role | str | None) -> Role | None:
    if not role:
        return None
    try:
        return Role(role)
    except ValueError:
        raise ValidationFailed("Choose one of the roles, or all roles.") from None


async def list_users(
    *,
    session: AsyncSession,
    actor: Principal,
    query: str = "",
    role: Role | str | None = None,
    page: int = 1,
) -> UserPageRead:
    """Accounts whose e-mail or name contains every word of `query` (and of `role`), newest first,
    PAGE_SIZE a page. Anonymised (deleted) accounts are left out."""
    await require_admin(session=session, actor=actor)
    query = (query or "").strip()
    if len(query) > MAX_QUERY:
        raise ValidationFailed(QUERY_TOO_LONG)
    if not 1 <= int(page) <= MAX_PAGE:
        raise ValidationFailed(BAD_PAGE)
    where = _filters(query, _role_filter(role))
    total = await session.scalar(select(func.count()).select_from(User).where(*where)) or 0
    rows = await session.execute(
        select(
            User.id,
            User.email,
            User.raw_app_meta_data,
            User.raw_user_meta_data,
            User.created_at,
            User.last_sign_in_at,
            User.banned_until,
        )
        .where(*where)
        .order_by(User.created_at.desc(), User.id)
        .offset((int(page) - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    )
    users = []
    for user_id, email, app_meta, user_meta, created_at, last_sign_in_at, banned_until in rows:
        account = map_account(
            user_id=user_id, email=email or "", app_metadata=app_meta or {}, user_metadata=user_meta or {}
        )
        users.append(
            UserSummaryRead(
                id=user_id,
                email=email or "",
                name=account.name,
                role=account.role,
                is_master_admin=account.is_master_admin,
                created_at=as_utc(created_at),
                last_sign_in_at=as_utc(last_sign_in_at),
                disabled=banned_now(banned_until),
            )
        )
    return UserPageRead(users=users, total=total, page=int(page), page_size=PAGE_SIZE)


async def _target(session: AsyncSession, user_id: str, *, lock: bool = False) -> User:
    """The account (locked for the change on PostgreSQL when `lock`: two administrators changing it at
    once take turns), or NotFound; anonymised accounts are not found."""
    user_id = str(user_id or "")
    user = (
        await session.get(User, user_id, with_for_update=lock, populate_existing=lock)
        if 0 < len(user_id) <= 36
        else None
    )
    if user is None or (user.email or "").endswith(f"@{DELETED_DOMAIN}"):
        raise NotFound(NO_ACCOUNT)
    return user


def _why_not(by: AccountRead, held: Holdings, target: AccountRead, holds: Holdings) -> str:
    """Why `by` may change nothing on `target` ("" when they may)."""
    if by.id == target.id:
        return "This is your own account: nobody changes their own role, flags or access here."
    if may_change(held, holds):
        return ""
    if holds.administration:
        return "This account has administration rights: only an owner can change it."
    return STAFF_TARGET


async def _live_sessions(session: AsyncSession, user: User) -> int:
    limit = inactivity_limit_of(user.raw_app_meta_data, user.email)
    rows = await session.execute(
        select(AuthSession.created_at, AuthSession.active_at).where(AuthSession.user_id == user.id)
    )
    return sum(
        1 for created, active in rows if not session_over(created_at=created, active_at=active, limit=limit)
    )


async def _detail(session: AsyncSession, by: AccountRead, user: User) -> UserDetailRead:
    account = account_of(user)
    held = await holdings_of(session, by)
    why_not = _why_not(by, held, account, await holdings_of(session, account))
    return UserDetailRead(
        id=user.id,
        email=user.email or "",
        name=account.name,
        role=account.role,
        is_master_admin=account.is_master_admin,
        is_vip=account.is_vip,
        has_free_access=account.has_free_access,
        owner_email=(user.email or "").lower() in owner_emails(),
        created_at=as_utc(user.created_at),
        last_sign_in_at=as_utc(user.last_sign_in_at),
        email_confirmed_at=as_utc(user.email_confirmed_at),
        disabled=banned_now(user.banned_until),
        active_sessions=0 if banned_now(user.banned_until) else await _live_sessions(session, user),
        is_self=by.id == user.id,
        roles_grantable=[]
        if why_not
        else list(grantable_roles(held, (r for r in Role if r != account.role))),
        may_manage=not why_not,
        why_not=why_not,
    )


async def get_user(*, session: AsyncSession, actor: Principal, user_id: str) -> UserDetailRead:
    """One account, with what the administrator may change on it."""
    by = await require_admin(session=session, actor=actor)
    return await _detail(session, by, await _target(session, user_id))


# ---- changing ---------------------------------------------------------------------------------------
async def _managed(
    session: AsyncSession, actor: Principal, user_id: str, attempt: str
) -> tuple[AccountRead, User]:
    """The administrator and the account they may change (`attempt`, for the audit log of a refusal), or
    PermissionDenied / NotFound."""
    by = await require_admin(session=session, actor=actor)
    user = await _target(session, user_id, lock=True)
    if by.id == user.id:
        raise PermissionDenied(OWN_ACCOUNT)
    await require_may_change(session=session, by=by, target=account_of(user), attempt=attempt, actor=actor)
    return by, user


async def _audit(
    session: AsyncSession, by: AccountRead, actor: Principal, action: AuditAction, user: User, **details: Any
) -> None:
    await audit.record(
        session=session,
        actor_id=by.id,
        actor_email=by.email,
        action=action,
        target=user.email,
        ip=actor.ip,
        user_agent=actor.user_agent,
        details=details,
    )


async def change_user_role(
    *, session: AsyncSession, actor: Principal, user_id: str, role: Role | str
) -> UserDetailRead:
    """Give the account a role: the accounts domain's `set_role`, which applies the shared rule (the role
    and the account must hold nothing the administrator lacks) and writes its own audit entry."""
    by = await require_admin(session=session, actor=actor)
    user = await _target(session, user_id, lock=True)
    if by.id == user.id:
        raise PermissionDenied(OWN_ROLE)
    await set_role(session=session, actor=actor, email=user.email or "", role=role)
    return await _detail(session, by, user)


async def set_user_flags(
    *,
    session: AsyncSession,
    actor: Principal,
    user_id: str,
    is_vip: bool | None = None,
    has_free_access: bool | None = None,
) -> UserDetailRead:
    """Switch the account's VIP and free-access flags (SPEC §3 isVip, hasFreeAccess); None leaves one."""
    by, user = await _managed(session, actor, user_id, "change the account's flags")
    if (user.email or "").lower() in owner_emails():
        raise PermissionDenied(OWNER_EMAIL_FIXED)
    wanted = {"is_vip": is_vip, "has_free_access": has_free_access}
    if any(v is not None and not isinstance(v, bool) for v in wanted.values()):
        raise ValidationFailed("Choose on or off.")
    metadata = dict(user.raw_app_meta_data or {})
    changes = {
        key: {"from": metadata.get(key) is True, "to": value}
        for key, value in wanted.items()
        if value is not None and (metadata.get(key) is True) != value
    }
    if changes:
        user.raw_app_meta_data = metadata | {key: change["to"] for key, change in changes.items()}
        await session.flush()
        await _audit(session, by, actor, AuditAction.account_flags, user, **changes)
    return await _detail(session, by, user)


async def _end_sessions(session: AsyncSession, user: User) -> int:
    return await changed_rows(
        session,
        delete(AuthSession)
        .where(AuthSession.user_id == user.id)
        .execution_options(synchronize_session=False),
    )


async def _set_banned(
    session: AsyncSession, user: User, value: datetime | None, *, when_banned: bool
) -> bool:
    """Set `banned_until` only if the account is (`when_banned`) or is not disabled now; whether it did."""
    moment = utcnow()
    banned = and_(User.banned_until.is_not(None), User.banned_until > moment)
    changed = await changed_rows(
        session,
        update(User)
        .where(User.id == user.id, banned if when_banned else not_(banned))
        .values(banned_until=value)
        .execution_options(synchronize_session=False),
    )
    await session.refresh(user)
    return bool(changed)


async def disable_user(*, session: AsyncSession, actor: Principal, user_id: str) -> UserDetailRead:
    """Disable the account: it cannot sign in or refresh a token, and every session of it ends now."""
    by, user = await _managed(session, actor, user_id, "disable the account")
    if (user.email or "").lower() in owner_emails():
        raise PermissionDenied(OWNER_EMAIL_FIXED)
    # Compare and set: of two administrators disabling at once, one changes it (and audits); on SQLite,
    # where nothing holds the row, the later UPDATE finds it already disabled.
    if await _set_banned(session, user, BANNED_FOREVER.replace(tzinfo=UTC), when_banned=False):
        ended = await _end_sessions(session, user)
        await _audit(session, by, actor, AuditAction.account_disable, user, sessions_ended=ended)
    return await _detail(session, by, user)


async def enable_user(*, session: AsyncSession, actor: Principal, user_id: str) -> UserDetailRead:
    """Let a disabled account sign in again (its old sessions stay ended)."""
    by, user = await _managed(session, actor, user_id, "enable the account")
    if await _set_banned(session, user, None, when_banned=True):
        await _audit(session, by, actor, AuditAction.account_enable, user)
    return await _detail(session, by, user)


async def force_sign_out(*, session: AsyncSession, actor: Principal, user_id: str) -> int:
    """End every session of the account now (its open tabs are refused on their next command and asked to
    sign in on their next page load); answers how many ended."""
    by, user = await _managed(session, actor, user_id, "sign the account out everywhere")
    ended = await _end_sessions(session, user)
    await _audit(session, by, actor, AuditAction.force_sign_out, user, sessions_ended=ended)
    return ended
