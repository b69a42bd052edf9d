"""The browser's side of a signed-in session: cookie names, CSRF tokens, signed flash messages and safe
same-site paths. Pure helpers, shared by the form posts (`api.browser_auth`), the page route, the UI root
and the screens.

Cookies (all SameSite=Lax, Secure over https):
- `mv_access`, `mv_refresh`: the session's access and refresh tokens. HttpOnly: no script ever sees a token.
- `mv_expires_at`: when the access token expires (unix seconds), readable by static/js/auth.js, which
  refreshes in time (SPEC §9). Present exactly while the browser holds a session.
- `mv_csrf`: a random token, issued by the page route, echoed by every form (double submit).
- `mv_flash`: a short-lived signed note for the next page (an error code and the typed values, or a toast);
  static/js/auth.js deletes it once the page has read it.
- `mv_mfa`: the first-factor session of a user who still owes a TOTP code (path /auth, 5 minutes).
- `mv_auth_event`: "signed-out" for one page load, so auth.js tells the other tabs.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlencode, urlsplit

from app.auth.keys import get_key_ring
from app.settings import get_settings

ACCESS_COOKIE = "mv_access"
REFRESH_COOKIE = "mv_refresh"
EXPIRES_COOKIE = "mv_expires_at"
CSRF_COOKIE = "mv_csrf"
FLASH_COOKIE = "mv_flash"
MFA_COOKIE = "mv_mfa"
EVENT_COOKIE = "mv_auth_event"

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
SESSION_COOKIE_MAX_AGE = 30 * 24 * 3600  # the refresh token's cookie; the session itself has no timebox
CSRF_COOKIE_MAX_AGE = 400 * 24 * 3600
FLASH_MAX_AGE = 120
MFA_COOKIE_MAX_AGE = 300


# ---- CSRF (double submit) ------------------------------------------------------------------------
def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)


def csrf_matches(cookie: str | None, submitted: str | None) -> bool:
    """The submitted token equals the cookie's (constant time); both must be present."""
    if not cookie or not submitted:
        return False
    return hmac.compare_digest(cookie.encode(), submitted.encode())


def origin_allowed(origin: str | None, host: str) -> bool:
    """A request's `Origin` is this site (its Host, or SITE_URL behind a proxy); a missing one passes."""
    if origin is None or origin == "":
        return True
    allowed = {host, urlsplit(get_settings().site_url).netloc}
    return origin != "null" and urlsplit(origin).netloc in allowed


# ---- flash messages ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Flash:
    """A note for the next page. `kind` names the screen it is for ("login", "register", "forgot",
    "reset", "mfa") or "toast"; `code` says what happened; `values` are typed values to keep (never a
    password); `detail` carries e.g. `retry_after`, `reasons` or `variant`."""

    kind: str
    code: str
    values: dict[str, str] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)


def _flash_key() -> bytes:
    return hmac.new(get_key_ring().secret, b"medivisit-flash", hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_flash(flash: Flash) -> str:
    payload = {"k": flash.kind, "c": flash.code, "v": flash.values, "d": flash.detail, "t": int(time.time())}
    body = _b64(json.dumps(payload, separators=(",", ":")).encode())
    signature = _b64(hmac.new(_flash_key(), body.encode(), hashlib.sha256).digest())
    return f"{body}.{signature}"


def decode_flash(value: str | None) -> Flash | None:
    """The flash in a cookie value, or None if it is missing, forged, malformed or older than 2 minutes."""
    if not value or "." not in value or len(value) > 3000:
        return None
    body, _, signature = value.partition(".")
    expected = _b64(hmac.new(_flash_key(), body.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(expected, signature):
        return None
    try:
        data = json.loads(_unb64(body))
        if time.time() - int(data["t"]) > FLASH_MAX_AGE:
            return None
        values = {str(k): str(v) for k, v in dict(data.get("v") or {}).items()}
        return Flash(
            kind=str(data["k"]), code=str(data["c"]), values=values, detail=dict(data.get("d") or {})
        )
    except (ValueError, KeyError, TypeError):
        return None


# ---- where a browser may be sent ----------------------------------------------------------------
_MAX_REDIRECT_LENGTH = 2048
# Paths served by the HTTP layer rather than screens, the redirect screen itself and the sign-in screens
# (a signed-in visitor there is sent to /auth-redirect: a redirect loop).
_NOT_A_DESTINATION = re.compile(
    r"^/(auth-redirect|auth|api|functions|docs|static|_reactpy|healthz|readyz|service-worker\.js"
    r"|login|sign-in|register|sign-up|signup)(/|$|[?#])"
)


def safe_redirect_path(target: str | None) -> str | None:
    """`target` if it is a path on this site a browser can safely be sent to, else None.

    Refuses anything a browser could read as another origin: protocol-relative `//host`, backslashes
    (browsers treat `/\\host` as `//host`), schemes (`https:`, `javascript:`), control characters and
    whitespace (browsers drop tabs and newlines, so `/\\t/host` becomes `//host`), also once
    percent-decoded; and paths that are HTTP endpoints, the redirect screen or a sign-in screen.
    """
    if not target or len(target) > _MAX_REDIRECT_LENGTH:
        return None
    for candidate in (target, unquote(target)):
        if not candidate.startswith("/") or candidate.startswith("//"):
            return None
        if "\\" in candidate or any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in candidate):
            return None
        parts = urlsplit(candidate)
        if parts.scheme or parts.netloc:
            return None
    if _NOT_A_DESTINATION.match(target.lower()):
        return None
    return target


def with_redirect(path: str, redirect: str | None, **params: str) -> str:
    """`path` with `params` and, when it is safe, the `redirect` to carry on: `/login?redirect=%2Fdashboard`."""
    query = {k: v for k, v in params.items() if v}
    safe = safe_redirect_path(redirect)
    if safe:
        query["redirect"] = safe
    return f"{path}?{urlencode(query)}" if query else path


def unverified_expiry(access_token: str | None) -> int | None:
    """The `exp` claim of a JWT, read without verifying it: only to decide whether to refresh early."""
    if access_token is None:
        return None
    try:
        payload = access_token.split(".")[1]
        exp = json.loads(_unb64(payload)).get("exp")
        return int(exp) if isinstance(exp, int | float) else None
    except (AttributeError, IndexError, ValueError, TypeError):
        return None
