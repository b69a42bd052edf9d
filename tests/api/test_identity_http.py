"""The /auth/v1 wire format over plain HTTP (in-process, on SQLite and PostgreSQL): error bodies and headers,
the user-JWT failure table, and time-dependent failures (expiry) made by moving rows into the past."""

from __future__ import annotations

import base64
import json
import logging
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from app import db as app_db
from app.auth.keys import JsonWebToken, get_key_ring
from models.identity import AuthSession, FlowState, MfaChallenge, OneTimeToken, User
from tests.api.conftest import unique_email

pytestmark = pytest.mark.usefixtures("auth_client")

ERROR_KEYS = {"code", "error_code", "message", "msg"}


def assert_error(response, status: int, code: str) -> dict:  # noqa: ANN001
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= ERROR_KEYS, body
    assert body["code"] == body["error_code"] == code
    assert body["message"] == body["msg"] and body["message"]
    assert response.headers["x-supabase-api-version"] == "2024-01-01"
    assert response.headers["x-sb-error-code"] == code
    return body


async def sign_up(client, email: str | None = None, password: str = "secret-1234") -> dict:  # noqa: ANN001
    response = await client.post(
        "/auth/v1/signup", json={"email": email or unique_email(), "password": password}
    )
    assert response.status_code == 200, response.text
    return response.json()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


async def backdate(model, where, **values) -> None:  # noqa: ANN001
    async with app_db.unit_of_work() as session:
        await session.execute(update(model).where(where).values(**values))


def long_ago(seconds: int = 400_000) -> datetime:
    return datetime.now(UTC) - timedelta(seconds=seconds)


# ---- public endpoints --------------------------------------------------------------------------
async def test_public_endpoints_ignore_authorization_and_unknown_fields(auth_client) -> None:
    response = await auth_client.post(
        "/auth/v1/signup",
        headers={"Authorization": "Bearer expired.or.garbage"},
        json={
            "email": unique_email(),
            "password": "secret-1234",
            "data": None,
            "gotrue_meta_security": {"captcha_token": None},
            "code_challenge": None,
            "something_new": [1, 2],
        },
    )
    assert response.status_code == 200 and response.json()["access_token"]
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-supabase-api-version"] == "2024-01-01"
    user = response.json()["user"]
    assert {"id", "aud", "role", "email", "phone", "app_metadata", "user_metadata", "identities"} <= set(user)
    assert {"created_at", "updated_at", "is_anonymous", "email_confirmed_at", "confirmed_at"} <= set(user)
    assert user["phone"] == "" and user["created_at"].endswith("Z")
    assert "factors" not in user and "new_email" not in user  # only emitted when set


async def test_signup_validation(auth_client) -> None:
    body = assert_error(
        await auth_client.post("/auth/v1/signup", json={"email": unique_email(), "password": "123"}),
        422,
        "weak_password",
    )
    assert body["weak_password"] == {"reasons": ["length"]}
    assert_error(
        await auth_client.post("/auth/v1/signup", json={"email": unique_email(), "password": "é" * 37}),
        400,
        "validation_failed",
    )
    assert_error(
        await auth_client.post("/auth/v1/signup", json={"email": "not-an-email", "password": "secret-1234"}),
        400,
        "validation_failed",
    )
    assert_error(
        await auth_client.post("/auth/v1/signup", json={"password": "secret-1234"}),
        422,
        "anonymous_provider_disabled",
    )
    assert_error(
        await auth_client.post("/auth/v1/signup", json={"phone": "+15550100", "password": "secret-1234"}),
        422,
        "phone_provider_disabled",
    )
    email = unique_email()
    await sign_up(auth_client, email)
    assert_error(
        await auth_client.post("/auth/v1/signup", json={"email": email, "password": "secret-1234"}),
        422,
        "user_already_exists",
    )
    bad_json = await auth_client.post(
        "/auth/v1/signup", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert_error(bad_json, 400, "bad_json")


async def test_token_grant_failures(auth_client) -> None:
    email = unique_email()
    await sign_up(auth_client, email)
    wrong = assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=password", json={"email": email, "password": "wrong-one"}
        ),
        400,
        "invalid_credentials",
    )
    unknown = assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=password", json={"email": unique_email(), "password": "wrong-one"}
        ),
        400,
        "invalid_credentials",
    )
    assert wrong == unknown  # nothing tells the two apart

    oauth = await auth_client.post("/auth/v1/token?grant_type=refresh_token", json={})
    assert oauth.status_code == 400
    assert oauth.json() == {"error": "invalid_request", "error_description": "refresh_token required"}
    assert_error(
        await auth_client.post("/auth/v1/token?grant_type=refresh_token", json={"refresh_token": "nope"}),
        400,
        "refresh_token_not_found",
    )
    assert_error(
        await auth_client.post("/auth/v1/token?grant_type=magic", json={}), 400, "invalid_credentials"
    )
    assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=pkce", json={"auth_code": "", "code_verifier": "x"}
        ),
        400,
        "validation_failed",
    )
    assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=pkce", json={"auth_code": str(uuid.uuid4()), "code_verifier": "x" * 43}
        ),
        404,
        "flow_state_not_found",
    )
    assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=id_token", json={"provider": "google", "id_token": "eyJ..."}
        ),
        400,
        "provider_disabled",
    )


