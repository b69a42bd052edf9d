"""Accounts: sign-up (GoTrue `signup.go`) and the user's own changes (`user.go`)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.auth.audit import audit
from app.auth.common import RequestOrigin, clean_name_metadata, normalize_email, now, older_than
from app.auth.errors import AuthApiError, forbidden, unauthorized, unprocessable, validation_failed
from app.auth.mailer import check_send_frequency, send_otp_email
from app.auth.passwords import check_new_password, hash_password, verify_password
from app.auth.pkce import Pkce, create_flow_state
from app.auth.sessions import (
    Actor,
    delete_other_sessions,
    find_user_by_email,
    load_user_row,
    read_user,
    start_session,
)
from app.auth.tokens import email_token_hash, stored_token_hash
from app.settings import get_settings
from models.audit import AuditAction
from models.base import new_id
from models.identity import AuthSessionRead, Identity, OneTimeToken, User, UserRead

EMAIL_APP_METADATA = {"provider": "email", "providers": ["email"]}


def _phone_disabled() -> AuthApiError:
    return unprocessable("phone_provider_disabled", "Phone logins are disabled")


async def create_email_user(
    session: AsyncSession, *, email: str, password_hash: str | None, data: dict[str, Any] | None
) -> User:
    user_id = new_id()
    identity_data = {"sub": user_id, "email": email, "email_verified": False, "phone_verified": False}
    user = User(
        id=user_id,
        email=email,
        encrypted_password=password_hash,
        raw_app_meta_data=dict(EMAIL_APP_METADATA),
        raw_user_meta_data={**(clean_name_metadata(data, shorten=True) or {}), **identity_data},
    )
    session.add(user)
    await session.flush()
    session.add(
        Identity(
            provider_id=user_id, user_id=user_id, identity_data=identity_data, provider="email", email=email
        )
    )
    await session.flush()
    loaded = await load_user_row(session, user_id)
    assert loaded is not None
    return loaded


async def mark_email_verified(session: AsyncSession, user: User) -> None:
    """Confirm the user's e-mail: `email_confirmed_at`, and `email_verified: true` in the metadata."""
    if user.email_confirmed_at is None:
        user.email_confirmed_at = now()
    user.raw_user_meta_data = {**(user.raw_user_meta_data or {}), "email_verified": True}
    identities = await session.scalars(
        select(Identity).where(Identity.user_id == user.id, Identity.provider == "email")
    )
    for identity in identities:
        identity.identity_data = {
            **(identity.identity_data or {}),
            "email": user.email,
            "email_verified": True,
        }
        identity.email = user.email


async def send_email_change_confirmations(
    *, session: AsyncSession, user: User, origin: RequestOrigin, redirect_to: str | None, pkce: bool
) -> None:
    """GoTrue's secure e-mail change: a confirmation to the new address AND one to the current address;
    the account moves only once both are confirmed, so a stolen session alone cannot take it over.
    (One request, two messages: the second is not held back by the first's send frequency.)"""
    for kind, address in (("email_change", user.email_change), ("email_change_current", user.email)):
        if address:
            await send_otp_email(
                session=session,
                user=user,
                kind=kind,
                origin=origin,
                redirect_to=redirect_to,
                address=address,
                pkce=pkce,
                check_frequency=kind == "email_change",
            )


def check_user_metadata(data: dict[str, Any] | None) -> None:
    """User metadata travels in every access token (and so in a cookie): 400 past `MAX_USER_METADATA_BYTES`."""
    limit = get_settings().max_user_metadata_bytes
    if data and len(json.dumps(data, separators=(",", ":"))) > limit:
        raise validation_failed(f"User metadata is too large: at most {limit:,} bytes are allowed")


def _fake_user(email: str, data: dict[str, Any] | None) -> UserRead:
    """What a repeated sign-up answers without auto-confirm, so nobody learns the address is taken."""
    moment = now()
    return UserRead(
        id=new_id(),
        aud=get_settings().jwt_aud,
        role="",
        email=email,
        phone="",
        app_metadata=dict(EMAIL_APP_METADATA),
        user_metadata=dict(data or {}),
        identities=[],
        factors=[],
        created_at=moment,
        updated_at=moment,
        is_anonymous=False,
        confirmation_sent_at=moment,
    )


def _own_words(email: str | None, *metadata: dict[str, Any] | None) -> list[str]:
    """What a guesser tries first for this person: the e-mail address and the names in the metadata."""
    names = [
        str(value) for data in metadata for key, value in (data or {}).items() if "name" in key and value
    ]
    return [email or "", *names]


