"""The re-check every command makes of its actor: that the Principal's browser session still exists, is
neither timed out nor past its lifetime, that the user is not banned, and, for a user with a verified second
factor, that the session reached aal2. A sign-out on another tab or device, a ban or a demotion stops the
commands of every other tab at once.

The re-check reads the user and the session in one joined statement, refreshed from the database (never a
copy kept from an earlier command): `require_account`, which most commands call, costs that one statement;
`identity_of` loads the user's identities and factors as well.
"""

from __future__ import annotations

from sqlalchemy import Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from app.auth.sessions import (
    Actor,
    banned_now,
    inactivity_limit_of,
    is_banned,
    session_ended,
    session_over,
)
from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.accounts import map_account
from models.account import AccountRead
from models.identity import AuthSession, MfaFactor, User, UserRead

SESSION_ENDED = "Your session has ended. Please sign in again."


def fully_authenticated(user: UserRead, aal: str) -> bool:
    """A user with a verified factor is signed in only once the session reached aal2 (the TOTP code)."""
    return aal == "aal2" or not user.has_verified_factor


def _signed_in_statement() -> Select[User, AuthSession, bool]:
    """The re-check's one statement: the user and the session (joined, so a session of another user finds
    nothing), whether the user has a verified second factor, all refreshed from the database. Built once:
    only the parameters change from command to command."""
    verified = (
        select(MfaFactor.id).where(MfaFactor.user_id == User.id, MfaFactor.status == "verified").exists()
    )
    return (
        select(User, AuthSession, verified)
        .join(AuthSession, AuthSession.user_id == User.id)
        .where(User.id == bindparam("user_id"), AuthSession.id == bindparam("session_id"))
        .execution_options(populate_existing=True)
    )


_SIGNED_IN = _signed_in_statement()
_SIGNED_IN_WITH_IDENTITIES = _SIGNED_IN.options(selectinload(User.identities), selectinload(User.factors))
# The same join for `require_account`: only the columns its rules and the account read (no ORM objects).
_ACCOUNT_CHECK = (
    select(
        User.id,
        User.email,
        User.raw_app_meta_data,
        User.raw_user_meta_data,
        User.banned_until,
        AuthSession.created_at,
        AuthSession.active_at,
        AuthSession.aal,
        select(MfaFactor.id).where(MfaFactor.user_id == User.id, MfaFactor.status == "verified").exists(),
    )
    .join(AuthSession, AuthSession.user_id == User.id)
    .where(User.id == bindparam("user_id"), AuthSession.id == bindparam("session_id"))
)


def _who(actor: Principal) -> dict[str, str]:
    return {"user_id": actor.user_id, "session_id": actor.session_id}


def _still_signed_in(user: User, auth_session: AuthSession, has_verified_factor: bool) -> bool:
    """Not banned, the session neither timed out nor past its lifetime, and at aal2 if the user has a
    verified factor."""
    if is_banned(user) or session_ended(auth_session, user):
        return False
    return auth_session.aal == "aal2" or not has_verified_factor


async def identity_of(*, session: AsyncSession, actor: Principal) -> Actor | None:
    """The identity service's actor for a signed-in `actor` whose session is still valid; else None
    (a visitor, the system, or an ended session)."""
    if not actor.is_user:
        return None
    found = (await session.execute(_SIGNED_IN_WITH_IDENTITIES, _who(actor))).first()
    if found is None or not _still_signed_in(*found):
        return None
    user, auth_session, _verified = found
    return Actor(user=UserRead.of(user), session_id=auth_session.id, aal=auth_session.aal)


async def require_identity(*, session: AsyncSession, actor: Principal) -> Actor:
    """`identity_of`, or PermissionDenied ('Your session has ended...')."""
    identity = await identity_of(session=session, actor=actor)
    if identity is None:
        raise PermissionDenied(SESSION_ENDED)
    return identity


async def require_account(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in account behind `actor` after the same re-check as `require_identity` (role included),
    in one statement that reads columns only (the same rules as `_still_signed_in`, on plain values)."""
    if actor.is_user:
        found = (await session.execute(_ACCOUNT_CHECK, _who(actor))).first()
        if found is not None:
            user_id, email, app_metadata, user_metadata, banned_until, created_at, active_at, aal, factor = (
                found
            )
            ended = banned_now(banned_until) or session_over(
                created_at=created_at, active_at=active_at, limit=inactivity_limit_of(app_metadata, email)
            )
            if not ended and (aal == "aal2" or not factor):
                return map_account(
                    user_id=user_id,
                    email=email or "",
                    app_metadata=app_metadata or {},
                    user_metadata=user_metadata or {},
                )
    raise PermissionDenied(SESSION_ENDED)


async def acting_account(*, session: AsyncSession, actor: Principal) -> AccountRead | None:
    """For commands the operator may also run: None for `SYSTEM` (the command line, seeders, jobs), else
    `require_account`'s re-checked account. A visitor is refused."""
    if actor.is_system:
        return None
    return await require_account(session=session, actor=actor)
