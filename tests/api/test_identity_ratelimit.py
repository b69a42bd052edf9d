"""Request rate limits per client IP (and per e-mail address where a message is sent), on a live server with small limits set
through the environment. Client IPs are told apart by X-Forwarded-For (uvicorn trusts it from 127.0.0.1)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.api.conftest import start_identity_server, unique_email
from tests.conftest import LiveServer, stop_server


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    _inbox, smtp_url = smtp_server
    server = start_identity_server(
        tmp_path_factory.mktemp("auth-limited"),
        smtp_url,
        RATE_LIMIT_TOKEN="3",
        RATE_LIMIT_OTP="2",
        RATE_LIMIT_VERIFY="2",
        RATE_LIMIT_WINDOW="300",
        MAILER_AUTOCONFIRM="true",
        SIGN_IN_FAILURES_BEFORE_DELAY="3",
        SIGN_IN_FAILURE_DELAY_MS="400",
    )
    yield server
    stop_server(server)


def _post(server: LiveServer, path: str, ip: str, body: dict) -> httpx.Response:
    return httpx.post(server.url(path), json=body, headers={"X-Forwarded-For": ip})


def _assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == "over_request_rate_limit"
    assert response.headers["x-sb-error-code"] == "over_request_rate_limit"
    assert 0 < int(response.headers["retry-after"]) <= 300


def test_token_limit_per_ip(limited_server) -> None:
    path = "/auth/v1/token?grant_type=password"
    for _ in range(3):
        body = {"email": unique_email(), "password": "secret-1234"}
        assert _post(limited_server, path, "10.0.0.1", body).status_code == 400
    _assert_limited(_post(limited_server, path, "10.0.0.1", {"email": unique_email(), "password": "x" * 8}))
    # Another client is not affected.
    assert (
        _post(limited_server, path, "10.0.0.2", {"email": unique_email(), "password": "x" * 8}).status_code
        == 400
    )


def test_wrong_passwords_from_many_addresses_never_lock_the_owner_out(limited_server) -> None:
    """The lock-out attack: failures for one account from many addresses used to make the right password
    answer 429 from a fresh address, for as long as the attacker kept going. Now the request limits count
    client addresses only; the account is defended by answering failures past the allowance slowly."""
    path = "/auth/v1/token?grant_type=password"
    email, password = unique_email("target"), "the-right-one-1"
    assert _post(
        limited_server, "/auth/v1/signup", "10.1.1.1", {"email": email, "password": password}
    ).is_success
    slow = []
    for n in range(8):  # more than twice the per-address limit of 3, each address under it
        started = time.monotonic()
        answer = _post(limited_server, path, f"10.1.0.{n}", {"email": email, "password": "guess-it"})
        assert answer.status_code == 400 and answer.json()["error_code"] == "invalid_credentials", answer.text
        slow.append(time.monotonic() - started >= 0.4)
    # The first failures (the allowance, 3) are answered at once; every later one waits the delay.
    assert slow[3:] == [True] * 5
    owner = _post(limited_server, path, "10.1.0.99", {"email": email, "password": password})
    assert owner.status_code == 200 and owner.json()["access_token"], owner.text


def test_signup_recover_otp_and_verify_limits(limited_server) -> None:
    for n in range(2):
        body = {"email": unique_email(), "password": "secret-1234"}
        assert _post(limited_server, "/auth/v1/signup", "10.2.0.1", body).status_code == 200, n
    _assert_limited(
        _post(
            limited_server,
            "/auth/v1/signup",
            "10.2.0.1",
            {"email": unique_email(), "password": "secret-1234"},
        )
    )

    email = unique_email("recover")
    for n in range(2):
        assert _post(limited_server, "/auth/v1/recover", f"10.3.0.{n}", {"email": email}).status_code == 200
    _assert_limited(_post(limited_server, "/auth/v1/recover", "10.3.0.9", {"email": email}))

    for _ in range(2):
        assert _post(limited_server, "/auth/v1/otp", "10.4.0.1", {"email": unique_email()}).status_code == 200
    _assert_limited(_post(limited_server, "/auth/v1/otp", "10.4.0.1", {"email": unique_email()}))

    email = unique_email("verify")
    for n in range(2):
        body = {"type": "email", "email": email, "token": "123456"}
        assert _post(limited_server, "/auth/v1/verify", f"10.5.0.{n}", body).status_code == 403
    _assert_limited(
        _post(limited_server, "/auth/v1/verify", "10.5.0.9", {"type": "email", "email": email, "token": "1"})
    )
