"""E-mail flows with the official client, read from the real SMTP server: recovery, magic link / OTP,
resend, reauthentication and PKCE."""

from __future__ import annotations

import hashlib
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from supabase_auth.errors import AuthApiError

from tests.api.conftest import gotrue, mail_code, mail_link, mail_to, unique_email


def _amr(session) -> list[str]:  # noqa: ANN001
    import jwt as pyjwt

    return [
        e["method"] for e in pyjwt.decode(session.access_token, options={"verify_signature": False})["amr"]
    ]


def test_password_recovery_by_code(auth_server, smtp) -> None:
    email = unique_email("recover")
    gotrue(auth_server).sign_up({"email": email, "password": "secret-1234"})

    client = gotrue(auth_server)
    client.reset_password_for_email(email, {"redirect_to": "http://localhost:3000/reset"})
    [message] = mail_to(smtp, email)
    assert "password" in message["Subject"].lower()
    link = mail_link(message)
    assert "type=recovery" in link
    code = mail_code(message)
    # GoTrue's token_hash is hex(sha224(email + code)); ours is keyed with the server secret, so nobody can
    # compute a link from an address and a guessed code, or find the code from a link.
    [token] = parse_qs(urlsplit(link).query)["token"]
    assert len(token) == 56 and token != hashlib.sha224((email + code).encode()).hexdigest()

    with pytest.raises(AuthApiError) as wrong:
        client.verify_otp(
            {"email": email, "token": "000000" if code != "000000" else "111111", "type": "recovery"}
        )
    assert wrong.value.status == 403 and wrong.value.code == "otp_expired"

    result = client.verify_otp({"email": email, "token": code, "type": "recovery"})
    assert result.session is not None and _amr(result.session) == ["otp"]
    client.update_user({"password": "recovered-789"})
    assert gotrue(auth_server).sign_in_with_password({"email": email, "password": "recovered-789"}).session

    with pytest.raises(AuthApiError) as used:
        gotrue(auth_server).verify_otp({"email": email, "token": code, "type": "recovery"})
    assert used.value.code == "otp_expired"

    # Unknown addresses get the same answer and no e-mail; a second request within 60 s is refused.
    gotrue(auth_server).reset_password_for_email(unique_email("unknown"))
    with pytest.raises(AuthApiError) as too_soon:
        gotrue(auth_server).reset_password_for_email(email)
    assert too_soon.value.status == 429 and too_soon.value.code == "over_email_send_rate_limit"


def test_magic_link_for_an_existing_user(auth_server, smtp) -> None:
    email = unique_email("magic")
    gotrue(auth_server).sign_up({"email": email, "password": "secret-1234"})

    client = gotrue(auth_server)
    assert client.sign_in_with_otp({"email": email, "options": {"should_create_user": False}}).user is None
    [message] = mail_to(smtp, email)
    token_hash = parse_qs(urlsplit(mail_link(message)).query)["token"][0]
    result = client.verify_otp({"token_hash": token_hash, "type": "magiclink"})
    assert result.session is not None and result.user.email == email
    assert client.get_user().user.email == email
    assert _amr(result.session) == ["otp"]


def test_otp_code_sign_up_for_a_new_address(confirm_server, smtp) -> None:
    client = gotrue(confirm_server)
    with pytest.raises(AuthApiError) as disabled:
        client.sign_in_with_otp({"email": unique_email("nobody"), "options": {"should_create_user": False}})
    assert disabled.value.status == 422 and disabled.value.code == "otp_disabled"

    email = unique_email("otp-new")
    client.sign_in_with_otp({"email": email, "options": {"data": {"source": "otp"}}})
    [message] = mail_to(smtp, email)
    assert "type=signup" in mail_link(message)  # the confirmation doubles as the magic link
    result = client.verify_otp({"email": email, "token": mail_code(message), "type": "email"})
    assert result.session is not None
    assert result.user.email_confirmed_at is not None and result.user.user_metadata["source"] == "otp"


def test_resend_signup_confirmation(confirm_server, smtp) -> None:
    email = unique_email("resend")
    client = gotrue(confirm_server)
    client.sign_up({"email": email, "password": "secret-1234"})
    [first] = mail_to(smtp, email)
    with pytest.raises(AuthApiError) as too_soon:
        client.resend({"type": "signup", "email": email})
    assert too_soon.value.code == "over_email_send_rate_limit"
    # The old code keeps working until a new one is sent.
    assert client.verify_otp({"email": email, "token": mail_code(first), "type": "signup"}).session
    # Confirmed users and unknown addresses: 200, nothing sent.
    client.resend({"type": "signup", "email": email})
    client.resend({"type": "signup", "email": unique_email("ghost")})
    assert len(mail_to(smtp, email)) == 1


def test_reauthentication_nonce_for_a_password_change(auth_server, smtp) -> None:
    email = unique_email("reauth")
    client = gotrue(auth_server)
    client.sign_up({"email": email, "password": "secret-1234"})
    client.reauthenticate()
    [message] = mail_to(smtp, email)
    nonce = mail_code(message)
    with pytest.raises(AuthApiError) as bad:
        client.update_user({"password": "changed-456", "nonce": "999999" if nonce != "999999" else "111111"})
    assert bad.value.code == "reauthentication_not_valid"
    client.update_user({"password": "changed-456", "nonce": nonce})
    assert gotrue(auth_server).sign_in_with_password({"email": email, "password": "changed-456"}).session


def test_pkce_sign_up_link_gives_a_code_for_the_session(confirm_server, smtp) -> None:
    email = unique_email("pkce")
    client = gotrue(confirm_server, flow_type="pkce")
    client.sign_up(
        {
            "email": email,
            "password": "secret-1234",
            "options": {"email_redirect_to": "http://localhost:3000/cb"},
        }
    )
    link = mail_link(mail_to(smtp, email)[0])
    assert parse_qs(urlsplit(link).query)["token"][0].startswith("pkce_")
    location = httpx.get(link, follow_redirects=False).headers["location"]
    assert location.startswith("http://localhost:3000/cb?code=")
    code = parse_qs(urlsplit(location).query)["code"][0]

    result = client.exchange_code_for_session({"auth_code": code})  # the verifier kept by the client
    assert result.session is not None and result.user.email == email
    assert result.user.email_confirmed_at is not None

    with pytest.raises(AuthApiError) as once:
        gotrue(confirm_server).exchange_code_for_session({"auth_code": code, "code_verifier": "x" * 43})
    assert once.value.status == 404 and once.value.code == "flow_state_not_found"


def test_pkce_recovery_with_a_wrong_verifier(auth_server, smtp) -> None:
    email = unique_email("pkce-recover")
    gotrue(auth_server).sign_up({"email": email, "password": "secret-1234"})
    client = gotrue(auth_server, flow_type="pkce")
    client.reset_password_for_email(email)
    link = mail_link(mail_to(smtp, email)[0])
    location = httpx.get(link, follow_redirects=False).headers["location"]
    code = parse_qs(urlsplit(location).query)["code"][0]
    with pytest.raises(AuthApiError) as bad:
        gotrue(auth_server).exchange_code_for_session({"auth_code": code, "code_verifier": "y" * 64})
    assert bad.value.status == 400 and bad.value.code == "bad_code_verifier"
    session = client.exchange_code_for_session({"auth_code": code}).session
    assert session is not None and _amr(session) == ["recovery"]
