"""Sessions: sign-in, refresh-token rotation (GoTrue `tokens.Service.RefreshTokenGrant`), access-token
authentication of user routes (`requireAuthentication`) and logout.

Refresh tokens are stored as sha256 hashes. A rotated token is derived from its parent (HMAC with a key
derived from the signing key), so the holder of the parent can be handed the same live child again.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from app import ratelimit
from app.auth.audit import audit
from app.auth.common import RequestOrigin, now, older_than
from app.auth.errors import bad_request, forbidden, unauthorized, validation_failed
from app.auth.passwords import (
    note_failed_check,
    note_passed_check,
    password_check_slot,
    verify_password,
    weakness,
)
from app.auth.tokens import (
    REFRESH_TOKEN_LENGTH,
    decode_access_token,
    derive_child_token,
    issue_access_token,
    random_alphanumeric,
    sha256_hex,
)
from app.db import changed_rows
from app.settings import get_settings
from models import account as models_account
from models.audit import AuditAction
from models.base import new_id
from models.identity import (
    AuthSession,
    AuthSessionRead,
    Identity,
    MfaAmrClaim,
    RefreshToken,
    User,
    UserRead,
    as_utc,
)

LOGOUT_SCOPES = ("global", "local", "others")


@dataclass(frozen=True)
class Actor:
    """The caller of a user-JWT route: its user, the session of its access token, and the claims."""

    user: UserRead
    session_id: str | None
    aal: str
    claims: dict[str, Any] = field(default_factory=dict)


# ---- users -------------------------------------------------------------------------------------
async def load_user_row(session: AsyncSession, user_id: str) -> User | None:
    """The user with identities and factors loaded (and refreshed from the database)."""
    result = await session.execute(
        select(User)
        .where(User.id == user_id)
        .options(selectinload(User.identities), selectinload(User.factors))
        .execution_options(populate_existing=True)
    )
    return result.scalar_one_or_none()


async def find_user_by_email(session: AsyncSession, email: str) -> User | None:
    result = await session.execute(
        select(User)
        .where(User.email == email.strip().lower())
        .options(selectinload(User.identities), selectinload(User.factors))
        .execution_options(populate_existing=True)
    )
    return result.scalar_one_or_none()


async def read_user(session: AsyncSession, user_id: str) -> UserRead:
    await session.flush()
    row = await load_user_row(session, user_id)
    assert row is not None
    return UserRead.of(row)


def is_banned(user: User) -> bool:
    return banned_now(user.banned_until)


def banned_now(banned_until: datetime | None) -> bool:
    banned = as_utc(banned_until)
    return banned is not None and banned > now()


# ---- sessions ----------------------------------------------------------------------------------
async def add_amr_claim(session: AsyncSession, session_id: str, method: str) -> None:
    claim = await session.scalar(
        select(MfaAmrClaim).where(
            MfaAmrClaim.session_id == session_id, MfaAmrClaim.authentication_method == method
        )
    )
    if claim is None:
        session.add(MfaAmrClaim(session_id=session_id, authentication_method=method, updated_at=now()))
    else:
        claim.updated_at = now()


async def _amr(session: AsyncSession, session_id: str) -> list[dict[str, Any]]:
    claims = await session.scalars(
        select(MfaAmrClaim)
        .where(MfaAmrClaim.session_id == session_id)
        .order_by(MfaAmrClaim.updated_at.desc())
    )
    return [
        {"method": c.authentication_method, "timestamp": int(as_utc(c.updated_at).timestamp())}
        for c in claims
    ]


async def session_response(
    session: AsyncSession,
    *,
    auth_session: AuthSession,
    refresh_token: str,
    origin: RequestOrigin,
    weak_password: dict[str, Any] | None = None,
) -> AuthSessionRead:
    user = await read_user(session, auth_session.user_id)
    access = issue_access_token(
        issuer=origin.issuer,
        user_id=user.id,
        email=user.email,
        phone=user.phone,
        app_metadata=user.app_metadata,
        user_metadata=user.user_metadata,
        role=user.role,
        aal=auth_session.aal,
        amr=await _amr(session, auth_session.id),
        session_id=auth_session.id,
        is_anonymous=user.is_anonymous,
    )
    return AuthSessionRead(
        access_token=access.token,
        expires_in=access.expires_in,
        expires_at=access.expires_at,
        refresh_token=refresh_token,
        user=user,
        session_id=auth_session.id,
        aal=auth_session.aal,
        weak_password=weak_password,
    )


async def start_session(
    *,
    session: AsyncSession,
    user: User,
    method: str,
    origin: RequestOrigin,
    weak_password: dict[str, Any] | None = None,
) -> AuthSessionRead:
    """A new signed-in session for `user`: session row, root refresh token, AMR claim."""
    moment = now()
    auth_session = AuthSession(
        id=new_id(),
        user_id=user.id,
        ip=origin.ip[:64] or None,
        user_agent=origin.user_agent[:512] or None,
        active_at=now(),
    )
    session.add(auth_session)
    await session.flush()
    token = random_alphanumeric(REFRESH_TOKEN_LENGTH)
    session.add(RefreshToken(token_hash=sha256_hex(token), user_id=user.id, session_id=auth_session.id))
    await add_amr_claim(session, auth_session.id, method)
    user.last_sign_in_at = moment
    await session.execute(
        update(Identity)
        .where(Identity.user_id == user.id, Identity.provider == "email")
        .values(last_sign_in_at=moment)
    )
    await session.flush()
    await audit(
        session,
        origin,
        AuditAction.sign_in,
        user_id=user.id,
        email=user.email,
        details={"method": method, "session_id": auth_session.id},
    )
    return await session_response(
        session, auth_session=auth_session, refresh_token=token, origin=origin, weak_password=weak_password
    )


async def rotate_refresh_token(
    session: AsyncSession, *, auth_session: AuthSession, parent: RefreshToken, parent_token: str
) -> str:
    """Revoke `parent` and issue its child in the same session."""
    moment = now()
    if not parent.revoked:
        parent.revoked = True
        parent.updated_at = moment
    child_id = new_id()
    token = derive_child_token(parent_token, child_id)
    session.add(
        RefreshToken(
            id=child_id,
            token_hash=sha256_hex(token),
            user_id=parent.user_id,
            session_id=auth_session.id,
            parent=parent.token_hash,
            created_at=moment,
            updated_at=moment,
        )
    )
    auth_session.refreshed_at = moment
    await session.flush()
    return token


async def live_refresh_token(session: AsyncSession, session_id: str) -> RefreshToken | None:
    return await session.scalar(
        select(RefreshToken)
        .where(RefreshToken.session_id == session_id, RefreshToken.revoked.is_(False))
        .order_by(RefreshToken.created_at.desc(), RefreshToken.id.desc())
        .limit(1)
    )


async def sign_in_with_password(
    *, session: AsyncSession, origin: RequestOrigin, email: str, password: str
) -> AuthSessionRead:
    attempted = (email or "").strip().lower()[:320]
    async with password_check_slot(origin.ip):
        found = await find_user_by_email(session, email) if email else None
        user_id, encoded = (found.id, found.encrypted_password) if found else (None, None)
        # Hashing takes a while (and may wait its turn): nothing was written, so end the read and hold no
        # database connection meanwhile; a flood of guesses must not take the pool from real sign-ins.
        await session.rollback()
        valid = await verify_password(encoded, password, ip=origin.ip)
        if not valid:
            note_failed_check(origin.ip)
            await _slow_down_guessing(attempted)
        else:
            note_passed_check(origin.ip)
    user = await load_user_row(session, user_id) if valid and user_id else None
    failure = None
    if user is None or not valid:
        failure = ("invalid_credentials", "Invalid login credentials")
    elif is_banned(user):
        failure = ("user_banned", "User is banned")
    elif user.email_confirmed_at is None:
        failure = ("email_not_confirmed", "Email not confirmed")
    if failure is not None:
        # Audited, and kept although the request fails (`commit=True`): nothing else was written.
        await audit(
            session,
            origin,
            AuditAction.sign_in_failed,
            user_id=None,
            email=attempted,
            details={"reason": failure[0]},
        )
        raise bad_request(*failure, commit=True)
    assert user is not None  # no failure: the user was found
    weak = weakness(password)
    report = {"message": weak[1], "reasons": weak[0]} if weak else None
    return await start_session(
        session=session, user=user, method="password", origin=origin, weak_password=report
    )


async def _slow_down_guessing(email: str) -> None:
    """Once an account has seen more failed password sign-ins than the allowance within the rate-limit
    window (counted across workers in `app.ratelimit`), answer each further failure only after a delay.

    Guessing gets slower, while the owner is never refused: a right password is not delayed, and no count
    of failures, from however many addresses, turns into a lock (GoTrue keys its request limits on the
    client address only, and so do we)."""
    settings = get_settings()
    over = await ratelimit.hit(
        "sign_in_failures",
        email,
        limit=settings.sign_in_failures_before_delay,
        window=settings.rate_limit_window,
    )
    if over is not None and settings.sign_in_failure_delay_ms > 0:
        await asyncio.sleep(settings.sign_in_failure_delay_ms / 1000)


async def refresh(*, session: AsyncSession, origin: RequestOrigin, refresh_token: str) -> AuthSessionRead:
    token_hash = sha256_hex(refresh_token)
    # Serialise refreshes of one session: this write takes the session's row lock (PostgreSQL) or the
    # database write lock (SQLite) before anything is read, so concurrent refreshes see each other.
    await session.execute(
        update(AuthSession)
        .where(
            AuthSession.id
            == select(RefreshToken.session_id).where(RefreshToken.token_hash == token_hash).scalar_subquery()
        )
        .values(refreshed_at=AuthSession.refreshed_at)
        .execution_options(synchronize_session=False)
    )
    token = await session.scalar(select(RefreshToken).where(RefreshToken.token_hash == token_hash))
    if token is None:
        raise bad_request("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
    auth_session = await session.get(AuthSession, token.session_id, populate_existing=True)
    if auth_session is None:
        raise bad_request("session_not_found", "Invalid Refresh Token: No Valid Session Found")
    not_after = as_utc(auth_session.not_after)
    if not_after is not None and now() > not_after:
        raise bad_request("session_expired", "Invalid Refresh Token: Session Expired")
    user = await load_user_row(session, token.user_id)
    if user is None:
        raise bad_request("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
    if is_banned(user):
        raise bad_request("user_banned", "User is banned")
    if session_ended(auth_session, user):
        await session.delete(auth_session)
        raise bad_request("session_expired", "Invalid Refresh Token: Session Expired", commit=True)

    settings = get_settings()
    issued: str | None = None
    if token.revoked:
        live = await live_refresh_token(session, auth_session.id)
        if live is not None and live.parent == token.token_hash:
            # The client refreshed but never stored the answer: hand it the live child again.
            candidate = derive_child_token(refresh_token, live.id)
            if sha256_hex(candidate) == live.token_hash:
                issued = candidate
                auth_session.refreshed_at = now()
        if issued is None and older_than(token.updated_at, settings.refresh_token_reuse_interval):
            # Reuse outside the grace interval: assume theft and revoke the whole family. The live tokens
            # are stamped as revoked before the grace interval, so that it cannot revive them.
            stamp = now() - timedelta(seconds=settings.refresh_token_reuse_interval + 1)
            await session.execute(
                update(RefreshToken)
                .where(RefreshToken.session_id == auth_session.id, RefreshToken.revoked.is_(False))
                .values(revoked=True, updated_at=stamp)
                .execution_options(synchronize_session=False)
            )
            raise bad_request(
                "refresh_token_already_used", "Invalid Refresh Token: Already Used", commit=True
            )
    if issued is None:
        issued = await rotate_refresh_token(
            session, auth_session=auth_session, parent=token, parent_token=refresh_token
        )
    return await session_response(session, auth_session=auth_session, refresh_token=issued, origin=origin)


# ---- user-JWT routes ---------------------------------------------------------------------------
# ---- automatic logoff ---------------------------------------------------------------------------------
STAFF_ROLES = models_account.STAFF_ROLES | models_account.ADMIN_ROLES
# The tab reports activity at most once a minute (static/js/auth.js): the server allows for that lag.
ACTIVITY_REPORT_LAG = timedelta(seconds=90)
ACTIVITY_WRITE_EVERY = timedelta(seconds=30)


def inactivity_limit(user: User) -> int:
    """Seconds without activity after which `user`'s sessions end (0: never): shorter for staff roles."""
    return inactivity_limit_of(user.raw_app_meta_data, user.email)


