"""Pure rules of the identity service: redirect targets, password rules, token formats."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from app.auth.common import safe_redirect
from app.auth.errors import AuthApiError
from app.auth.keys import get_key_ring
from app.auth.passwords import weakness
from app.auth.pkce import pkce_params
from app.auth.tokens import derive_child_token, email_token_hash, stored_token_hash
from app.settings import get_settings
from tests.factories import present


@pytest.fixture
def identity_settings(monkeypatch, tmp_path):  # noqa: ANN201
    monkeypatch.setenv("SITE_URL", "https://medivisit.example")
    monkeypatch.setenv(
        "URI_ALLOW_LIST", "http://localhost:3000/**,https://*.medivisit.example/auth,medivisit://callback"
    )
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.mark.parametrize(
    "target",
    [
        "https://medivisit.example/dashboard?x=1",
        "http://localhost:3000/welcome",
        "https://staff.medivisit.example/auth",
        "medivisit://callback",
        "medivisit://callback/deep",
    ],
)
def test_allowed_redirects(identity_settings, target) -> None:
    assert safe_redirect(target) == target


@pytest.mark.parametrize(
    "target",
    [
        None,
        "",
        "https://evil.example/",
        "https://medivisit.example.evil.example/",
        "https://medivisit.example@evil.example/",
        "http://medivisit.example/",  # another scheme is another origin
        "https://evil.example#.medivisit.example/auth",
        "https://evil.example?.medivisit.example/auth",
        "https://a.b.medivisit.example/auth",  # `*` is one label
        "https://evil.example/x.medivisit.example/auth",
        "javascript:alert(1)",
        "http://localhost:3001/welcome",
    ],
)
def test_refused_redirects_fall_back_to_the_site(identity_settings, target) -> None:
    assert safe_redirect(target) == "https://medivisit.example"


def test_password_rules(identity_settings, monkeypatch) -> None:
    assert weakness("secret-1") is None
    assert present(weakness("1234567"))[0] == ["length"]  # NIST SP 800-63B: at least 8
    monkeypatch.setenv("PASSWORD_REQUIRED_CHARACTERS", "abcdefghijklmnopqrstuvwxyz:0123456789")
    get_settings.cache_clear()
    assert present(weakness("abcdefgh"))[0] == ["characters"]
    assert present(weakness("abc1"))[0] == ["length"]
    assert present(weakness("ABC"))[0] == ["length", "characters"]
    assert weakness("abcdefg1") is None


def test_token_hash_and_derived_refresh_tokens(identity_settings) -> None:
    keyed = email_token_hash("a@b.c", "123456")
    assert keyed == hmac.new(get_key_ring().secret, b"a@b.c123456", hashlib.sha224).hexdigest()
    assert keyed != hashlib.sha224(b"a@b.c123456").hexdigest()  # GoTrue's unkeyed hash
    assert stored_token_hash(keyed) != keyed and stored_token_hash("pkce_" + keyed).startswith("pkce_")
    child = derive_child_token("parent-token", "child-id")
    assert child == derive_child_token("parent-token", "child-id") and len(child) == 22 and child.isalnum()
    assert child != derive_child_token("parent-token", "other-child")
    assert child != derive_child_token("other-parent", "child-id")


def test_pkce_params() -> None:
    assert pkce_params(None, None) is None
    assert present(pkce_params("a" * 43, "S256")).method == "s256"
    for challenge, method in [
        ("a" * 43, None),
        (None, "s256"),
        ("a" * 42, "s256"),
        ("a" * 43, "md5"),
        ("a" * 42 + "!", "plain"),
    ]:
        with pytest.raises(AuthApiError) as error:
            pkce_params(challenge, method)
        assert error.value.status == 400 and error.value.code == "validation_failed"
