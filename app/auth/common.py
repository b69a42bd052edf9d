"""Small shared pieces of the identity service: request origin, clocks, e-mail and redirect validation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
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


# A person's name, wherever it is set (identity API metadata, register form, profile, CLI, staff and
# enrollment screens): NFKC, no control or invisible format characters (U+0000–U+001F, U+200B, U+202E
# bidi overrides, U+FEFF …; ZWNJ and ZWJ stay, Persian, Indic scripts and emoji need them), no
# private-use or unassigned code points, runs of whitespace as one space, at most MAX_PERSON_NAME characters.
MAX_PERSON_NAME = 100
NAME_TOO_LONG = f"Names can be at most {MAX_PERSON_NAME} characters."
NAME_KEYS = frozenset(
    {
        "name",
        "full_name",
        "first_name",
        "last_name",
        "middle_name",
        "given_name",
        "family_name",
        "display_name",
        "nickname",
    }
)
_KEPT_FORMAT = {"\u200c", "\u200d"}  # ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean_person_name(raw: object) -> str:
    """A name as it is stored and shown (see above), not yet bounded: '' when nothing visible is left."""
    text = unicodedata.normalize("NFKC", raw if isinstance(raw, str) else "")
    kept = "".join(
        " " if char in "\t\n\r\v\f\x85\u2028\u2029" else char
        for char in text
        if char in _KEPT_FORMAT or char.isspace() or unicodedata.category(char) not in _DROPPED
    )
    name = " ".join(kept.split())
    return "" if all(char in _KEPT_FORMAT or char.isspace() for char in name) else name


def person_name_error(name: str) -> str | None:
    """Why a cleaned name cannot be stored, or None."""
    return NAME_TOO_LONG if len(name) > MAX_PERSON_NAME else None


def clean_name_metadata(data: dict[str, Any] | None, *, shorten: bool = False) -> dict[str, Any] | None:
    """User metadata with every name field (NAME_KEYS) cleaned; 400 validation_failed for one over
    MAX_PERSON_NAME characters, or, with `shorten` (names from an outside identity provider), cut to it."""
    if not data:
        return data
    cleaned = dict(data)
    for key in NAME_KEYS & cleaned.keys():
        if not isinstance(cleaned[key], str):
            continue
        name = clean_person_name(cleaned[key])
        if person_name_error(name):
            if not shorten:
                raise validation_failed(f"{key}: {NAME_TOO_LONG}")
            name = name[:MAX_PERSON_NAME].rstrip()
        cleaned[key] = name
    return cleaned


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
