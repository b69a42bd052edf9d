"""TOTP multi-factor authentication (GoTrue `mfa.go`): enroll, challenge, verify (→ aal2), unenroll.

Secrets are 20 random bytes in base32; codes are SHA-1, 6 digits, 30 s, with one step of clock skew.
"""

from __future__ import annotations

import io
from datetime import timedelta
from urllib.parse import quote, urlencode, urlsplit

import pyotp
import segno
from pydantic import BaseModel
from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.audit import audit
from app.auth.common import RequestOrigin, now, older_than
from app.auth.errors import forbidden, not_found, unprocessable, validation_failed
from app.auth.sealed import seal, unseal
from app.auth.sessions import (
    Actor,
    add_amr_claim,
    live_refresh_token,
    session_response,
)
from app.auth.tokens import REFRESH_TOKEN_LENGTH, random_alphanumeric, sha256_hex
from app.settings import get_settings
from models.audit import AuditAction
from models.identity import (
    AuthSession,
    AuthSessionRead,
    FactorRead,
    MfaAmrClaim,
    MfaChallenge,
    MfaFactor,
    RefreshToken,
    as_utc,
)

UNVERIFIED_FACTOR_LIFETIME = 300


class TotpEnrollment(BaseModel):
    factor: FactorRead
    qr_code: str  # raw SVG
    secret: str
    uri: str

    def wire(self) -> dict:
        return {
            "id": self.factor.id,
            "type": "totp",
            "friendly_name": self.factor.friendly_name,
            "totp": {"qr_code": self.qr_code, "secret": self.secret, "uri": self.uri},
            "phone": "",
        }


class ChallengeRead(BaseModel):
    id: str
    factor_type: str
    expires_at: int

    def wire(self) -> dict:
        return {"id": self.id, "type": self.factor_type, "expires_at": self.expires_at}


def _require_permanent_user(actor: Actor) -> None:
    if actor.user.is_anonymous:
        raise forbidden("no_authorization", "Anonymous users cannot use MFA")


def _issuer(requested: str | None) -> str:
    if requested:
        return requested
    return urlsplit(get_settings().site_url).hostname or get_settings().brand_name


def totp_uri(*, issuer: str, account: str, secret: str) -> str:
    label = quote(f"{issuer}:{account}", safe="@:")
    query = urlencode({"algorithm": "SHA1", "digits": 6, "issuer": issuer, "period": 30, "secret": secret})
    return f"otpauth://totp/{label}?{query}"


async def _factor_of(session: AsyncSession, actor: Actor, factor_id: str) -> MfaFactor:
    factor = await session.get(MfaFactor, factor_id)
    if factor is None or factor.user_id != actor.user.id:
        raise not_found("mfa_factor_not_found", "Factor not found")
    return factor


async def enroll(
    *,
    session: AsyncSession,
    actor: Actor,
    factor_type: str | None,
    friendly_name: str | None = None,
    issuer: str | None = None,
    origin: RequestOrigin | None = None,
) -> TotpEnrollment:
    _require_permanent_user(actor)
    if factor_type == "phone":
        raise unprocessable("mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone")
    if factor_type == "webauthn":
        raise unprocessable("mfa_web_authn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn")
    if factor_type != "totp":
        raise validation_failed("factor_type needs to be totp, phone, or webauthn")
    settings = get_settings()
    friendly_name = friendly_name or ""
    # Unverified factors nobody challenged within 5 minutes are abandoned enrolments.
    factors = list(await session.scalars(select(MfaFactor).where(MfaFactor.user_id == actor.user.id)))
    for factor in list(factors):
        if factor.status == "unverified" and older_than(factor.created_at, UNVERIFIED_FACTOR_LIFETIME):
            challenged = await session.scalar(
                select(MfaChallenge.id).where(MfaChallenge.factor_id == factor.id)
            )
            if challenged is None:
                await session.delete(factor)
                factors.remove(factor)
    if any(f.status == "verified" for f in factors) and actor.aal != "aal2":
        raise forbidden("insufficient_aal", "AAL2 required to enroll a new factor")
    if friendly_name and any(f.friendly_name == friendly_name for f in factors):
        raise unprocessable(
            "mfa_factor_name_conflict",
            f'A factor with the friendly name "{friendly_name}" for this user already exists',
        )
    if len(factors) >= settings.mfa_max_enrolled_factors:
        raise unprocessable(
            "too_many_enrolled_mfa_factors",
            "Maximum number of verified factors reached, unenroll to continue",
        )
    secret = pyotp.random_base32(32)  # 32 base32 characters = 20 bytes
    uri = totp_uri(issuer=_issuer(issuer), account=actor.user.email or actor.user.phone, secret=secret)
    factor = MfaFactor(
        user_id=actor.user.id,
        friendly_name=friendly_name,
        factor_type="totp",
        status="unverified",
        secret=seal(secret),
    )
    session.add(factor)
    await session.flush()
    await audit(
        session,
        origin,
        AuditAction.mfa_enroll,
        user_id=actor.user.id,
        email=actor.user.email,
        details={"factor_id": factor.id, "factor_type": "totp", "friendly_name": friendly_name},
    )
    # Clients show it as `data:image/svg+xml`, which needs the SVG namespace (svg_inline() drops it).
    buffer = io.BytesIO()
    segno.make(uri, error="m").save(buffer, kind="svg", scale=4, xmldecl=False, svgns=True)
    qr_code = buffer.getvalue().decode().strip()
    return TotpEnrollment(factor=FactorRead.of(factor), qr_code=qr_code, secret=secret, uri=uri)


