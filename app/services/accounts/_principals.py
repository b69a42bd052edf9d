"""Who is signed in on a browser connection.

The browser holds its session as HttpOnly cookies. A websocket connection reads the access cookie once
(`resolve_viewer`): the token's signature and expiry, that its session still exists, and, for a user with a
verified second factor, that the session reached aal2. The connection then keeps only a `Principal`
(app/principal.py), and `returning`: whether the person signed in before this session began (the audit
log's sign_in entries), so a first visit is not greeted with 'Welcome back'. Every command re-checks the
Principal (app/services/shared/signed_in.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.errors import AuthApiError
from app.auth.sessions import authenticate
from app.principal import Principal
from app.services.shared.accounts import get_account
from app.services.shared.signed_in import fully_authenticated
from models.account import AccountRead
from models.audit import AuditAction, AuditEntry
from models.identity import AuthSession


@dataclass(frozen=True)
class Viewer:
    account: AccountRead
    actor: Principal
    returning: bool = False  # signed in before this session began


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
