"""Access tokens (JWT, GoTrue's claim set) and the opaque secrets of the identity service.

Access-token claims (`tokens.GenerateAccessToken`): iss, sub, aud (a string), exp, iat, email, phone,
app_metadata, user_metadata, role, aal, amr, session_id, is_anonymous. No jti, no nbf.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import string
import time
import uuid
from dataclasses import dataclass
from typing import Any

from app.auth.errors import AuthApiError, bad_request, forbidden
from app.auth.keys import JsonWebToken, KeyRing, get_key_ring
from app.settings import get_settings

_ALPHANUMERIC = string.ascii_letters + string.digits
_jwt = JsonWebToken(["ES256", "RS256"])


@dataclass(frozen=True)
class AccessToken:
    token: str
    expires_in: int
    expires_at: int


def issue_access_token(
    *,
    issuer: str,
    user_id: str,
    email: str,
    phone: str,
    app_metadata: dict[str, Any],
    user_metadata: dict[str, Any],
    role: str,
    aal: str,
    amr: list[dict[str, Any]],
    session_id: str,
    is_anonymous: bool,
    ring: KeyRing | None = None,
) -> AccessToken:
    settings = get_settings()
    ring = ring or get_key_ring()
    now = int(time.time())
    claims = {
        "iss": issuer,
        "sub": user_id,
        "aud": settings.jwt_aud,
        "exp": now + settings.jwt_exp,
        "iat": now,
        "email": email,
        "phone": phone,
        "app_metadata": app_metadata,
        "user_metadata": user_metadata,
        "role": role,
        "aal": aal,
        "amr": amr,
        "session_id": session_id,
        "is_anonymous": is_anonymous,
    }
    header = {"alg": ring.signer.alg, "kid": ring.signer.kid, "typ": "JWT"}
    token = _jwt.encode(header, claims, ring.signer.key).decode()
    return AccessToken(token=token, expires_in=settings.jwt_exp, expires_at=now + settings.jwt_exp)


def _b64json(segment: str) -> dict[str, Any]:
    padded = segment + "=" * (-len(segment) % 4)
    value = json.loads(base64.urlsafe_b64decode(padded.encode()))
    if not isinstance(value, dict):
        raise ValueError("not an object")
    return value


def _bad_jwt(detail: str) -> AuthApiError:
    return forbidden("bad_jwt", f"invalid JWT: unable to parse or verify signature, {detail}")


def decode_access_token(token: str, ring: KeyRing | None = None) -> dict[str, Any]:
    """Verify signature and expiry; raise 403/400 `bad_jwt` the way GoTrue's `requireAuthentication` does."""
    ring = ring or get_key_ring()
    parts = token.split(".")
    if len(parts) != 3:
        raise _bad_jwt("token is malformed: token contains an invalid number of segments")
    try:
        header = _b64json(parts[0])
    except ValueError:
        raise _bad_jwt("token is malformed: could not base64 decode header") from None
    kid = header.get("kid")
    key = ring.keys.get(kid) if kid else (ring.signer if len(ring.keys) == 1 else None)
    if key is None or header.get("alg") != key.alg:
        raise _bad_jwt("token is unverifiable: error while executing keyfunc: unrecognized JWT kid or alg")
    try:
        claims = _jwt.decode(token, key.key)
    except Exception:  # noqa: BLE001 - every decoding failure is the same answer
        raise _bad_jwt("token signature is invalid") from None
    exp = claims.get("exp")
    if not isinstance(exp, int | float) or exp <= time.time():
        raise _bad_jwt("token has invalid claims: token is expired")
    sub = claims.get("sub")
    if not sub:
        raise forbidden("bad_jwt", "invalid claim: missing sub claim")
    try:
        uuid.UUID(str(sub))
    except ValueError:
        raise bad_request("bad_jwt", "invalid claim: sub claim must be a UUID") from None
    return dict(claims)


# ---- opaque secrets ----------------------------------------------------------------------------
REFRESH_TOKEN_LENGTH = 22


def random_alphanumeric(length: int) -> str:
    return "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length))


def sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def derive_child_token(parent_token: str, child_id: str, ring: KeyRing | None = None) -> str:
    """A rotated refresh token, derived from its parent so that the parent's holder can be handed the
    same child again (GoTrue's "failed to save the refresh result" case) while only hashes are stored."""
    ring = ring or get_key_ring()
    digest = hmac.new(ring.secret, f"{parent_token}\x00{child_id}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest, "big")
    chars = []
    for _ in range(REFRESH_TOKEN_LENGTH):
        number, index = divmod(number, len(_ALPHANUMERIC))
        chars.append(_ALPHANUMERIC[index])
    return "".join(chars)


def otp_code(length: int) -> str:
    return "".join(secrets.choice(string.digits) for _ in range(length))


def email_token_hash(email_or_phone: str, otp: str, ring: KeyRing | None = None) -> str:
    """The link token of an e-mailed code: GoTrue's `crypto.GenerateTokenHash` (hex sha224 of email + code),
    keyed with the server's secret, so that nobody without it can compute a link from an address and a
    code, or find the code from a link by trying all 10^6."""
    ring = ring or get_key_ring()
    return hmac.new(ring.secret, (email_or_phone + otp).encode(), hashlib.sha224).hexdigest()


def stored_token_hash(link_token: str) -> str:
    """What the database keeps of a link token (its `pkce_` prefix kept): a hash, so that the stored value
    is never itself a working link, and a leaked table cannot be turned back into codes."""
    prefix = "pkce_" if link_token.startswith("pkce_") else ""
    return prefix + sha256_hex(link_token.removeprefix("pkce_"))
