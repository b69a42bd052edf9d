"""Audit entries written by the identity service over /auth/v1 (in-process, SQLite and PostgreSQL): sign-in,
failed sign-in, sign-out, password changes (signed in and by recovery), MFA enrol/verify/unenrol and e-mail
code sign-in; refreshes are not audited; passwords, tokens and codes appear neither in entries nor in logs."""

from __future__ import annotations

import json
import logging

import pyotp
from sqlalchemy import or_, select

from app import db as app_db
from models.audit import AuditEntry
from tests.api.conftest import mail_code, mail_to, unique_email

UA = {"User-Agent": "audit-test/1.0 (pytest)"}
PASSWORD = "first-secret-1"
NEW_PASSWORD = "second-secret-2"
RECOVERED_PASSWORD = "third-secret-3"


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}", **UA}


async def entries_about(email: str) -> list[AuditEntry]:
    async with app_db.unit_of_work() as session:
        rows = await session.scalars(
            select(AuditEntry)
            .where(or_(AuditEntry.actor_email == email, AuditEntry.target == email))
            .order_by(AuditEntry.created_at, AuditEntry.id)
        )
        return list(rows)


async def sign_in(client, email: str, password: str):  # noqa: ANN001, ANN201
    return await client.post(
        "/auth/v1/token?grant_type=password", headers=UA, json={"email": email, "password": password}
    )


async def test_identity_events_are_audited_without_secrets(auth_client, smtp, caplog) -> None:
    # Everything at the level the server runs at, and the application's own loggers at DEBUG. (The SQLite
    # driver's DEBUG output echoes SQL parameters; `python -m medivisit` never enables it.)
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="app")
    email = unique_email("audited")
    secrets: list[str] = [PASSWORD, NEW_PASSWORD, RECOVERED_PASSWORD]

    signed_up = await auth_client.post(
        "/auth/v1/signup", headers=UA, json={"email": email, "password": PASSWORD}
    )
    assert signed_up.status_code == 200, signed_up.text
    user_id = signed_up.json()["user"]["id"]

    wrong = await sign_in(auth_client, email, "not-my-password")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_credentials"
    secrets.append("not-my-password")

    session = (await sign_in(auth_client, email, PASSWORD)).json()
    secrets += [session["access_token"], session["refresh_token"]]

    # A refresh is not audited.
    refreshed = await auth_client.post(
        "/auth/v1/token?grant_type=refresh_token",
        headers=UA,
        json={"refresh_token": session["refresh_token"]},
    )
    assert refreshed.status_code == 200
    session = refreshed.json()
    secrets += [session["access_token"], session["refresh_token"]]

    changed = await auth_client.put(
        "/auth/v1/user", headers=bearer(session["access_token"]), json={"password": NEW_PASSWORD}
    )
    assert changed.status_code == 200, changed.text

    enrolled = (
        await auth_client.post(
            "/auth/v1/factors",
            headers=bearer(session["access_token"]),
            json={"factor_type": "totp", "friendly_name": "Phone"},
        )
    ).json()
    secrets.append(enrolled["totp"]["secret"])
    challenge = (
        await auth_client.post(
            f"/auth/v1/factors/{enrolled['id']}/challenge", headers=bearer(session["access_token"])
        )
    ).json()
    code = pyotp.TOTP(enrolled["totp"]["secret"]).now()
    verified = await auth_client.post(
        f"/auth/v1/factors/{enrolled['id']}/verify",
        headers=bearer(session["access_token"]),
        json={"challenge_id": challenge["id"], "code": code},
    )
    assert verified.status_code == 200, verified.text
    aal2 = verified.json()
    secrets += [aal2["access_token"], aal2["refresh_token"]]
    removed = await auth_client.delete(
        f"/auth/v1/factors/{enrolled['id']}", headers=bearer(aal2["access_token"])
    )
    assert removed.status_code == 200, removed.text

    logout = await auth_client.post("/auth/v1/logout?scope=local", headers=bearer(aal2["access_token"]))
    assert logout.status_code == 204

    # Recovery by e-mail code: a code sign-in, then the new password.
    assert (await auth_client.post("/auth/v1/recover", headers=UA, json={"email": email})).status_code == 200
    # Before it, the security notices of the notification centre (issue 12): the password change, two-factor
    # sign-in turned on, then off.
    delivered = mail_to(smtp, email, 4)
    assert [m["Subject"] for m in delivered[:3]] == [
        "Your password was changed",
        "Two-factor sign-in was turned on",
        "Two-factor sign-in was turned off",
    ]
    recovery_code = mail_code(delivered[3])
    secrets.append(recovery_code)
    recovered = await auth_client.post(
        "/auth/v1/verify", headers=UA, json={"type": "recovery", "email": email, "token": recovery_code}
    )
    assert recovered.status_code == 200, recovered.text
    recovered = recovered.json()
    secrets += [recovered["access_token"], recovered["refresh_token"]]
    reset = await auth_client.put(
        "/auth/v1/user", headers=bearer(recovered["access_token"]), json={"password": RECOVERED_PASSWORD}
    )
    assert reset.status_code == 200, reset.text

    entries = await entries_about(email)
    assert [
        (e.action, e.details.get("method") or e.details.get("reason") or e.details.get("scope"))
        for e in entries
    ] == [
        ("sign_in", "password"),  # sign-up with auto-confirm signs in
        ("sign_in_failed", "invalid_credentials"),
        ("sign_in", "password"),
        ("password_change", None),
        ("mfa_enroll", None),
        ("mfa_verify", None),
        ("mfa_unenroll", None),
        ("sign_out", "local"),
        ("sign_in", "otp"),
        ("password_change", None),
    ]
    for entry in entries:
        assert entry.ip == "127.0.0.1" and entry.user_agent == UA["User-Agent"]
        assert entry.target == email and entry.actor_email == email
        assert entry.actor_id == (None if entry.action == "sign_in_failed" else user_id)
    assert entries[-1].details["session_methods"] == ["otp"]
    assert entries[4].details["factor_id"] == enrolled["id"]

    stored = json.dumps([[e.actor_email, e.target, e.user_agent, e.details] for e in entries])
    for secret in secrets:
        assert secret not in stored
        assert secret not in caplog.text


async def test_failed_sign_ins_are_kept_for_unknown_addresses_and_unconfirmed_accounts(
    auth_client, monkeypatch
) -> None:
    from app.settings import get_settings

    unknown = unique_email("nobody")
    response = await sign_in(auth_client, unknown.upper(), "whatever-1")
    assert response.status_code == 400 and response.json()["code"] == "invalid_credentials"
    [entry] = await entries_about(unknown)
    assert (entry.action, entry.actor_id, entry.details) == (
        "sign_in_failed",
        None,
        {"reason": "invalid_credentials"},
    )

    monkeypatch.setenv("MAILER_AUTOCONFIRM", "false")
    get_settings.cache_clear()
    pending = unique_email("pending")
    signed_up = await auth_client.post("/auth/v1/signup", json={"email": pending, "password": PASSWORD})
    assert signed_up.status_code == 200 and "access_token" not in signed_up.json()
    refused = await sign_in(auth_client, pending, PASSWORD)
    assert refused.json()["code"] == "email_not_confirmed"
    assert [(e.action, e.details) for e in await entries_about(pending)] == [
        ("sign_in_failed", {"reason": "email_not_confirmed"})
    ]