async def test_sign_in_reports_a_password_that_fails_current_rules(auth_client, monkeypatch) -> None:
    from app.settings import get_settings

    email = unique_email()
    await sign_up(auth_client, email, password="secret-enough-1")
    monkeypatch.setenv("PASSWORD_MIN_LENGTH", "20")
    get_settings.cache_clear()
    response = await auth_client.post(
        "/auth/v1/token?grant_type=password", json={"email": email, "password": "secret-enough-1"}
    )
    assert response.status_code == 200
    assert response.json()["weak_password"]["reasons"] == ["length"]


async def test_settings_health_jwks_authorize_and_unknown_paths(auth_client) -> None:
    settings = (await auth_client.get("/auth/v1/settings")).json()
    assert settings["external"]["email"] is True and settings["external"]["phone"] is False
    assert settings["mailer_autoconfirm"] is True and settings["disable_signup"] is False
    assert {"phone_autoconfirm", "sms_provider", "saml_enabled"} <= set(settings)
    assert (await auth_client.get("/auth/v1/health")).json()["name"] == "GoTrue"
    jwks = await auth_client.get("/auth/v1/.well-known/jwks.json")
    assert jwks.headers["cache-control"] == "public, max-age=600"
    assert [k["kid"] for k in jwks.json()["keys"]] == [get_key_ring().signer.kid]
    assert_error(await auth_client.get("/auth/v1/authorize?provider=github"), 400, "validation_failed")
    assert_error(await auth_client.post("/auth/v1/nothing-here", json={}), 404, "not_found")


async def test_a_known_path_with_another_method_answers_405_with_allow(auth_client) -> None:
    wrong = await auth_client.delete("/auth/v1/settings")
    assert_error(wrong, 405, "method_not_allowed")
    assert wrong.headers["allow"] == "GET"
    user = await auth_client.patch("/auth/v1/user", json={})
    assert_error(user, 405, "method_not_allowed")
    assert set(user.headers["allow"].split(", ")) == {"GET", "PUT"}
    assert_error(await auth_client.put("/auth/v1/token", json={}), 405, "method_not_allowed")


async def test_cors(auth_client) -> None:
    preflight = await auth_client.options(
        "/auth/v1/token",
        headers={
            "Origin": "http://localhost:3000",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "apikey, authorization, content-type, x-client-info, x-supabase-api-version",
        },
    )
    assert preflight.status_code == 204
    assert "x-supabase-api-version" in preflight.headers["access-control-allow-headers"]
    response = await auth_client.get("/auth/v1/settings", headers={"Origin": "http://localhost:3000"})
    assert response.headers["access-control-allow-origin"] == "*"
    assert "X-Supabase-Api-Version" in response.headers["access-control-expose-headers"]


# ---- user-JWT routes ---------------------------------------------------------------------------
def _forge(claims: dict) -> str:
    ring = get_key_ring()
    header = {"alg": ring.signer.alg, "kid": ring.signer.kid, "typ": "JWT"}
    return JsonWebToken(["ES256", "RS256"]).encode(header, claims, ring.signer.key).decode()


