"""Sign-up, password sign-in, GET/PUT /user with the official `supabase-auth` client against a live server."""

from __future__ import annotations

import httpx
import pytest
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

from tests.api.conftest import gotrue, mail_link, mail_to, unique_email


def test_sign_up_with_auto_confirm_answers_a_session(auth_server) -> None:
    client = gotrue(auth_server)
    email = unique_email("signup")
    result = client.sign_up(
        {"email": email.upper(), "password": "secret-1234", "options": {"data": {"name": "Ann"}}}
    )
    assert result.session is not None and result.session.token_type == "bearer"
    assert result.session.expires_in == 3600 and result.session.refresh_token
    user = result.user
    assert user.email == email  # lower-cased
    assert user.email_confirmed_at is not None and user.last_sign_in_at is not None
    assert user.user_metadata == {
        "name": "Ann",
        "sub": user.id,
        "email": email,
        "email_verified": True,
        "phone_verified": False,
    }
    assert user.app_metadata == {"provider": "email", "providers": ["email"]}
    [identity] = user.identities
    assert identity.provider == "email" and identity.id == user.id and identity.user_id == user.id
    assert identity.identity_data["email"] == email and identity.identity_data["email_verified"] is True

    with pytest.raises(AuthApiError) as exists:
        gotrue(auth_server).sign_up({"email": email, "password": "other-secret"})
    assert exists.value.status == 422 and exists.value.code == "user_already_exists"


def test_weak_and_overlong_passwords(auth_server) -> None:
    client = gotrue(auth_server)
    with pytest.raises(AuthWeakPasswordError) as weak:
        client.sign_up({"email": unique_email("weak"), "password": "12345"})
    assert weak.value.status == 422 and weak.value.code == "weak_password"
    assert weak.value.reasons == ["length"]
    with pytest.raises(AuthApiError) as long:
        client.sign_up({"email": unique_email("long"), "password": "x" * 73})
    assert long.value.status == 400 and long.value.code == "validation_failed"


def test_sign_in_get_user_and_update_metadata(auth_server) -> None:
    email = unique_email("signin")
    gotrue(auth_server).sign_up(
        {"email": email, "password": "secret-1234", "options": {"data": {"a": 1, "b": 2}}}
    )

    client = gotrue(auth_server)
    with pytest.raises(AuthApiError) as wrong:
        client.sign_in_with_password({"email": email, "password": "not-it-at-all"})
    assert wrong.value.status == 400 and wrong.value.code == "invalid_credentials"
    assert str(wrong.value) == "Invalid login credentials"
    with pytest.raises(AuthApiError) as unknown:
        client.sign_in_with_password({"email": unique_email("nobody"), "password": "secret-1234"})
    assert unknown.value.code == "invalid_credentials"

    session = client.sign_in_with_password({"email": email, "password": "secret-1234"}).session
    assert session is not None
    assert client.get_user().user.email == email

    updated = client.update_user({"data": {"a": None, "b": 3, "c": {"nested": True}}}).user
    assert "a" not in updated.user_metadata
    assert updated.user_metadata["b"] == 3 and updated.user_metadata["c"] == {"nested": True}
    assert client.get_user().user.user_metadata == updated.user_metadata

    # app_metadata is not the user's to write.
    with pytest.raises(AuthApiError) as refused:
        client.update_user({"app_metadata": {"role": "owner"}})
    assert refused.value.status == 403 and refused.value.code == "not_admin"
    assert client.get_user().user.app_metadata == {"provider": "email", "providers": ["email"]}


def test_password_change_signs_out_the_other_sessions(auth_server) -> None:
    email = unique_email("pwchange")
    first = gotrue(auth_server)
    first.sign_up({"email": email, "password": "secret-1234"})
    second = gotrue(auth_server)
    other = second.sign_in_with_password({"email": email, "password": "secret-1234"}).session

    with pytest.raises(AuthApiError) as same:
        first.update_user({"password": "secret-1234"})
    assert same.value.code == "same_password"
    with pytest.raises(AuthWeakPasswordError):
        first.update_user({"password": "123"})

    first.update_user({"password": "new-secret-456"})
    assert first.get_user().user.email == email  # this session lives on
    with pytest.raises(AuthApiError) as gone:
        second.get_user(other.access_token)
    assert gone.value.status == 403 and gone.value.code == "session_not_found"
    with pytest.raises(AuthApiError):
        second.refresh_session(other.refresh_token)

    with pytest.raises(AuthApiError):
        gotrue(auth_server).sign_in_with_password({"email": email, "password": "secret-1234"})
    assert gotrue(auth_server).sign_in_with_password({"email": email, "password": "new-secret-456"}).session


def test_sign_up_without_auto_confirm_mails_a_confirmation_link(confirm_server, smtp) -> None:
    email = unique_email("confirm")
    client = gotrue(confirm_server)
    result = client.sign_up(
        {
            "email": email,
            "password": "secret-1234",
            "options": {"email_redirect_to": "http://localhost:3000/welcome"},
        }
    )
    assert result.session is None and result.user.confirmation_sent_at is not None
    assert result.user.email_confirmed_at is None and len(result.user.identities) == 1

    with pytest.raises(AuthApiError) as unconfirmed:
        client.sign_in_with_password({"email": email, "password": "secret-1234"})
    assert unconfirmed.value.status == 400 and unconfirmed.value.code == "email_not_confirmed"

    # A second request within 60 s is refused.
    with pytest.raises(AuthApiError) as too_soon:
        gotrue(confirm_server).sign_up({"email": email, "password": "secret-1234"})
    assert too_soon.value.status == 429 and too_soon.value.code == "over_email_send_rate_limit"

    [message] = mail_to(smtp, email)
    link = mail_link(message)
    assert "type=signup" in link and "redirect_to=http%3A%2F%2Flocalhost%3A3000%2Fwelcome" in link
    response = httpx.get(link, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith("http://localhost:3000/welcome#access_token=")
    fragment = dict(part.split("=", 1) for part in location.split("#", 1)[1].split("&"))
    assert fragment["token_type"] == "bearer" and fragment["type"] == "signup" and fragment["refresh_token"]
    user = client.get_user(fragment["access_token"]).user
    assert user.email_confirmed_at is not None and user.user_metadata["email_verified"] is True

    # The link works once.
    again = httpx.get(link, follow_redirects=False)
    assert again.status_code == 303 and "error_code=otp_expired" in again.headers["location"]

    assert client.sign_in_with_password({"email": email, "password": "secret-1234"}).session

    # Signing up again with a confirmed address answers a look-alike user, not an error.
    fake = gotrue(confirm_server).sign_up({"email": email, "password": "another-secret"})
    assert fake.session is None and fake.user.id != user.id and fake.user.identities == []


def test_unsafe_redirect_targets_fall_back_to_the_site(confirm_server, smtp) -> None:
    email = unique_email("redirect")
    gotrue(confirm_server).sign_up(
        {
            "email": email,
            "password": "secret-1234",
            "options": {"email_redirect_to": "https://evil.example/steal"},
        }
    )
    link = mail_link(mail_to(smtp, email)[0])
    location = httpx.get(link, follow_redirects=False).headers["location"]
    assert location.startswith("http://app.medivisit.test#access_token=")
