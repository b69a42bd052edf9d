"""E-mail one-time codes and links: magic link / OTP sign-in, recovery, resend, reauthentication and
their verification (GoTrue `otp.go`, `magic_link.go`, `recover.go`, `resend.go`, `reauthenticate.go`,
`verify.go`).

A code is 6 digits; its link carries `token_hash = hex(hmac-sha224(secret, email + code))` (prefixed `pkce_`
under PKCE), and the database keeps only a hash of that (`tokens.stored_token_hash`). Both are valid for
MAILER_OTP_EXP seconds (86,400) and only once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.auth.common import RequestOrigin, normalize_email, older_than
from app.auth.errors import AuthApiError, forbidden, unprocessable, validation_failed
from app.auth.mailer import send_email_changed_notice, send_otp_email
from app.auth.pkce import Pkce, create_flow_state, issue_auth_code
from app.auth.sessions import Actor, find_user_by_email, load_user_row, start_session
from app.auth.tokens import email_token_hash, stored_token_hash
from app.auth.users import create_email_user, mark_email_verified, send_email_change_confirmations
from app.settings import get_settings
from models.identity import AuthSessionRead, OneTimeToken, User

EMAIL_CHANGE_TOKENS = ("email_change_token_new", "email_change_token_current")
CONFIRM_OTHER = "Confirmation link accepted. Please proceed to confirm link sent to the other email"
VERIFY_TYPES = ("signup", "invite", "magiclink", "recovery", "email_change", "email", "sms", "phone_change")
# Which stored tokens a verification type accepts, in order ("email" tries confirmation first).
_TOKEN_TYPES = {
    "signup": ("confirmation_token",),
    "invite": ("confirmation_token",),
    "magiclink": ("recovery_token",),
    "recovery": ("recovery_token",),
    "email": ("confirmation_token", "recovery_token"),
    "email_change": ("email_change_token_new", "email_change_token_current"),
}
RESEND_TYPES = ("signup", "email_change", "sms", "phone_change")


def _phone_disabled() -> AuthApiError:
    return unprocessable("phone_provider_disabled", "Phone logins are disabled")


def _otp_expired() -> AuthApiError:
    return forbidden("otp_expired", "Token has expired or is invalid")


async def request_otp(
    *,
    session: AsyncSession,
    origin: RequestOrigin,
    email: str | None,
    phone: str | None,
    create_user: bool = True,
    data: dict[str, Any] | None = None,
    redirect_to: str | None = None,
    pkce: Pkce | None = None,
) -> None:
    """`POST /otp`: a magic link + code to a known address; a sign-up e-mail to a new one."""
    settings = get_settings()
    if phone and not email:
        raise _phone_disabled()
    email = normalize_email(email)
    user = await find_user_by_email(session, email)
    if user is None or user.email_confirmed_at is None:
        if not create_user:
            raise unprocessable("otp_disabled", "Signups not allowed for otp")
        if user is None:
            if flags.signups_closed():
                raise unprocessable("signup_disabled", "Signups not allowed for this instance")
            user = await create_email_user(session, email=email, password_hash=None, data=data)
        if not settings.mailer_autoconfirm:
            # The confirmation e-mail doubles as the magic link.
            if pkce:
                await create_flow_state(session, user_id=user.id, link_type="signup", pkce=pkce)
            await send_otp_email(
                session=session,
                user=user,
                kind="signup",
                origin=origin,
                redirect_to=redirect_to,
                pkce=bool(pkce),
            )
            return
    if pkce:
        await create_flow_state(session, user_id=user.id, link_type="magiclink", pkce=pkce)
    await send_otp_email(
        session=session, user=user, kind="magiclink", origin=origin, redirect_to=redirect_to, pkce=bool(pkce)
    )


async def recover(
    *,
    session: AsyncSession,
    origin: RequestOrigin,
    email: str | None,
    redirect_to: str | None = None,
    pkce: Pkce | None = None,
) -> None:
    """`POST /recover`: a recovery e-mail; the same empty answer for unknown addresses."""
    email = normalize_email(email)
    user = await find_user_by_email(session, email)
    if user is None:
        return
    if pkce:
        await create_flow_state(session, user_id=user.id, link_type="recovery", pkce=pkce)
    await send_otp_email(
        session=session, user=user, kind="recovery", origin=origin, redirect_to=redirect_to, pkce=bool(pkce)
    )


async def resend(
    *,
    session: AsyncSession,
    origin: RequestOrigin,
    type: str | None,
    email: str | None,
    phone: str | None,
    redirect_to: str | None = None,
) -> None:
    if type not in RESEND_TYPES:
        raise validation_failed("Missing one of these types: signup, email_change, sms, phone_change")
    if type in {"sms", "phone_change"} or (phone and not email):
        raise _phone_disabled()
    email = normalize_email(email)
    user = await find_user_by_email(session, email)
    if user is None:
        return
    if type == "signup":
        if user.email_confirmed_at is not None:
            return
        await send_otp_email(
            session=session, user=user, kind="signup", origin=origin, redirect_to=redirect_to
        )
        return
    if not user.email_change:
        return
    await send_email_change_confirmations(
        session=session, user=user, origin=origin, redirect_to=redirect_to, pkce=False
    )


async def reauthenticate(*, session: AsyncSession, actor: Actor, origin: RequestOrigin) -> None:
    """`GET /reauthenticate`: a code for `PUT /user {password, nonce}`."""
    user = await load_user_row(session, actor.user.id)
    assert user is not None
    if not user.email:
        raise unprocessable("validation_failed", "Reauthentication requires the user to have an email")
    if user.email_confirmed_at is None:
        raise unprocessable("email_not_confirmed", "Please verify your email first.")
    await send_otp_email(session=session, user=user, kind="reauthentication", origin=origin)


@dataclass(frozen=True)
class Verified:
    user: User
    link_type: str
    pkce: bool
    # A secure e-mail change confirmed on one address, waiting for the other: no session yet.
    awaiting_other: bool = False


async def consume_token(
    *,
    session: AsyncSession,
    type: str | None,
    token: str | None = None,
    token_hash: str | None = None,
    email: str | None = None,
    phone: str | None = None,
) -> Verified:
    """Check and use up an e-mail code or link token, and apply what it confirms."""
    if not type:
        raise validation_failed("Verify requires a verification type")
    if type not in VERIFY_TYPES:
        raise validation_failed(f"Verify type {type!r} is not supported")
    if type in {"sms", "phone_change"} or (phone and not email and not token_hash):
        raise _phone_disabled()
    token_types = _TOKEN_TYPES[type]
    if token_hash:
        query = select(OneTimeToken).where(OneTimeToken.token_hash == stored_token_hash(token_hash))
    elif token and email:
        email = normalize_email(email)
        digest = email_token_hash(email, token.strip())
        candidates = [stored_token_hash(digest), stored_token_hash("pkce_" + digest)]
        query = select(OneTimeToken).where(
            OneTimeToken.token_hash.in_(candidates), OneTimeToken.relates_to == email
        )
    else:
        raise validation_failed("Verify requires either a token or a token hash")
    rows = list(await session.scalars(query.where(OneTimeToken.token_type.in_(token_types))))
    rows.sort(key=lambda r: token_types.index(r.token_type))
    row = rows[0] if rows else None
    if row is None or older_than(row.created_at, get_settings().mailer_otp_exp):
        raise _otp_expired()
    user = await load_user_row(session, row.user_id)
    if user is None:
        raise _otp_expired()
    pkce = row.token_hash.startswith("pkce_")
    await session.delete(row)
    await session.flush()

    if row.token_type in EMAIL_CHANGE_TOKENS:
        new_email = user.email_change
        if not new_email or (row.token_type == "email_change_token_new" and new_email != row.relates_to):
            raise _otp_expired()
        other = await session.scalar(
            select(OneTimeToken).where(
                OneTimeToken.user_id == user.id,
                OneTimeToken.token_type.in_(EMAIL_CHANGE_TOKENS),
                OneTimeToken.token_type != row.token_type,
            )
        )
        if other is not None:
            if older_than(other.created_at, get_settings().mailer_otp_exp):
                raise _otp_expired()
            return Verified(user=user, link_type="email_change", pkce=pkce, awaiting_other=True)
        if await find_user_by_email(session, new_email) is not None:
            raise unprocessable("email_exists", "A user with this email address has already been registered")
        old_email = user.email
        user.email = new_email
        user.email_change = None
        user.email_change_sent_at = None
        user.raw_user_meta_data = {**(user.raw_user_meta_data or {}), "email": new_email}
        await mark_email_verified(session, user)
        if old_email:
            await send_email_changed_notice(session=session, old_email=old_email, new_email=new_email)
        link_type = "email_change"
    else:
        if user.email_confirmed_at is None:
            await mark_email_verified(session, user)
        if type in {"signup", "invite", "magiclink", "recovery"}:
            link_type = type
        else:
            link_type = "signup" if row.token_type == "confirmation_token" else "magiclink"
    await session.flush()
    return Verified(user=user, link_type=link_type, pkce=pkce)


class LinkResult(BaseModel):
    """What a verified e-mail link yields: a session (implicit flow) or an auth code (PKCE)."""

    session: AuthSessionRead | None = None
    auth_code: str | None = None
    message: str | None = None
    link_type: str


async def verify_link(
    *, session: AsyncSession, origin: RequestOrigin, type: str | None, token_hash: str | None
) -> LinkResult:
    """`GET /verify`: the link of an e-mail."""
    if not token_hash:
        raise validation_failed("Verify requires a token or a token hash")
    verified = await consume_token(session=session, type=type, token_hash=token_hash)
    if verified.awaiting_other:
        return LinkResult(message=CONFIRM_OTHER, link_type=verified.link_type)
    if verified.pkce:
        code = await issue_auth_code(session, user_id=verified.user.id, link_type=verified.link_type)
        return LinkResult(auth_code=code, link_type=verified.link_type)
    result = await start_session(session=session, user=verified.user, method="otp", origin=origin)
    return LinkResult(session=result, link_type=verified.link_type)


async def verify(
    *,
    session: AsyncSession,
    origin: RequestOrigin,
    type: str | None,
    token: str | None = None,
    token_hash: str | None = None,
    email: str | None = None,
    phone: str | None = None,
) -> AuthSessionRead | str:
    """`POST /verify`: a session (amr `otp`) for a valid code or token hash; GoTrue's message alone when a
    secure e-mail change still waits for the other address."""
    verified = await consume_token(
        session=session, type=type, token=token, token_hash=token_hash, email=email, phone=phone
    )
    if verified.awaiting_other:
        return CONFIRM_OTHER
    return await start_session(session=session, user=verified.user, method="otp", origin=origin)