async def test_user_jwt_failure_table(auth_client) -> None:
    session = await sign_up(auth_client)
    token = session["access_token"]
    claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))

    assert_error(await auth_client.get("/auth/v1/user"), 401, "no_authorization")
    assert_error(
        await auth_client.get("/auth/v1/user", headers={"Authorization": "Basic abc"}),
        401,
        "no_authorization",
    )
    assert_error(await auth_client.get("/auth/v1/user", headers=bearer("anon")), 403, "bad_jwt")
    head, payload, signature = token.split(".")
    tampered = f"{head}.{payload}.{signature[:-4]}AAAA"
    assert_error(await auth_client.get("/auth/v1/user", headers=bearer(tampered)), 403, "bad_jwt")
    expired = _forge({**claims, "iat": int(time.time()) - 7200, "exp": int(time.time()) - 3600})
    assert_error(await auth_client.get("/auth/v1/user", headers=bearer(expired)), 403, "bad_jwt")
    assert_error(
        await auth_client.get("/auth/v1/user", headers=bearer(_forge({**claims, "sub": ""}))), 403, "bad_jwt"
    )
    assert_error(
        await auth_client.get("/auth/v1/user", headers=bearer(_forge({**claims, "sub": "not-a-uuid"}))),
        400,
        "bad_jwt",
    )
    assert_error(
        await auth_client.get("/auth/v1/user", headers=bearer(_forge({**claims, "sub": str(uuid.uuid4())}))),
        403,
        "user_not_found",
    )
    assert_error(
        await auth_client.get("/auth/v1/user", headers=bearer(_forge({**claims, "aud": "someone-else"}))),
        400,
        "validation_failed",
    )
    assert (await auth_client.get("/auth/v1/user", headers=bearer(token))).status_code == 200

    await backdate(User, User.id == claims["sub"], banned_until=datetime.now(UTC) + timedelta(hours=1))
    assert_error(await auth_client.get("/auth/v1/user", headers=bearer(token)), 403, "user_banned")
    await backdate(User, User.id == claims["sub"], banned_until=None)

    logout = await auth_client.post("/auth/v1/logout", headers=bearer(token))
    assert logout.status_code == 204 and logout.content == b""
    assert_error(await auth_client.get("/auth/v1/user", headers=bearer(token)), 403, "session_not_found")
    assert_error(await auth_client.post("/auth/v1/logout", headers=bearer(token)), 403, "session_not_found")
    assert_error(
        await auth_client.post("/auth/v1/factors", headers=bearer(token), json={}), 403, "session_not_found"
    )


async def test_put_user_rules(auth_client) -> None:
    session = await sign_up(auth_client)
    headers = bearer(session["access_token"])
    body = assert_error(
        await auth_client.put("/auth/v1/user", headers=headers, json={"app_metadata": {"roles": ["admin"]}}),
        403,
        "not_admin",
    )
    assert "admin" in body["message"]
    assert_error(
        await auth_client.put("/auth/v1/user", headers=headers, json={"password": "secret-1234"}),
        422,
        "same_password",
    )
    weak = assert_error(
        await auth_client.put("/auth/v1/user", headers=headers, json={"password": "abc"}),
        422,
        "weak_password",
    )
    assert weak["weak_password"]["reasons"] == ["length"]
    other = await sign_up(auth_client)
    assert_error(
        await auth_client.put("/auth/v1/user", headers=headers, json={"email": other["user"]["email"]}),
        422,
        "email_exists",
    )
    updated = await auth_client.put(
        "/auth/v1/user", headers=headers, json={"data": {"k": "v"}, "app_metadata": None}
    )
    assert updated.status_code == 200 and updated.json()["user_metadata"]["k"] == "v"