def inactivity_limit_of(app_metadata: dict[str, Any] | None, email: str | None) -> int:
    """`inactivity_limit` from the user's app_metadata and e-mail address."""
    settings = get_settings()
    role = (app_metadata or {}).get("role")
    staff = role in STAFF_ROLES or (email or "").lower() in settings.owner_email_set
    return settings.sessions_inactivity_timeout_staff if staff else settings.sessions_inactivity_timeout


def session_ends_at(auth_session: AuthSession) -> datetime | None:
    """The absolute end of a session (SESSIONS_TIMEBOX after sign-in), whatever the activity."""
    return _timebox_end(auth_session.created_at)


def _timebox_end(created_at: datetime | None) -> datetime | None:
    timebox = get_settings().sessions_timebox
    created = as_utc(created_at)
    return created + timedelta(seconds=timebox) if timebox and created else None


def session_ended(auth_session: AuthSession, user: User, moment: datetime | None = None) -> bool:
    """Whether the session is over: past its absolute lifetime, or idle longer than the user's limit."""
    return session_over(
        created_at=auth_session.created_at,
        active_at=auth_session.active_at,
        limit=inactivity_limit(user),
        moment=moment,
    )


def session_over(
    *, created_at: datetime | None, active_at: datetime | None, limit: int, moment: datetime | None = None
) -> bool:
    """`session_ended` from the session's sign-in and last activity and the user's inactivity `limit`."""
    moment = moment or now()
    ends = _timebox_end(created_at)
    if ends is not None and moment >= ends:
        return True
    last = as_utc(active_at) or as_utc(created_at)
    return bool(limit and last and moment >= last + timedelta(seconds=limit) + ACTIVITY_REPORT_LAG)