async def sign_up(
    *,
    session: AsyncSession,
    origin: RequestOrigin,
    email: str | None,
    phone: str | None,
    password: str | None,
    data: dict[str, Any] | None,
    redirect_to: str | None = None,
    pkce: Pkce | None = None,
) -> AuthSessionRead | UserRead:
    """A Session with auto-confirm on; otherwise the User, with a confirmation e-mail sent."""
    settings = get_settings()
    if flags.signups_closed():
        raise unprocessable("signup_disabled", "Signups not allowed for this instance")
    if not email and phone:
        raise _phone_disabled()
    if not email:
        raise unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled")
    email = normalize_email(email)
    if not password:
        raise unprocessable("validation_failed", "Signup requires a valid password")
    data = clean_name_metadata(data)
    check_user_metadata(data)
    await check_new_password(password, user_inputs=_own_words(email, data), ip=origin.ip)
    password_hash = await hash_password(password)  # before the lookup: same timing either way

    user = await find_user_by_email(session, email)
    if user is not None and (user.email_confirmed_at is not None or settings.mailer_autoconfirm):
        if settings.mailer_autoconfirm:
            raise unprocessable("user_already_exists", "User already registered")
        return _fake_user(email, data)
    if user is None:
        user = await create_email_user(session, email=email, password_hash=password_hash, data=data)
    # An unconfirmed account is not updated (nobody proved the address yet); it gets a new e-mail.
    if settings.mailer_autoconfirm:
        await mark_email_verified(session, user)
        return await start_session(session=session, user=user, method="password", origin=origin)
    if pkce:
        await create_flow_state(session, user_id=user.id, link_type="signup", pkce=pkce)
    await send_otp_email(
        session=session, user=user, kind="signup", origin=origin, redirect_to=redirect_to, pkce=bool(pkce)
    )
    return await read_user(session, user.id)


async def get_user(*, session: AsyncSession, actor: Actor) -> UserRead:
    return await read_user(session, actor.user.id)


_UNSET: Any = object()


async def _check_reauthentication(session: AsyncSession, user: User, nonce: str) -> None:
    token = await session.scalar(
        select(OneTimeToken).where(
            OneTimeToken.user_id == user.id, OneTimeToken.token_type == "reauthentication_token"
        )
    )
    expected = stored_token_hash(email_token_hash(user.email or "", nonce))
    if (
        token is None
        or token.token_hash != expected
        or older_than(token.created_at, get_settings().mailer_otp_exp)
    ):
        raise unprocessable("reauthentication_not_valid", "Requires reauthentication")
    await session.delete(token)


async def update_user(
    *,
    session: AsyncSession,
    actor: Actor,
    origin: RequestOrigin,
    email: str | None = None,
    phone: str | None = None,
    password: str | None = None,
    nonce: str | None = None,
    data: dict[str, Any] | None = None,
    app_metadata: Any = _UNSET,
    redirect_to: str | None = None,
    pkce: Pkce | None = None,
) -> UserRead:
    """The signed-in user's own changes. `app_metadata` is for administrators only (403 `not_admin`)."""
    user = await load_user_row(session, actor.user.id)
    assert user is not None
    if app_metadata is not _UNSET and app_metadata is not None:
        raise forbidden("not_admin", "Updating app_metadata requires admin privileges")
    if email:
        email = normalize_email(email)
    if phone:
        raise _phone_disabled()
    if password is not None:
        await check_new_password(
            password, user_inputs=_own_words(user.email, user.raw_user_meta_data, data), ip=origin.ip
        )
    changes_email = bool(email) and email != user.email
    if (
        any(f.status == "verified" for f in user.factors)
        and actor.aal != "aal2"
        and (password or changes_email)
    ):
        raise unauthorized(
            "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled."
        )
    if email and changes_email and await find_user_by_email(session, email) is not None:
        raise unprocessable("email_exists", "A user with this email address has already been registered")

    if password is not None:
        if nonce:
            await _check_reauthentication(session, user, nonce)
        if user.encrypted_password and await verify_password(user.encrypted_password, password):
            raise unprocessable("same_password", "New password should be different from the old password.")
        user.encrypted_password = await hash_password(password)
        # A new password signs out every other device.
        await delete_other_sessions(session, user_id=user.id, keep=actor.session_id)
        methods = [c.get("method") for c in actor.claims.get("amr") or [] if isinstance(c, dict)]
        await audit(
            session,
            origin,
            AuditAction.password_change,
            user_id=user.id,
            email=user.email,
            details={"reauthenticated": bool(nonce), "session_methods": methods},
        )

    if data is not None:
        data = clean_name_metadata(data) or {}
        metadata = dict(user.raw_user_meta_data or {})
        for key, value in data.items():
            if value is None:
                metadata.pop(key, None)
            else:
                metadata[key] = value
        check_user_metadata(metadata)
        user.raw_user_meta_data = metadata

    if changes_email:
        check_send_frequency(user, "email_change")
        user.email_change = email
        if pkce:
            await create_flow_state(session, user_id=user.id, link_type="email_change", pkce=pkce)
        await send_email_change_confirmations(
            session=session, user=user, origin=origin, redirect_to=redirect_to, pkce=bool(pkce)
        )
        await audit(session, origin, AuditAction.email_change_request, user_id=user.id, email=user.email)
    user.updated_at = now()
    return await read_user(session, user.id)