async def test_email_change_needs_both_addresses_and_tells_the_old_one(auth_client, smtp) -> None:
    """The takeover: with a stolen session, `PUT /user {email}` used to send one confirmation, to the NEW
    address (the attacker's), and confirming it moved the account. Now the current address must confirm
    too (GoTrue's secure e-mail change), and it is told once the account has moved."""
    from tests.api.conftest import mail_code, mail_link, mail_to
    from tests.conftest import html_part

    session = await sign_up(auth_client)
    headers = bearer(session["access_token"])
    old_email, new_email = session["user"]["email"], unique_email("attacker")
    response = await auth_client.put("/auth/v1/user", headers=headers, json={"email": new_email})
    assert response.status_code == 200
    assert response.json()["new_email"] == new_email and response.json()["email"] == old_email
    new_code = mail_code(mail_to(smtp, new_email)[0])
    [to_owner] = mail_to(smtp, old_email)
    assert "another e-mail address" in html_part(to_owner)

    # The attacker confirms their own address: not enough.
    half = await auth_client.post(
        "/auth/v1/verify", json={"type": "email_change", "email": new_email, "token": new_code}
    )
    assert half.status_code == 200 and half.json()["msg"].startswith("Confirmation link accepted")
    me = await auth_client.get("/auth/v1/user", headers=headers)
    assert me.json()["email"] == old_email

    # Only the owner's confirmation (here through the link) completes the change.
    link = mail_link(to_owner)
    done = await auth_client.get("/auth/v1" + link.split("/auth/v1", 1)[1])
    assert done.status_code == 303 and "access_token=" in done.headers["location"]
    me = await auth_client.get("/auth/v1/user", headers=headers)
    assert me.json()["email"] == new_email and "new_email" not in me.json()
    [notice] = mail_to(smtp, old_email, count=2)[1:]
    assert "was changed" in notice["Subject"] and new_email in html_part(notice)


async def test_the_owner_confirming_first_still_needs_the_new_address(auth_client, smtp) -> None:
    from tests.api.conftest import mail_code, mail_to

    session = await sign_up(auth_client)
    old_email, new_email = session["user"]["email"], unique_email("moving")
    await auth_client.put("/auth/v1/user", headers=bearer(session["access_token"]), json={"email": new_email})
    old_code = mail_code(mail_to(smtp, old_email)[0])
    first = await auth_client.post(
        "/auth/v1/verify", json={"type": "email_change", "email": old_email, "token": old_code}
    )
    assert first.json()["msg"].startswith("Confirmation link accepted")
    new_code = mail_code(mail_to(smtp, new_email)[0])
    second = await auth_client.post(
        "/auth/v1/verify", json={"type": "email_change", "email": new_email, "token": new_code}
    )
    assert second.status_code == 200 and second.json()["user"]["email"] == new_email


# ---- expiry --------------------------------------------------------------------------------------
async def test_expired_email_codes_and_links(auth_client, smtp) -> None:
    from tests.api.conftest import mail_code, mail_link, mail_to

    session = await sign_up(auth_client)
    email = session["user"]["email"]
    assert (await auth_client.post("/auth/v1/otp", json={"email": email})).json() == {}
    message = mail_to(smtp, email)[0]
    code, link = mail_code(message), mail_link(message)
    await backdate(OneTimeToken, OneTimeToken.user_id == session["user"]["id"], created_at=long_ago(86_401))
    assert_error(
        await auth_client.post("/auth/v1/verify", json={"type": "magiclink", "email": email, "token": code}),
        403,
        "otp_expired",
    )
    path = link.split("testserver", 1)[1]
    redirect = await auth_client.get(path, follow_redirects=False)
    assert redirect.status_code == 303
    assert redirect.headers["location"].startswith(
        "http://app.medivisit.test#error=access_denied&error_code=otp_expired&error_description="
    )
    assert_error(
        await auth_client.post("/auth/v1/verify", json={"email": email, "token": code}),
        400,
        "validation_failed",
    )
    assert_error(await auth_client.post("/auth/v1/verify", json={"type": "signup"}), 400, "validation_failed")
    # Sends to one user are spaced by 60 s.
    limited = await auth_client.post("/auth/v1/otp", json={"email": email})
    assert limited.status_code == 429 and limited.headers["retry-after"]


