"""External OpenID Connect sign-in (authorization code + PKCE + nonce), linked to local identities.

`begin_sign_in` builds the provider's authorization URL and a signed, short-lived state blob (kept by the
browser in an HttpOnly cookie); `finish_sign_in` checks it, exchanges the code, verifies the ID token
(signature from the provider's JWKS, issuer, audience, expiry, nonce) and signs the person in: an
existing OIDC identity first, else the local account with the same *verified* e-mail, else a new account.
Profile claims fill empty profile fields only; nothing from the provider can grant a role.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
from authlib.jose import JsonWebKey, JsonWebToken
from authlib.jose.errors import JoseError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.auth.common import RequestOrigin, clean_name_metadata, now
from app.auth.keys import get_key_ring
from app.auth.sessions import find_user_by_email, load_user_row, start_session
from app.auth.users import create_email_user, mark_email_verified
from app.settings import get_settings
from models.identity import AuthSessionRead, Identity, User

PROVIDER = "oidc"
STATE_TTL_SECONDS = 600
HTTP_TIMEOUT = 10
_JWT = JsonWebToken(["RS256", "ES256", "PS256", "EdDSA"])


class OidcError(Exception):
    """Sign-in with the external provider failed; `reason` is safe to log, never shown verbatim."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class OidcConfig:
    issuer: str
    client_id: str
    client_secret: str
    name: str


def oidc_config() -> OidcConfig | None:
    """The configured provider, or None when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are not all set."""
    s = get_settings()
    if not (s.oidc_issuer and s.oidc_client_id and s.oidc_client_secret):
        return None
    return OidcConfig(s.oidc_issuer.rstrip("/"), s.oidc_client_id, s.oidc_client_secret, s.oidc_name)


