"""The pure helpers of browser sessions (app/auth/web.py): signed flash notes, CSRF comparison, redirects
carried between the sign-in screens, and the origin check."""

from __future__ import annotations

import time

import pytest

from app.auth.web import (
    Flash,
    csrf_matches,
    decode_flash,
    encode_flash,
    origin_allowed,
    unverified_expiry,
    with_redirect,
)


@pytest.fixture
def keys(identity) -> None:
    """A signing key (the flash is signed with a key derived from it)."""


def test_a_flash_round_trips(keys) -> None:
    note = Flash("login", "rate_limited", {"email": "pat@example.com"}, {"retry_after": 42})
    assert decode_flash(encode_flash(note)) == note


def test_a_forged_or_old_flash_is_ignored(keys, monkeypatch) -> None:
    value = encode_flash(Flash("toast", "logged_out"))
    body, _, signature = value.partition(".")
    other = encode_flash(Flash("toast", "password_updated")).partition(".")[0]
    assert decode_flash(f"{other}.{signature}") is None
    assert decode_flash(body) is None and decode_flash("") is None and decode_flash(None) is None
    later = time.time() + 121
    monkeypatch.setattr(time, "time", lambda: later)
    assert decode_flash(value) is None


@pytest.mark.parametrize(
    ("cookie", "submitted", "ok"),
    [("abc", "abc", True), ("abc", "abd", False), ("abc", "", False), ("", "", False), (None, "abc", False)],
)
def test_csrf_tokens_must_match(cookie, submitted, ok) -> None:
    assert csrf_matches(cookie, submitted) is ok


def test_redirects_are_carried_only_when_safe() -> None:
    assert with_redirect("/login", "/dashboard") == "/login?redirect=%2Fdashboard"
    assert with_redirect("/login", "/dashboard", step="mfa") == "/login?step=mfa&redirect=%2Fdashboard"
    assert with_redirect("/login", "https://evil.example") == "/login"
    assert with_redirect("/auth-redirect", None) == "/auth-redirect"


@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        (None, True),
        ("http://app.example:8000", True),
        ("https://evil.example", False),
        ("null", False),
        ("http://app.example:8001", False),
    ],
)
def test_the_origin_must_be_this_site(origin, ok) -> None:
    assert origin_allowed(origin, "app.example:8000") is ok


def test_the_expiry_of_a_token_is_read_without_trusting_it() -> None:
    assert unverified_expiry("x.eyJleHAiOjE3MDAwMDAwMDB9.y") == 1_700_000_000
    assert unverified_expiry("garbage") is None and unverified_expiry(None) is None