async def test_pkce_validation_and_expiry(auth_client, smtp) -> None:
    from tests.api.conftest import mail_link, mail_to

    session = await sign_up(auth_client)
    email = session["user"]["email"]
    assert_error(
        await auth_client.post("/auth/v1/recover", json={"email": email, "code_challenge": "a" * 43}),
        400,
        "validation_failed",
    )
    assert_error(
        await auth_client.post(
            "/auth/v1/recover",
            json={"email": email, "code_challenge": "short", "code_challenge_method": "s256"},
        ),
        400,
        "validation_failed",
    )
    verifier = "v" * 50
    response = await auth_client.post(
        "/auth/v1/recover",
        json={"email": email, "code_challenge": verifier, "code_challenge_method": "PLAIN"},
    )
    assert response.status_code == 200
    path = mail_link(mail_to(smtp, email)[0]).split("testserver", 1)[1]
    location = (await auth_client.get(path, follow_redirects=False)).headers["location"]
    code = location.split("code=", 1)[1]
    await backdate(FlowState, FlowState.auth_code == code, auth_code_issued_at=long_ago(301))
    assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=pkce", json={"auth_code": code, "code_verifier": verifier}
        ),
        422,
        "flow_state_expired",
    )
    await backdate(FlowState, FlowState.auth_code == code, auth_code_issued_at=datetime.now(UTC))
    ok = await auth_client.post(
        "/auth/v1/token?grant_type=pkce", json={"auth_code": code, "code_verifier": verifier}
    )
    assert ok.status_code == 200 and ok.json()["user"]["email"] == email

    bad_link = await auth_client.get(
        "/auth/v1/verify?token=pkce_deadbeef&type=recovery&redirect_to=http://localhost:3000/x",
        follow_redirects=False,
    )
    assert bad_link.headers["location"].startswith(
        "http://localhost:3000/x?error=access_denied&error_code=otp_expired"
    )


async def test_expired_mfa_challenge(auth_client) -> None:
    import pyotp

    session = await sign_up(auth_client)
    headers = bearer(session["access_token"])
    factor = (
        await auth_client.post("/auth/v1/factors", headers=headers, json={"factor_type": "totp"})
    ).json()
    challenge = (
        await auth_client.post(f"/auth/v1/factors/{factor['id']}/challenge", headers=headers, json={})
    ).json()
    assert set(challenge) == {"id", "type", "expires_at"}
    await backdate(MfaChallenge, MfaChallenge.id == challenge["id"], created_at=long_ago(301))
    assert_error(
        await auth_client.post(
            f"/auth/v1/factors/{factor['id']}/verify",
            headers=headers,
            json={"challenge_id": challenge["id"], "code": pyotp.TOTP(factor["totp"]["secret"]).now()},
        ),
        422,
        "mfa_challenge_expired",
    )


async def test_session_not_after_expires_refresh(auth_client) -> None:
    session = await sign_up(auth_client)
    await backdate(AuthSession, AuthSession.user_id == session["user"]["id"], not_after=long_ago(1))
    assert_error(
        await auth_client.post(
            "/auth/v1/token?grant_type=refresh_token", json={"refresh_token": session["refresh_token"]}
        ),
        400,
        "session_expired",
    )


def test_access_logs_do_not_carry_link_tokens(caplog) -> None:
    import api.auth_v1  # noqa: F401 - installs the filter

    logger = logging.getLogger("uvicorn.access")
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        logger.info(
            '%s - "%s %s HTTP/%s" %d',
            "1.2.3.4",
            "GET",
            "/auth/v1/verify?token=abc123&type=signup",
            "1.1",
            303,
        )
    assert "abc123" not in caplog.text and "/auth/v1/verify?[redacted]" in caplog.text


async def test_concurrent_refreshes_are_serialised(auth_client) -> None:
    import asyncio

    session = await sign_up(auth_client)

    async def refresh_once() -> tuple[int, str | None]:
        response = await auth_client.post(
            "/auth/v1/token?grant_type=refresh_token", json={"refresh_token": session["refresh_token"]}
        )
        return response.status_code, response.json().get("refresh_token")

    results = await asyncio.gather(*(refresh_once() for _ in range(6)))
    assert {status for status, _ in results} == {200}, results
    assert len({child for _, child in results}) == 1


async def test_production_links_ignore_the_host_header(auth_client, smtp, monkeypatch) -> None:
    from app.settings import get_settings
    from tests.api.conftest import mail_link, mail_to

    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SITE_URL", "https://medivisit.example")
    get_settings.cache_clear()
    email = unique_email("prod")
    response = await auth_client.post(
        "/auth/v1/signup", json={"email": email, "password": "secret-1234"}, headers={"Host": "evil.example"}
    )
    assert response.status_code == 200 and "access_token" not in response.json()  # no auto-confirm
    link = mail_link(mail_to(smtp, email)[0])
    assert link.startswith("https://medivisit.example/auth/v1/verify?token=")