async def _get_json(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        response = await client.get(url)
    if response.status_code != 200:
        raise OidcError(f"{url} answered {response.status_code}")
    return response.json()


async def _metadata(config: OidcConfig) -> dict[str, Any]:
    metadata = await _get_json(f"{config.issuer}/.well-known/openid-configuration")
    if metadata.get("issuer", "").rstrip("/") != config.issuer:
        raise OidcError("discovery document names another issuer")
    return metadata


# ---- the signed state blob ----------------------------------------------------------------------
def _sign(payload: dict[str, Any]) -> str:
    body = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode().rstrip("=")
    mac = hmac.new(get_key_ring().secret, b"oidc-state." + body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def _unsign(blob: str) -> dict[str, Any]:
    body, _, mac = blob.rpartition(".")
    expected = hmac.new(get_key_ring().secret, b"oidc-state." + body.encode(), hashlib.sha256).hexdigest()
    if not body or not hmac.compare_digest(mac, expected):
        raise OidcError("state cookie signature mismatch")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    if payload.get("exp", 0) < time.time():
        raise OidcError("sign-in took too long (state expired)")
    return payload


@dataclass(frozen=True)
class SignInStart:
    authorization_url: str
    state_blob: str  # for the HttpOnly cookie


async def begin_sign_in(*, config: OidcConfig, redirect_uri: str, next_path: str) -> SignInStart:
    metadata = await _metadata(config)
    state, nonce = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    verifier = secrets.token_urlsafe(48)  # RFC 7636: 43 to 128 characters
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    query = urlencode(
        {
            "response_type": "code",
            "client_id": config.client_id,
            "redirect_uri": redirect_uri,
            "scope": "openid email profile",
            "state": state,
            "nonce": nonce,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    blob = _sign(
        {
            "state": state,
            "nonce": nonce,
            "verifier": verifier,
            "next": next_path,
            "exp": time.time() + STATE_TTL_SECONDS,
        }
    )
    return SignInStart(f"{metadata['authorization_endpoint']}?{query}", blob)


async def _exchange(
    config: OidcConfig, metadata: dict[str, Any], *, code: str, verifier: str, redirect_uri: str
) -> str:
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        response = await client.post(
            metadata["token_endpoint"],
            data={
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": redirect_uri,
                "code_verifier": verifier,
            },
            auth=(config.client_id, config.client_secret),
        )
    body = response.json() if response.headers.get("content-type", "").startswith("application/json") else {}
    if response.status_code != 200 or "id_token" not in body:
        # The provider's error code and description say what was wrong; they carry no secrets.
        raise OidcError(
            f"token endpoint answered {response.status_code}: {body.get('error')} {body.get('error_description')}"
        )
    return body["id_token"]


async def _verified_claims(
    config: OidcConfig, metadata: dict[str, Any], id_token: str, nonce: str
) -> dict[str, Any]:
    keys = JsonWebKey.import_key_set(await _get_json(metadata["jwks_uri"]))
    try:
        claims = _JWT.decode(
            id_token,
            keys,
            claims_options={
                "iss": {"essential": True, "value": metadata["issuer"]},
                "aud": {"essential": True, "value": config.client_id},
                "exp": {"essential": True},
                "sub": {"essential": True},
                "nonce": {"essential": True, "value": nonce},
            },
        )
        claims.validate(leeway=60)
    except JoseError as exc:
        raise OidcError(f"ID token rejected: {exc.error}") from exc
    return dict(claims)


async def finish_sign_in(
    *,
    session: AsyncSession,
    origin: RequestOrigin,
    config: OidcConfig,
    state_blob: str | None,
    state: str | None,
    code: str | None,
    redirect_uri: str,
) -> tuple[AuthSessionRead, str]:
    """Complete the callback; returns the new session and the path to continue to."""
    if not state_blob:
        raise OidcError("no sign-in in progress (state cookie missing)")
    saved = _unsign(state_blob)
    if not state or not hmac.compare_digest(state, saved["state"]):
        raise OidcError("state mismatch")
    if not code:
        raise OidcError("no authorization code")
    metadata = await _metadata(config)
    id_token = await _exchange(
        config, metadata, code=code, verifier=saved["verifier"], redirect_uri=redirect_uri
    )
    claims = await _verified_claims(config, metadata, id_token, saved["nonce"])
    signed_in = await sign_in_with_claims(
        session=session, origin=origin, issuer=metadata["issuer"], claims=claims
    )
    return signed_in, saved["next"]


def _profile_from(claims: dict[str, Any]) -> dict[str, str]:
    given, family = claims.get("given_name"), claims.get("family_name")
    if not (given or family) and isinstance(claims.get("name"), str):
        given, _, family = claims["name"].partition(" ")
    profile = {"first_name": given, "last_name": family, "profile_image": claims.get("picture")}
    return {k: v.strip() for k, v in profile.items() if isinstance(v, str) and v.strip()}


async def sign_in_with_claims(
    *, session: AsyncSession, origin: RequestOrigin, issuer: str, claims: dict[str, Any]
) -> AuthSessionRead:
    """Find or create the local user for verified ID-token claims and start a session (amr `oauth`)."""
    subject = f"{issuer}#{claims['sub']}"
    claimed = claims.get("email")
    email = claimed.strip().lower() if isinstance(claimed, str) else ""
    verified = claims.get("email_verified") is True
    identity = await session.scalar(
        select(Identity).where(Identity.provider == PROVIDER, Identity.provider_id == subject)
    )
    user: User | None = await load_user_row(session, identity.user_id) if identity else None
    if user is None or identity is None:  # (no identity: no user either)
        if not email or not verified:
            raise OidcError("the provider did not vouch for the e-mail address")
        user = await find_user_by_email(session, email)
        if user is None:
            if flags.signups_closed():
                raise OidcError("new accounts are closed (sign-ups disabled or waitlist)")
            user = await create_email_user(
                session,
                email=email,
                password_hash=None,
                data=clean_name_metadata(_profile_from(claims), shorten=True),
            )
        await mark_email_verified(session, user)
        identity = Identity(provider_id=subject, user_id=user.id, provider=PROVIDER, email=email)
        session.add(identity)
        providers = list(dict.fromkeys([*(user.raw_app_meta_data or {}).get("providers", []), PROVIDER]))
        user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), "providers": providers}
    identity.identity_data = {"sub": claims["sub"], "iss": issuer, "email": email, "email_verified": verified}
    identity.last_sign_in_at = now()
    metadata = dict(user.raw_user_meta_data or {})
    for key, value in (clean_name_metadata(_profile_from(claims), shorten=True) or {}).items():
        if not metadata.get(key):  # the provider fills gaps; it never overwrites what the user set
            metadata[key] = value
    user.raw_user_meta_data = metadata
    await session.flush()
    return await start_session(session=session, user=user, method="oauth", origin=origin)
