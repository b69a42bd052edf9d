"""Who is signed in on a browser connection, and the re-check every command makes.

The browser holds its session as HttpOnly cookies. A websocket connection reads the access cookie once
(`resolve_viewer`): the token's signature and expiry, that its session still exists, and, for a user with a
verified second factor, that the session reached aal2. The connection then keeps only a `Principal`
(app/principal.py), and `returning`: whether the person signed in before this session began (the audit
log's sign_in entries), so a first visit is not greeted with 'Welcome back'. Every command re-checks the
Principal with `require_account` / `require_identity`, so a sign-out on another tab or device, a ban or a
demotion stops the commands of this one at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.errors import AuthApiError
from app.auth.sessions import Actor, authenticate, is_banned, load_user_row, session_ended
from app.principal import Principal
from app.services.accounts._mapping import get_account
from app.services.errors import PermissionDenied
from models.account import AccountRead
from models.audit import AuditAction, AuditEntry
from models.identity import AuthSession, UserRead

SESSION_ENDED = "Your session has ended. Please sign in again."


@dataclass(frozen=True)
class Viewer:
    account: AccountRead
    actor: Principal
    returning: bool = False  # signed in before this session began


def fully_authenticated(user: UserRead, aal: str) -> bool:
    """A user with a verified factor is signed in only once the session reached aal2 (the TOTP code)."""
    return aal == "aal2" or not user.has_verified_factor


async def resolve_viewer(*, session: AsyncSession, access_token: str) -> Viewer | None:
    """The signed-in account behind an access token, or None (bad, expired, revoked or half signed in)."""
    if not access_token:
        return None
    try:
        actor = await authenticate(session=session, authorization=f"Bearer {access_token}")
    except AuthApiError:
        return None
    if actor.session_id is None or not fully_authenticated(actor.user, actor.aal):
        return None
    account = await get_account(session=session, user_id=actor.user.id)
    if account is None:
        return None
    return Viewer(
        account=account,
        actor=Principal.user(user_id=actor.user.id, session_id=actor.session_id),
        returning=await signed_in_before(session=session, user_id=actor.user.id, session_id=actor.session_id),
    )


async def signed_in_before(*, session: AsyncSession, user_id: str, session_id: str) -> bool:
    """Whether the user signed in (the audit log's sign_in entries) before session `session_id` began."""
    current = await session.get(AuthSession, session_id)
    if current is None:
        return False
    earlier = select(AuditEntry.id).where(
        AuditEntry.actor_id == user_id,
        AuditEntry.action == AuditAction.sign_in.value,
        AuditEntry.created_at < current.created_at,
    )
    return bool(await session.scalar(select(exists(earlier))))


async def identity_of(*, session: AsyncSession, actor: Principal) -> Actor | None:
    """The identity service's actor for a signed-in `actor` whose session is still valid; else None
    (a visitor, the system, or an ended session)."""
    if not actor.is_user:
        return None
    user = await load_user_row(session, actor.user_id)
    if user is None or is_banned(user):
        return None
    auth_session = await session.get(AuthSession, actor.session_id, populate_existing=True)
    if auth_session is None or auth_session.user_id != user.id or session_ended(auth_session, user):
        return None
    read = UserRead.of(user)
    if not fully_authenticated(read, auth_session.aal):
        return None
    return Actor(user=read, session_id=auth_session.id, aal=auth_session.aal)


async def require_identity(*, session: AsyncSession, actor: Principal) -> Actor:
    """`identity_of`, or PermissionDenied ('Your session has ended...')."""
    identity = await identity_of(session=session, actor=actor)
    if identity is None:
        raise PermissionDenied(SESSION_ENDED)
    return identity


async def require_account(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in account behind `actor` after `require_identity`'s re-check (role included)."""
    identity = await require_identity(session=session, actor=actor)
    account = await get_account(session=session, user_id=identity.user.id)
    if account is None:
        raise PermissionDenied(SESSION_ENDED)
    return account


async def acting_account(*, session: AsyncSession, actor: Principal) -> AccountRead | None:
    """For commands the operator may also run: None for `SYSTEM` (the command line, seeders, jobs), else
    `require_account`'s re-checked account. A visitor is refused."""
    if actor.is_system:
        return None
    return await require_account(session=session, actor=actor)
