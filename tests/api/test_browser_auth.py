"""The browser's sign-in forms under /auth/* (app/auth/browser.py), against the ASGI app: CSRF and origin
checks, HttpOnly session cookies, safe redirects, every failure going back to its form with a flash note,
logout revoking the session, refresh rotation, the second factor, e-mail links and the waitlist."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import httpx
import pyotp
import pytest

from app import ratelimit
from app.auth.web import decode_flash
from app.settings import get_settings
from components.account import flash_message
from tests.api.conftest import mail_link, mail_to, unique_email

ORIGIN = {"origin": "http://testserver"}
PASSWORD = "secret-1234"


async def csrf_token(client: httpx.AsyncClient) -> str:
    """The token the page route issues on the first visit (the forms echo it)."""
    if "mv_csrf" not in client.cookies:
        await client.get("/")
    return client.cookies["mv_csrf"]


async def post_form(
    client: httpx.AsyncClient, path: str, *, csrf: str | None = "", **fields: str
) -> httpx.Response:
    token = await csrf_token(client) if csrf == "" else csrf
    data = dict(fields)
    if token is not None:
        data["csrf_token"] = token
    return await client.post(path, data=data, headers=ORIGIN)


def flash(client: httpx.AsyncClient):  # noqa: ANN201 - app.auth.web.Flash
    found = decode_flash(client.cookies.get("mv_flash"))
    assert found is not None, "no flash cookie"
    return found


def set_cookies(response: httpx.Response) -> dict[str, str]:
    """name -> the whole Set-Cookie header, for the attributes."""
    return {c.split("=", 1)[0]: c for c in response.headers.get_list("set-cookie")}


async def sign_up(client: httpx.AsyncClient, email: str, name: str = "Pat Lee") -> httpx.Response:
    response = await post_form(client, "/auth/register", name=name, email=email, password=PASSWORD)
    assert response.status_code == 303, response.text
    return response


async def user_status(client: httpx.AsyncClient, access_token: str) -> int:
    response = await client.get(
        "/auth/v1/user", headers={"Authorization": f"Bearer {access_token}", "apikey": "anon"}
    )
    return response.status_code


@pytest.fixture
def env(monkeypatch):  # noqa: ANN201
    """Change settings for one test (after identity_env)."""

    def apply(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()

    return apply


# ---- CSRF and origin -------------------------------------------------------------------------------
@pytest.mark.parametrize("csrf", [None, "not-the-cookie"], ids=["missing", "mismatched"])
async def test_a_post_without_the_csrf_token_is_refused_and_nothing_happens(auth_client, csrf) -> None:
    email = unique_email("csrf")
    response = await post_form(
        auth_client, "/auth/register", csrf=csrf, name="Pat", email=email, password=PASSWORD
    )
    assert response.status_code == 403
    assert "mv_access" not in auth_client.cookies and "mv_flash" not in auth_client.cookies
    # No account was made: signing up now works.
    await sign_up(auth_client, email)
    assert "mv_access" in auth_client.cookies


async def test_a_post_from_another_site_is_refused_even_with_the_token(auth_client) -> None:
    email = unique_email("origin")
    await sign_up(auth_client, email)
    auth_client.cookies.delete("mv_access")
    token = await csrf_token(auth_client)
    for headers in ({"origin": "https://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"}):
        response = await auth_client.post(
            "/auth/login", data={"csrf_token": token, "email": email, "password": PASSWORD}, headers=headers
        )
        assert response.status_code == 403
    assert "mv_access" not in auth_client.cookies


async def test_the_json_refresh_needs_the_csrf_header(auth_client) -> None:
    await sign_up(auth_client, unique_email("refresh-csrf"))
    response = await auth_client.post("/auth/refresh", json={}, headers=ORIGIN)
    assert response.status_code == 403


# ---- signing in -----------------------------------------------------------------------------------------
async def test_sign_up_signs_in_with_httponly_lax_cookies_and_goes_to_auth_redirect(auth_client) -> None:
    response = await post_form(
        auth_client,
        "/auth/register",
        name="Pat Lee",
        email=unique_email("signup"),
        password=PASSWORD,
        redirect="/dashboard/settings",
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/auth-redirect?redirect=%2Fdashboard%2Fsettings"
    cookies = set_cookies(response)
    for name in ("mv_access", "mv_refresh"):
        assert "HttpOnly" in cookies[name] and "samesite=lax" in cookies[name].lower()
        assert "Secure" not in cookies[name]  # plain http here; https requests get Secure
    assert "HttpOnly" not in cookies["mv_expires_at"]
    assert int(auth_client.cookies["mv_expires_at"]) > time.time() + 3000
    assert await user_status(auth_client, auth_client.cookies["mv_access"]) == 200


@pytest.mark.parametrize(
    ("redirect", "location"),
    [
        ("/dashboard/profile", "/auth-redirect?redirect=%2Fdashboard%2Fprofile"),
        ("//evil.example/x", "/auth-redirect"),
        ("https://evil.example", "/auth-redirect"),
        ("/\\evil.example", "/auth-redirect"),
        ("/auth-redirect", "/auth-redirect"),
    ],
)
async def test_login_keeps_a_safe_redirect_and_drops_an_unsafe_one(auth_client, redirect, location) -> None:
    email = unique_email("login")
    await sign_up(auth_client, email)
    auth_client.cookies.clear()
    response = await post_form(auth_client, "/auth/login", email=email, password=PASSWORD, redirect=redirect)
    assert response.status_code == 303 and response.headers["location"] == location
    assert "mv_access" in auth_client.cookies and "mv_refresh" in auth_client.cookies


async def test_https_requests_get_secure_cookies(auth_client) -> None:
    email = unique_email("secure")
    await sign_up(auth_client, email)
    token = auth_client.cookies["mv_csrf"]
    response = await auth_client.post(
        "https://testserver/auth/login",
        data={"csrf_token": token, "email": email, "password": PASSWORD},
        headers={"origin": "https://testserver"},
        cookies={"mv_csrf": token},
    )
    assert response.status_code == 303
    assert all("Secure" in c for n, c in set_cookies(response).items() if n.startswith("mv_"))


async def test_a_wrong_password_goes_back_with_the_message_and_the_email_only(auth_client) -> None:
    email = unique_email("wrong")
    await sign_up(auth_client, email)
    auth_client.cookies.clear()
    response = await post_form(
        auth_client, "/auth/login", email=email, password="not-it", redirect="/dashboard"
    )
    assert response.status_code == 303 and response.headers["location"] == "/login?redirect=%2Fdashboard"
    note = flash(auth_client)
    assert (note.kind, note.code, note.values) == ("login", "invalid_credentials", {"email": email})
    assert "not-it" not in str(note) and "mv_access" not in auth_client.cookies
    assert email not in response.headers["location"]  # typed values travel in the signed cookie, not the URL


async def test_sign_up_failures_go_back_with_their_codes(auth_client) -> None:
    email = unique_email("taken")
    await sign_up(auth_client, email)
    auth_client.cookies.clear()

    await post_form(auth_client, "/auth/register", name="Pat Lee", email=email, password=PASSWORD)
    note = flash(auth_client)
    assert (note.code, note.values) == ("user_already_exists", {"email": email, "name": "Pat Lee"})

    response = await post_form(
        auth_client, "/auth/register", name="Pat", email=unique_email("weak"), password="abc"
    )
    assert response.headers["location"] == "/register"
    note = flash(auth_client)
    assert note.code == "weak_password" and note.detail["reasons"] == ["length"]
    assert "8 characters" in note.detail["message"]

    await post_form(auth_client, "/auth/register", name="Pat", email="not-an-address", password=PASSWORD)
    assert flash(auth_client).code == "validation_failed"


async def test_too_many_attempts_say_how_long_to_wait(auth_client, env) -> None:
    env(RATE_LIMIT_TOKEN="2")
    ratelimit.reset()
    email = unique_email("limited")
    for _ in range(2):
        await post_form(auth_client, "/auth/login", email=email, password="nope")
        assert flash(auth_client).code == "invalid_credentials"
    await post_form(auth_client, "/auth/login", email=email, password="nope")
    note = flash(auth_client)
    assert note.code == "rate_limited" and note.values == {"email": email}
    assert 0 < note.detail["retry_after"] <= get_settings().rate_limit_window


async def test_an_unconfirmed_email_is_told_so_and_can_resend_the_link(auth_client, env, smtp) -> None:
    env(MAILER_AUTOCONFIRM="false")
    email = unique_email("unconfirmed")
    await sign_up(auth_client, email)
    assert flash(auth_client).code == "confirm_email" and "mv_access" not in auth_client.cookies
    mail_to(smtp, email)

    await post_form(auth_client, "/auth/login", email=email, password=PASSWORD)
    note = flash(auth_client)
    assert (note.code, note.values) == ("email_not_confirmed", {"email": email})

    env(SMTP_MAX_FREQUENCY="0")
    response = await post_form(auth_client, "/auth/resend-confirmation", email=email)
    assert response.headers["location"] == "/login" and flash(auth_client).code == "confirmation_sent"
    mail_to(smtp, email, count=2)


async def test_a_missing_field_is_caught_before_the_identity_service(auth_client) -> None:
    response = await post_form(auth_client, "/auth/login", email="pat@example.com", password="")
    assert response.headers["location"] == "/login" and flash(auth_client).code == "missing_fields"


# ---- signing out and refreshing -------------------------------------------------------------------------
async def test_logout_revokes_the_session_and_clears_the_cookies(auth_client) -> None:
    await sign_up(auth_client, unique_email("logout"))
    access, refresh_token = auth_client.cookies["mv_access"], auth_client.cookies["mv_refresh"]
    response = await post_form(auth_client, "/auth/logout")
    assert response.status_code == 303 and response.headers["location"] == "/"
    note = flash(auth_client)
    assert (note.kind, note.code) == ("toast", "logged_out")
    for name in ("mv_access", "mv_refresh", "mv_expires_at"):
        assert name not in auth_client.cookies
    assert auth_client.cookies["mv_auth_event"] == "signed-out"
    assert await user_status(auth_client, access) == 403
    token = await auth_client.post(
        "/auth/v1/token?grant_type=refresh_token",
        json={"refresh_token": refresh_token},
        headers={"apikey": "anon"},
    )
    assert token.status_code == 400


async def test_logout_without_the_csrf_token_keeps_the_session(auth_client) -> None:
    await sign_up(auth_client, unique_email("keep"))
    response = await post_form(auth_client, "/auth/logout", csrf=None)
    assert response.status_code == 403
    assert await user_status(auth_client, auth_client.cookies["mv_access"]) == 200


async def test_refresh_rotates_the_tokens(auth_client) -> None:
    await sign_up(auth_client, unique_email("rotate"))
    access, refresh_token = auth_client.cookies["mv_access"], auth_client.cookies["mv_refresh"]
    response = await auth_client.post(
        "/auth/refresh", json={}, headers={**ORIGIN, "x-csrf-token": auth_client.cookies["mv_csrf"]}
    )
    assert response.status_code == 200
    assert response.json()["expires_at"] == int(auth_client.cookies["mv_expires_at"])
    assert auth_client.cookies["mv_refresh"] != refresh_token and auth_client.cookies["mv_access"] != access
    assert await user_status(auth_client, auth_client.cookies["mv_access"]) == 200


async def test_refresh_after_the_session_ended_answers_401_and_clears_the_cookies(auth_client) -> None:
    await sign_up(auth_client, unique_email("ended"))
    access = auth_client.cookies["mv_access"]
    logout = await auth_client.post(
        "/auth/v1/logout", headers={"Authorization": f"Bearer {access}", "apikey": "x"}
    )
    assert logout.status_code == 204  # signed out everywhere, e.g. from another device
    response = await auth_client.post(
        "/auth/refresh", json={}, headers={**ORIGIN, "x-csrf-token": auth_client.cookies["mv_csrf"]}
    )
    assert response.status_code == 401
    assert "mv_refresh" not in auth_client.cookies and "mv_expires_at" not in auth_client.cookies


async def test_a_page_load_renews_an_expired_access_token(auth_client) -> None:
    await sign_up(auth_client, unique_email("renew"))
    refresh_token = auth_client.cookies["mv_refresh"]
    auth_client.cookies.delete("mv_access")  # the browser dropped it at its max-age
    response = await auth_client.get("/dashboard")
    assert response.status_code == 200 and response.headers["cache-control"] == "no-store"
    assert auth_client.cookies["mv_refresh"] != refresh_token
    assert await user_status(auth_client, auth_client.cookies["mv_access"]) == 200
    again = await auth_client.get("/about")  # a fresh token is left alone
    assert not any(c.startswith("mv_access") for c in again.headers.get_list("set-cookie"))


# ---- second factor ----------------------------------------------------------------------------------
def wrong_code(secret: str) -> str:
    """A code that is wrong in every time step the server could accept."""
    totp = pyotp.TOTP(secret)
    valid = {totp.at(time.time() + offset) for offset in (-60, -30, 0, 30, 60)}
    return next(f"{n:06d}" for n in range(1_000_000) if f"{n:06d}" not in valid)


async def enable_totp(client: httpx.AsyncClient, access: str) -> str:
    headers = {"Authorization": f"Bearer {access}", "apikey": "anon"}
    factor = (await client.post("/auth/v1/factors", json={"factor_type": "totp"}, headers=headers)).json()
    challenge = (await client.post(f"/auth/v1/factors/{factor['id']}/challenge", headers=headers)).json()
    code = pyotp.TOTP(factor["totp"]["secret"]).now()
    verified = await client.post(
        f"/auth/v1/factors/{factor['id']}/verify",
        json={"challenge_id": challenge["id"], "code": code},
        headers=headers,
    )
    assert verified.status_code == 200, verified.text
    return factor["totp"]["secret"]


async def test_a_user_with_totp_signs_in_with_the_code_after_the_password(auth_client) -> None:
    email = unique_email("totp")
    await sign_up(auth_client, email)
    secret = await enable_totp(auth_client, auth_client.cookies["mv_access"])
    auth_client.cookies.clear()

    response = await post_form(
        auth_client, "/auth/login", email=email, password=PASSWORD, redirect="/dashboard"
    )
    assert response.headers["location"] == "/login?step=mfa&redirect=%2Fdashboard"
    assert "mv_access" not in auth_client.cookies  # no session until the code
    assert "Path=/auth" in set_cookies(response)["mv_mfa"] and "HttpOnly" in set_cookies(response)["mv_mfa"]

    response = await post_form(auth_client, "/auth/mfa", code=wrong_code(secret), redirect="/dashboard")
    assert response.headers["location"] == "/login?step=mfa&redirect=%2Fdashboard"
    assert flash(auth_client).code == "mfa_verification_failed"

    response = await post_form(auth_client, "/auth/mfa", code=pyotp.TOTP(secret).now(), redirect="/dashboard")
    assert response.headers["location"] == "/auth-redirect?redirect=%2Fdashboard"
    assert "mv_mfa" not in auth_client.cookies
    assert await user_status(auth_client, auth_client.cookies["mv_access"]) == 200


async def test_the_code_step_without_a_pending_sign_in_starts_over(auth_client) -> None:
    response = await post_form(auth_client, "/auth/mfa", code="123456")
    assert response.headers["location"] == "/login" and flash(auth_client).code == "mfa_expired"


async def test_totp_enable_and_disable_from_settings(auth_client) -> None:
    await sign_up(auth_client, unique_email("settings"))
    access = auth_client.cookies["mv_access"]
    factor = (
        await auth_client.post(
            "/auth/v1/factors", json={"factor_type": "totp"}, headers={"Authorization": f"Bearer {access}"}
        )
    ).json()
    totp = pyotp.TOTP(factor["totp"]["secret"])
    refresh_before = auth_client.cookies["mv_refresh"]
    response = await post_form(auth_client, "/auth/mfa/enable", factor_id=factor["id"], code=totp.now())
    assert response.headers["location"] == "/dashboard/settings"
    assert (flash(auth_client).code, flash(auth_client).detail["variant"]) == ("mfa_enabled", "success")
    assert auth_client.cookies["mv_refresh"] != refresh_before  # the rotated token reached the cookie
    user = await auth_client.get(
        "/auth/v1/user", headers={"Authorization": f"Bearer {auth_client.cookies['mv_access']}"}
    )
    assert [f["status"] for f in user.json()["factors"]] == ["verified"]

    await post_form(auth_client, "/auth/mfa/disable", code="")
    assert flash(auth_client).code == "missing_code"
    await post_form(auth_client, "/auth/mfa/disable", code=wrong_code(factor["totp"]["secret"]))
    assert flash(auth_client).code == "mfa_verification_failed"
    await post_form(auth_client, "/auth/mfa/disable", code=totp.now())
    assert flash(auth_client).code == "mfa_disabled"
    user = await auth_client.get(
        "/auth/v1/user", headers={"Authorization": f"Bearer {auth_client.cookies['mv_access']}"}
    )
    assert user.status_code == 200 and not user.json().get("factors")


# ---- e-mail links, password reset, waitlist -------------------------------------------------------------
def fragment(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).fragment).items()}


async def test_recovery_link_session_becomes_cookies_and_sets_a_new_password(auth_client, smtp, env) -> None:
    env(SITE_URL="http://testserver")
    email = unique_email("recover")
    await sign_up(auth_client, email)
    auth_client.cookies.clear()

    response = await post_form(auth_client, "/auth/forgot-password", email=email)
    assert response.headers["location"] == "/forgot-password"
    assert (flash(auth_client).code, flash(auth_client).values) == ("recovery_sent", {"email": email})
    link = mail_to(smtp, email)[-1]
    verify = await auth_client.get(mail_link(link).replace("http://testserver", ""))
    assert verify.status_code == 303
    location = verify.headers["location"]
    assert location.startswith("http://testserver/reset-password#")
    tokens = fragment(location)
    assert tokens["type"] == "recovery"

    headers = {**ORIGIN, "x-csrf-token": auth_client.cookies["mv_csrf"]}
    converted = await auth_client.post(
        "/auth/session",
        json={"access_token": tokens["access_token"], "refresh_token": tokens["refresh_token"]},
        headers=headers,
    )
    assert converted.status_code == 200 and converted.json() == {"mfa": False}
    assert "mv_access" in auth_client.cookies

    await post_form(auth_client, "/auth/reset-password", password="new-secret-1", confirm_password="other")
    assert flash(auth_client).code == "password_mismatch"
    await post_form(auth_client, "/auth/reset-password", password="abc", confirm_password="abc")
    assert flash(auth_client).code == "weak_password"
    response = await post_form(
        auth_client, "/auth/reset-password", password="new-secret-1", confirm_password="new-secret-1"
    )
    assert response.headers["location"] == "/auth-redirect" and flash(auth_client).code == "password_updated"

    auth_client.cookies.clear()
    await post_form(auth_client, "/auth/login", email=email, password="new-secret-1")
    assert "mv_access" in auth_client.cookies


async def test_an_unusable_link_session_is_refused(auth_client) -> None:
    await csrf_token(auth_client)
    headers = {**ORIGIN, "x-csrf-token": auth_client.cookies["mv_csrf"]}
    response = await auth_client.post(
        "/auth/session", json={"access_token": "a.b.c", "refresh_token": "nope"}, headers=headers
    )
    assert response.status_code == 400 and "mv_access" not in auth_client.cookies


async def test_only_a_fresh_email_link_session_comes_in_through_the_url(auth_client) -> None:
    """A password session pasted into a link (someone signing a victim into their own account) is refused."""
    await sign_up(auth_client, unique_email("fixation"))
    access, refresh_token = auth_client.cookies["mv_access"], auth_client.cookies["mv_refresh"]
    auth_client.cookies.delete("mv_access")
    auth_client.cookies.delete("mv_refresh")
    headers = {**ORIGIN, "x-csrf-token": auth_client.cookies["mv_csrf"]}
    response = await auth_client.post(
        "/auth/session", json={"access_token": access, "refresh_token": refresh_token}, headers=headers
    )
    assert response.status_code == 400 and response.json()["error"] == "stale_link"
    assert "mv_access" not in auth_client.cookies


async def test_reset_password_without_a_session_says_the_link_expired(auth_client) -> None:
    response = await post_form(
        auth_client, "/auth/reset-password", password="new-secret-1", confirm_password="new-secret-1"
    )
    assert response.headers["location"] == "/reset-password" and flash(auth_client).code == "link_expired"


async def test_with_signups_on_the_waitlist_register_joins_it(auth_client, env) -> None:
    env(SIGNUPS="waitlist")
    email = unique_email("waitlist")
    response = await post_form(auth_client, "/auth/register", name="Pat Lee", email=email, password="")
    assert response.headers["location"] == "/register"
    assert (flash(auth_client).code, flash(auth_client).values["email"]) == ("waitlisted", email)
    assert "mv_access" not in auth_client.cookies
    login = await post_form(auth_client, "/auth/login", email=email, password=PASSWORD)
    assert login.headers["location"] == "/login" and flash(auth_client).code == "invalid_credentials"


# ---- issue 11, flow 7 ---------------------------------------------------------------------------------
async def test_a_blank_name_is_refused_with_a_clear_message(auth_client) -> None:
    email = unique_email("blank-name")
    response = await post_form(auth_client, "/auth/register", name="   ", email=email, password=PASSWORD)
    assert response.headers["location"] == "/register"
    note = flash(auth_client)
    assert (note.code, note.detail["message"]) == ("validation_failed", "Please enter your name.")
    assert flash_message(note) == "Please enter your name."
    assert "mv_access" not in auth_client.cookies
