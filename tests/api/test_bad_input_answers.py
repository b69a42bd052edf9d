"""Bad input answers a clear 4xx, never a 500 (issue 10, finding 5, and the body-size part of finding 7).

Each case was a 500 before: a malformed `redirect_to` (only for existing accounts, which also told an
attacker which addresses have one), NUL characters (PostgreSQL cannot store them in text), a CR/LF in an
e-mail subject (header injection with SMTP set). Oversized bodies and user metadata were accepted whole.
Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL, where the NUL cases used to fail.
"""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import unique_email

PASSWORD = "secret-enough-1"
BAD_REDIRECTS = ["http://x.example:99999/", "http://[::1/", "http://localhost:abc/"]


async def _sign_up(auth_client, email: str) -> dict:
    answer = await auth_client.post("/auth/v1/signup", json={"email": email, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.parametrize("redirect", BAD_REDIRECTS)
async def test_a_malformed_redirect_to_is_400_for_known_and_unknown_addresses_alike(
    auth_client, redirect
) -> None:
    known = unique_email("known")
    await _sign_up(auth_client, known)
    for path in ("/auth/v1/recover", "/auth/v1/otp", "/auth/v1/resend"):
        answers = []
        for email in (known, unique_email("nobody")):
            body = {"email": email, "type": "signup"} if path.endswith("resend") else {"email": email}
            answer = await auth_client.post(path, params={"redirect_to": redirect}, json=body)
            answers.append((answer.status_code, answer.json().get("error_code")))
        assert answers == [(400, "validation_failed")] * 2, (path, answers)


async def test_a_malformed_redirect_to_on_the_link_and_on_put_user(auth_client) -> None:
    session = await _sign_up(auth_client, unique_email("changer"))
    answer = await auth_client.put(
        "/auth/v1/user",
        params={"redirect_to": BAD_REDIRECTS[0]},
        headers={"Authorization": f"Bearer {session['access_token']}"},
        json={"email": unique_email("new")},
    )
    assert answer.status_code == 400 and answer.json()["error_code"] == "validation_failed", answer.text
    # The link itself falls back to the site (GoTrue's rule for any redirect it will not follow).
    link = await auth_client.get(
        "/auth/v1/verify", params={"token": "nope", "type": "signup", "redirect_to": BAD_REDIRECTS[0]}
    )
    assert link.status_code == 303 and link.headers["location"].startswith("http://app.medivisit.test")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/auth/v1/signup", {"email": "nul\u0000@example.com", "password": PASSWORD}),
        (
            "post",
            "/auth/v1/signup",
            {"email": "ok@example.com", "password": PASSWORD, "data": {"name": "a\u0000b"}},
        ),
        (
            "post",
            "/auth/v1/token?grant_type=password",
            {"email": "x\u0000@example.com", "password": PASSWORD},
        ),
        ("post", "/auth/v1/recover", {"email": "x\u0000@example.com"}),
        ("post", "/auth/v1/otp", {"email": "x\u0000@example.com"}),
        ("post", "/auth/v1/verify", {"type": "email", "email": "x\u0000@example.com", "token": "123456"}),
        (
            "post",
            "/functions/v1/send-email",
            {"to": "support@medivisit.test", "subject": "a\u0000", "html": "<p>x"},
        ),
        ("get", "/providers%00x", None),
        ("get", "/no-such-page%00", None),
        ("get", "/auth/v1/verify?token=a%00b&type=signup", None),
    ],
)
async def test_nul_characters_are_refused_with_400(auth_client, method, path, body) -> None:
    kwargs = {"json": body} if body is not None else {}
    answer = await getattr(auth_client, method)(path, **kwargs)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] == "validation_failed"


async def test_nul_in_a_browser_form_post_is_refused(auth_client) -> None:
    answer = await auth_client.post(
        "/auth/login",
        content=b"email=a%00b%40example.com&password=x",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 400


async def test_a_line_break_in_an_email_subject_is_refused(auth_client, smtp) -> None:
    answer = await auth_client.post(
        "/functions/v1/send-email",
        json={"to": "support@medivisit.test", "subject": "Hi\r\nBcc: victim@example.com", "html": "<p>x</p>"},
    )
    assert answer.status_code == 422, answer.text
    assert "single line" in answer.text


def test_a_subject_is_always_one_header_line() -> None:
    from app.mail import build_message

    message = build_message(
        sender="a@example.com", recipients=["b@example.com"], subject="One\r\nBcc: c", html="x"
    )
    assert message["Subject"] == "One Bcc: c" and message["Bcc"] is None


async def test_an_oversized_body_is_413_before_it_is_read(auth_client) -> None:
    metadata = {"blob": "x" * (20 * 1024 * 1024)}
    answer = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email(), "password": PASSWORD, "data": metadata}
    )
    assert answer.status_code == 413 and answer.json()["error_code"] == "request_too_large"
    big = {"to": "support@medivisit.test", "subject": "s", "html": "<p>" + "x" * (2 * 1024 * 1024)}
    answer = await auth_client.post(
        "/functions/v1/send-email",
        content=json.dumps(big).encode(),
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 413


async def test_user_metadata_is_bounded_at_sign_up_and_on_update(auth_client) -> None:
    big = {"bio": "x" * 5000}
    answer = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email(), "password": PASSWORD, "data": big}
    )
    assert answer.status_code == 400 and "metadata is too large" in answer.json()["msg"]
    session = await _sign_up(auth_client, unique_email("meta"))
    answer = await auth_client.put(
        "/auth/v1/user", headers={"Authorization": f"Bearer {session['access_token']}"}, json={"data": big}
    )
    assert answer.status_code == 400 and "metadata is too large" in answer.json()["msg"]
    small = await auth_client.put(
        "/auth/v1/user",
        headers={"Authorization": f"Bearer {session['access_token']}"},
        json={"data": {"bio": "hi"}},
    )
    assert small.status_code == 200 and small.json()["user_metadata"]["bio"] == "hi"
