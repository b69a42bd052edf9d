"""Small shared pieces of the identity service: request origin, clocks, e-mail and redirect validation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from app.auth.errors import validation_failed
from app.settings import get_settings
from models.identity import as_utc

# GoTrue's `validateEmail` pattern.
_EMAIL = re.compile(
    r"^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"
)


@dataclass(frozen=True)
class RequestOrigin:
    """Who is asking and where the API is published (for links and the `iss` claim)."""

    ip: str = ""
    user_agent: str = ""
    api_url: str = "http://localhost:8000/auth/v1"

    @property
    def issuer(self) -> str:
        return get_settings().jwt_issuer or self.api_url


def now() -> datetime:
    return datetime.now(UTC)


def older_than(moment: datetime | None, seconds: float) -> bool:
    """True if `moment` lies more than `seconds` in the past (or is unset)."""
    moment = as_utc(moment)
    return moment is None or now() - moment > timedelta(seconds=seconds)


def normalize_email(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise validation_failed("An email address is required")
    email = value.strip().lower()
    if len(email) > 255:
        raise validation_failed("An email address is too long")
    if not _EMAIL.match(email):
        raise validation_failed("Unable to validate email address: invalid format")
    return email


def _allowed(url: str, pattern: str) -> bool:
    """GoTrue's glob (separators `.` and `/`): `*` stays within one label or segment, `**` spans anything."""
    if "*" not in pattern:
        return url == pattern or url.startswith(pattern.rstrip("/") + "/")
    parts = re.split(r"(\*\*|\*)", pattern)
    regex = "".join(".*" if p == "**" else r"[^/.?#@:\\]*" if p == "*" else re.escape(p) for p in parts)
    return re.fullmatch(regex, url) is not None


def check_redirect_to(redirect_to: str | None) -> str | None:
    """`redirect_to` as a request gave it, refused with 400 when it is not a URL at all. Endpoints check it
    before they look anybody up, so the answer is the same whether or not the account exists."""
    if redirect_to is None:
        return None
    try:
        parts = urlsplit(redirect_to)
        parts.port  # noqa: B018 - parsing the port raises on a malformed one
    except ValueError:
        raise validation_failed("redirect_to is not a valid URL") from None
    if len(redirect_to) > 2048 or any(ord(c) < 32 for c in redirect_to):
        raise validation_failed("redirect_to is not a valid URL")
    return redirect_to


def safe_redirect(redirect_to: str | None) -> str:
    """GoTrue's `GetReferrer`: `redirect_to` if it is on the site's origin or matches URI_ALLOW_LIST, else
    SITE_URL. Links carry sessions to this address, so it must never be one an attacker chose."""
    settings = get_settings()
    site = settings.site_url
    if not redirect_to:
        return site
    try:
        target = urlsplit(redirect_to)
        base = urlsplit(site)
        same_origin = (target.scheme, target.hostname, target.port) == (base.scheme, base.hostname, base.port)
    except ValueError:  # e.g. a port that is not a number: not a place to send anyone
        return site
    if same_origin:
        return redirect_to
    for pattern in (p.strip() for p in settings.uri_allow_list.split(",")):
        if pattern and _allowed(redirect_to, pattern):
            return redirect_to
    return site