async def note_activity(session: AsyncSession, auth_session: AuthSession) -> None:
    """The person just did something: move `active_at` (written at most every 30 s per session)."""
    moment = now()
    last = as_utc(auth_session.active_at)
    if last is None or moment - last >= ACTIVITY_WRITE_EVERY:
        auth_session.active_at = moment
        await session.flush()


async def record_activity(session: AsyncSession, actor: Actor) -> tuple[int, datetime | None]:
    """Note that the person behind `actor` is active; answers their inactivity limit (seconds) and the
    session's absolute end, for the tab's warning."""
    auth_session = await session.get(AuthSession, actor.session_id)
    user = await load_user_row(session, actor.user.id)
    if auth_session is None or user is None:
        return 0, None
    await note_activity(session, auth_session)
    return inactivity_limit(user), session_ends_at(auth_session)


async def authenticate(*, session: AsyncSession, authorization: str | None) -> Actor:
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("no_authorization", "This endpoint requires a valid Bearer token")
    claims = decode_access_token(token.strip())
    user = await load_user_row(session, str(claims["sub"]))
    if user is None:
        raise forbidden("user_not_found", "User from sub claim in JWT does not exist")
    if is_banned(user):
        raise forbidden("user_banned", "User is banned")
    session_id = claims.get("session_id")
    aal = str(claims.get("aal") or "aal1")
    if session_id:
        auth_session = await session.get(AuthSession, str(session_id), populate_existing=True)
        if auth_session is None or auth_session.user_id != user.id:
            raise forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
        if session_ended(auth_session, user):
            raise forbidden("session_expired", "Session has expired (inactivity or its maximum lifetime)")
        aal = auth_session.aal
    return Actor(
        user=UserRead.of(user), session_id=str(session_id) if session_id else None, aal=aal, claims=claims
    )


async def sign_out(
    *, session: AsyncSession, actor: Actor, scope: str, origin: RequestOrigin | None = None
) -> None:
    if scope not in LOGOUT_SCOPES:
        raise validation_failed(f"Unsupported logout scope {scope!r}")
    await audit(
        session,
        origin,
        AuditAction.sign_out,
        user_id=actor.user.id,
        email=actor.user.email,
        details={"scope": scope, "session_id": actor.session_id},
    )
    query = delete(AuthSession).where(AuthSession.user_id == actor.user.id)
    if scope == "local":
        if actor.session_id is None:
            return
        query = query.where(AuthSession.id == actor.session_id)
    elif scope == "others" and actor.session_id is not None:
        query = query.where(AuthSession.id != actor.session_id)
    await session.execute(query.execution_options(synchronize_session=False))


async def delete_other_sessions(session: AsyncSession, *, user_id: str, keep: str | None) -> int:
    """End every session of the user but `keep` (None: all of them); answers how many ended."""
    query = delete(AuthSession).where(AuthSession.user_id == user_id)
    if keep:
        query = query.where(AuthSession.id != keep)
    return await changed_rows(session, query.execution_options(synchronize_session=False))
