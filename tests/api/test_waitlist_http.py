"""SIGNUPS=waitlist over /auth/v1 (in-process, SQLite and PostgreSQL): nobody signs up past the waitlist, and
an approved person's invitation link signs them in on /reset-password, where they choose a password."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from app import db as app_db
from app.services.accounts import approve_waitlist_entry, join_waitlist
from app.settings import get_settings
from models.account import Role
from tests.api.conftest import mail_link, mail_to, unique_email
from tests.factories import person


@pytest.fixture
def waitlist_mode(auth_client, monkeypatch):
    monkeypatch.setenv("SIGNUPS", "waitlist")
    get_settings.cache_clear()
    yield auth_client
    monkeypatch.delenv("SIGNUPS")
    get_settings.cache_clear()


async def test_signup_and_new_otp_users_are_refused_in_waitlist_mode(waitlist_mode) -> None:
    client = waitlist_mode
    email = unique_email("queue-jumper")
    response = await client.post("/auth/v1/signup", json={"email": email, "password": "secret-1234"})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "signup_disabled"
    assert response.headers["x-sb-error-code"] == "signup_disabled"

    otp = await client.post("/auth/v1/otp", json={"email": email, "create_user": True})
    assert otp.status_code == 422 and otp.json()["code"] == "signup_disabled"
    assert (await client.get("/auth/v1/settings")).json()["disable_signup"] is True


async def test_signups_are_open_by_default(auth_client) -> None:
    assert get_settings().signups == "open"
    response = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email("open"), "password": "secret-1234"}
    )
    assert response.status_code == 200 and response.json()["access_token"]
    assert (await auth_client.get("/auth/v1/settings")).json()["disable_signup"] is False


async def test_invitation_link_signs_in_on_reset_password_to_choose_a_password(waitlist_mode, smtp) -> None:
    owner = await person(Role.owner, "Olive Owner")
    client = waitlist_mode
    email = unique_email("invited")
    async with app_db.unit_of_work() as session:
        entry = await join_waitlist(session=session, email=email, name="Grace Hopper")
    async with app_db.unit_of_work() as session:
        await approve_waitlist_entry(session=session, actor=owner.actor, entry_id=entry.id)

    link = urlsplit(mail_link(mail_to(smtp, email)[0]))
    answer = await client.get(f"{link.path}?{link.query}", follow_redirects=False)
    assert answer.status_code == 303
    target = urlsplit(answer.headers["location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == "http://app.medivisit.test/reset-password"
    fragment = parse_qs(target.fragment)
    assert fragment["type"] == ["invite"] and fragment["access_token"] and fragment["refresh_token"]

    headers = {"Authorization": f"Bearer {fragment['access_token'][0]}"}
    user = (await client.get("/auth/v1/user", headers=headers)).json()
    assert user["email"] == email and user["email_confirmed_at"]
    assert user["user_metadata"]["first_name"] == "Grace"
    chosen = await client.put("/auth/v1/user", headers=headers, json={"password": "my-own-pass-1"})
    assert chosen.status_code == 200, chosen.text
    signed_in = await client.post(
        "/auth/v1/token?grant_type=password", json={"email": email, "password": "my-own-pass-1"}
    )
    assert signed_in.status_code == 200, signed_in.text

    # The link works once.
    reused = await client.get(f"{link.path}?{link.query}", follow_redirects=False)
    assert "error_code=otp_expired" in reused.headers["location"]