async def challenge(
    *, session: AsyncSession, actor: Actor, origin: RequestOrigin, factor_id: str
) -> ChallengeRead:
    _require_permanent_user(actor)
    factor = await _factor_of(session, actor, factor_id)
    row = MfaChallenge(factor_id=factor.id, ip_address=origin.ip[:64], created_at=now())
    session.add(row)
    factor.last_challenged_at = now()
    await session.flush()
    expires_at = as_utc(row.created_at) + timedelta(seconds=get_settings().mfa_challenge_expiry)
    return ChallengeRead(id=row.id, factor_type=factor.factor_type, expires_at=int(expires_at.timestamp()))


async def verify(
    *,
    session: AsyncSession,
    actor: Actor,
    origin: RequestOrigin,
    factor_id: str,
    challenge_id: str | None,
    code: str | None,
) -> AuthSessionRead:
    _require_permanent_user(actor)
    factor = await _factor_of(session, actor, factor_id)
    if not code:
        raise validation_failed("Code must be provided")
    row = await session.get(MfaChallenge, challenge_id) if challenge_id else None
    if row is None or row.factor_id != factor.id:
        raise unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found")
    if row.verified_at is not None or row.ip_address != origin.ip[:64]:
        raise unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.")
    if older_than(row.created_at, get_settings().mfa_challenge_expiry):
        raise unprocessable(
            "mfa_challenge_expired",
            f"MFA challenge {row.id} has expired, verify against another challenge or create a new challenge.",
        )
    if not pyotp.TOTP(unseal(factor.secret)).verify(code.strip(), valid_window=1):
        raise unprocessable("mfa_verification_failed", "Invalid TOTP code entered")

    moment = now()
    row.verified_at = moment
    first_verification = factor.status != "verified"  # two-factor sign-in is turned on by this
    factor.status = "verified"
    factor.updated_at = moment
    if actor.session_id is None:
        raise forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
    auth_session = await session.get(AuthSession, actor.session_id)
    if auth_session is None:
        raise forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
    auth_session.aal = "aal2"
    auth_session.factor_id = factor.id
    await add_amr_claim(session, auth_session.id, "totp")
    # Rotate the refresh token: the aal1 token must not mint aal2 access tokens... nor survive.
    current = await live_refresh_token(session, auth_session.id)
    await session.execute(
        update(RefreshToken)
        .where(RefreshToken.session_id == auth_session.id, RefreshToken.revoked.is_(False))
        .values(revoked=True, updated_at=moment)
        .execution_options(synchronize_session=False)
    )
    if current is not None:
        token = random_alphanumeric(REFRESH_TOKEN_LENGTH)
        session.add(
            RefreshToken(
                token_hash=sha256_hex(token),
                user_id=actor.user.id,
                session_id=auth_session.id,
                parent=current.token_hash,
                created_at=moment,
                updated_at=moment,
            )
        )
    else:
        token = await _root_token(session, auth_session)
    # Other sessions below aal2 end; other unverified TOTP factors go.
    await session.execute(
        delete(AuthSession)
        .where(
            AuthSession.user_id == actor.user.id, AuthSession.id != auth_session.id, AuthSession.aal != "aal2"
        )
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        delete(MfaFactor)
        .where(
            MfaFactor.user_id == actor.user.id,
            MfaFactor.id != factor.id,
            MfaFactor.status == "unverified",
            MfaFactor.factor_type == "totp",
        )
        .execution_options(synchronize_session=False)
    )
    await session.flush()
    await audit(
        session,
        origin,
        AuditAction.mfa_verify,
        user_id=actor.user.id,
        email=actor.user.email,
        details={
            "factor_id": factor.id,
            "session_id": auth_session.id,
            "first_verification": first_verification,
        },
    )
    return await session_response(session, auth_session=auth_session, refresh_token=token, origin=origin)


async def _root_token(session: AsyncSession, auth_session: AuthSession) -> str:
    token = random_alphanumeric(REFRESH_TOKEN_LENGTH)
    session.add(
        RefreshToken(token_hash=sha256_hex(token), user_id=auth_session.user_id, session_id=auth_session.id)
    )
    await session.flush()
    return token


async def unenroll(
    *, session: AsyncSession, actor: Actor, factor_id: str, origin: RequestOrigin | None = None
) -> str:
    _require_permanent_user(actor)
    factor = await _factor_of(session, actor, factor_id)
    if factor.status == "verified" and actor.aal != "aal2":
        raise unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor")
    # Sessions that reached aal2 with this factor fall back to aal1.
    downgraded = list(await session.scalars(select(AuthSession.id).where(AuthSession.factor_id == factor.id)))
    if downgraded:
        await session.execute(
            update(AuthSession)
            .where(AuthSession.id.in_(downgraded))
            .values(aal="aal1", factor_id=None)
            .execution_options(synchronize_session=False)
        )
        await session.execute(
            delete(MfaAmrClaim)
            .where(MfaAmrClaim.session_id.in_(downgraded), MfaAmrClaim.authentication_method == "totp")
            .execution_options(synchronize_session=False)
        )
    await session.delete(factor)
    await session.flush()
    await audit(
        session,
        origin,
        AuditAction.mfa_unenroll,
        user_id=actor.user.id,
        email=actor.user.email,
        details={
            "factor_id": factor_id,
            "factor_type": factor.factor_type,
            "verified": factor.status == "verified",
        },
    )
    return factor_id
