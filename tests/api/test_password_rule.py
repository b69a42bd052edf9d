"""One password rule for every way a password is set (issue 27, inputs 2; NIST SP 800-63B): at least 8
characters, no common, breached or easily guessed password (zxcvbn, under 10^6 guesses), the person's own
e-mail address or name refused as a password, no composition rules, at most 72 bytes. Before the fix
`123456` was accepted everywhere. Paths: the identity API's sign-up and PUT /user (password change and
recovery), the register form, and the operator's `create_account` (the CLI's `users create`)."""

from __future__ import annotations

import pytest

from app import db as app_db
from app.auth.passwords import GUESSABLE
from app.services.accounts.internal import create_account
from app.services.errors import ValidationFailed
from components.account import field, flash_message
from models.account import Role
from tests.api.conftest import unique_email
from tests.api.test_browser_auth import flash, post_form
from tests.ui.harness import attrs, find, text

STRONG = "harbor-violet-kettle"
COMMON = ["123456", "12345678", "password1", "iloveyou2", "qwertyuiop", "abc123abc"]


async def _refused(answer) -> dict:  # noqa: ANN001 - httpx.Response
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["code"] == "weak_password" and isinstance(body["weak_password"]["reasons"], list)
    return body


@pytest.mark.parametrize("password", COMMON)
async def test_sign_up_refuses_common_passwords(auth_client, password) -> None:
    answer = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email("common"), "password": password}
    )
    body = await _refused(answer)
    assert body["weak_password"]["reasons"] in (["length"], ["pwned"])
    assert body["message"]


async def test_sign_up_refuses_the_persons_own_address_and_name(auth_client) -> None:
    email = unique_email("pat.doe")
    own = await auth_client.post("/auth/v1/signup", json={"email": email, "password": email})
    assert (await _refused(own))["weak_password"] == {"reasons": ["pwned"]}
    named = await auth_client.post(
        "/auth/v1/signup",
        json={
            "email": unique_email("named"),
            "password": "Rosalind Franklin",
            "data": {"name": "Rosalind Franklin"},
        },
    )
    assert (await _refused(named))["message"].startswith(GUESSABLE)


async def test_no_composition_rules_and_long_passphrases_pass(auth_client) -> None:
    for password in (
        STRONG,
        "correct horse battery staple",
        "ünïcødé-pässwörd-ok",
        "x" * 3 + STRONG + "y" * 40,
    ):
        answer = await auth_client.post(
            "/auth/v1/signup", json={"email": unique_email("ok"), "password": password}
        )
        assert answer.status_code == 200, (password, answer.text)
    too_long = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email("long"), "password": "a" * 73}
    )
    assert too_long.status_code == 400 and too_long.json()["code"] == "validation_failed"


async def test_a_password_change_refuses_a_common_password(auth_client) -> None:
    session = (
        await auth_client.post("/auth/v1/signup", json={"email": unique_email("changer"), "password": STRONG})
    ).json()
    headers = {"Authorization": f"Bearer {session['access_token']}"}
    for password in ("123456", "password1"):
        await _refused(await auth_client.put("/auth/v1/user", headers=headers, json={"password": password}))
    changed = await auth_client.put(
        "/auth/v1/user", headers=headers, json={"password": "quiet-meadow-lantern"}
    )
    assert changed.status_code == 200, changed.text


async def test_the_register_form_sends_the_refusal_back_for_the_password_field(auth_client) -> None:
    email = unique_email("register")
    response = await post_form(
        auth_client, "/auth/register", name="Pat Lee", email=email, password="password1"
    )
    assert response.status_code == 303 and response.headers["location"] == "/register"
    note = flash(auth_client)
    assert note.code == "weak_password" and note.detail["reasons"] == ["pwned"]
    assert note.values == {"email": email, "name": "Pat Lee"}  # kept, but never the password
    assert "password1" not in str(note.values) + str(note.detail)
    shown = field("Password", name="password", type="password", error=flash_message(note), hint="At least 8.")
    box = find(shown, "input")
    assert attrs(box)["aria-invalid"] == "true"
    assert attrs(box)["aria-describedby"] == "auth-password-error auth-password-hint"
    assert not any(key.lower().startswith("on") for key in attrs(box))  # nothing stops paste or a manager
    assert GUESSABLE in text(find(shown, "p", id="auth-password-error"))


async def test_the_operators_accounts_follow_the_same_rule(identity_env) -> None:
    async with app_db.unit_of_work() as session:
        with pytest.raises(ValidationFailed) as refused:
            await create_account(
                session=session,
                email=unique_email("cli"),
                password="123456",
                role=Role.patient,
                name="Cli User",
            )
        assert "8 characters" in refused.value.message
        with pytest.raises(ValidationFailed) as refused:
            await create_account(
                session=session, email=unique_email("cli"), password="password1", role=Role.patient
            )
        assert refused.value.message.startswith(GUESSABLE)
