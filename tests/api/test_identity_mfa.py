"""TOTP MFA (gotrue-compat §6) with the official client; codes computed with pyotp from the secret."""

from __future__ import annotations

import time

import httpx
import jwt as pyjwt
import pyotp
import pytest
from supabase_auth.errors import AuthApiError

from tests.api.conftest import gotrue, unique_email


def _claims(token: str) -> dict:
    return pyjwt.decode(token, options={"verify_signature": False})


def _other_code(secret: str) -> str:
    """A code that is wrong in every time step the server could accept."""
    totp = pyotp.TOTP(secret)
    valid = {totp.at(time.time() + offset) for offset in (-60, -30, 0, 30, 60)}
    return next(f"{n:06d}" for n in range(1_000_000) if f"{n:06d}" not in valid)


def test_totp_enroll_challenge_verify_and_unenroll(auth_server) -> None:
    email = unique_email("mfa")
    client = gotrue(auth_server)
    client.sign_up({"email": email, "password": "secret-1234"})
    other_device = gotrue(auth_server)
    other = other_device.sign_in_with_password({"email": email, "password": "secret-1234"}).session

    enrolled = client.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone", "issuer": "MediVisit"})
    assert enrolled.type == "totp" and enrolled.friendly_name == "Phone"
    assert enrolled.totp.qr_code.startswith(
        'data:image/svg+xml;utf-8,<svg xmlns="http://www.w3.org/2000/svg"'
    )
    assert enrolled.totp.uri.startswith(f"otpauth://totp/MediVisit:{email}?")
    assert (
        "algorithm=SHA1" in enrolled.totp.uri
        and "digits=6" in enrolled.totp.uri
        and "period=30" in enrolled.totp.uri
    )
    assert f"secret={enrolled.totp.secret}" in enrolled.totp.uri and len(enrolled.totp.secret) == 32
    [factor] = client.mfa.list_factors().all
    assert factor.id == enrolled.id and factor.status == "unverified"
    assert client.mfa.list_factors().totp == []

    with pytest.raises(AuthApiError) as duplicate:
        client.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone"})
    assert duplicate.value.status == 422 and duplicate.value.code == "mfa_factor_name_conflict"

    challenge = client.mfa.challenge({"factor_id": enrolled.id})
    assert challenge.expires_at > 0
    with pytest.raises(AuthApiError) as wrong:
        client.mfa.verify(
            {
                "factor_id": enrolled.id,
                "challenge_id": challenge.id,
                "code": _other_code(enrolled.totp.secret),
            }
        )
    assert wrong.value.status == 422 and wrong.value.code == "mfa_verification_failed"

    before = client.get_session()
    verified = client.mfa.verify(
        {
            "factor_id": enrolled.id,
            "challenge_id": challenge.id,
            "code": pyotp.TOTP(enrolled.totp.secret).now(),
        }
    )
    claims = _claims(verified.access_token)
    assert claims["aal"] == "aal2"
    assert [entry["method"] for entry in claims["amr"]] == ["totp", "password"]
    assert claims["session_id"] == _claims(before.access_token)["session_id"]
    assert verified.refresh_token != before.refresh_token  # rotated
    level = client.mfa.get_authenticator_assurance_level()
    assert level.current_level == "aal2" and level.next_level == "aal2"
    assert [f.status for f in client.mfa.list_factors().totp] == ["verified"]

    # The used challenge cannot be replayed; the aal1 session of the other device is gone.
    with pytest.raises(AuthApiError) as replay:
        client.mfa.verify(
            {
                "factor_id": enrolled.id,
                "challenge_id": challenge.id,
                "code": pyotp.TOTP(enrolled.totp.secret).now(),
            }
        )
    assert replay.value.code == "mfa_ip_address_mismatch"
    with pytest.raises(AuthApiError) as gone:
        other_device.get_user(other.access_token)
    assert gone.value.code == "session_not_found"

    # aal2 survives a refresh.
    assert _claims(client.refresh_session().session.access_token)["aal"] == "aal2"

    # A new password sign-in is aal1 until the second factor: it may not change the password or unenroll.
    weak = gotrue(auth_server)
    weak.sign_in_with_password({"email": email, "password": "secret-1234"})
    level = weak.mfa.get_authenticator_assurance_level()
    assert level.current_level == "aal1" and level.next_level == "aal2"
    with pytest.raises(AuthApiError) as no_password:
        weak.update_user({"password": "changed-at-aal1"})
    assert no_password.value.status == 401 and no_password.value.code == "insufficient_aal"
    with pytest.raises(AuthApiError) as no_unenroll:
        weak.mfa.unenroll({"factor_id": enrolled.id})
    assert no_unenroll.value.status == 422 and no_unenroll.value.code == "insufficient_aal"
    with pytest.raises(AuthApiError) as no_enroll:
        weak.mfa.enroll({"factor_type": "totp", "friendly_name": "Second"})
    assert no_enroll.value.status == 403 and no_enroll.value.code == "insufficient_aal"
    # Second factor on the new device: challenge and verify in one call.
    stepped_up = weak.mfa.challenge_and_verify(
        {"factor_id": enrolled.id, "code": pyotp.TOTP(enrolled.totp.secret).now()}
    )
    assert _claims(stepped_up.access_token)["aal"] == "aal2"

    assert client.mfa.unenroll({"factor_id": enrolled.id}).id == enrolled.id
    assert client.mfa.list_factors().all == []
    # Sessions that reached aal2 with the factor fall back to aal1.
    assert _claims(client.refresh_session().session.access_token)["aal"] == "aal1"


def test_mfa_errors(auth_server) -> None:
    client = gotrue(auth_server)
    session = client.sign_up({"email": unique_email("mfa-err"), "password": "secret-1234"}).session
    with pytest.raises(AuthApiError) as missing:
        client.mfa.challenge({"factor_id": "00000000-0000-4000-8000-000000000000"})
    assert missing.value.status == 404 and missing.value.code == "mfa_factor_not_found"

    enrolled = client.mfa.enroll({"factor_type": "totp"})
    assert enrolled.friendly_name == ""
    headers = {"Authorization": f"Bearer {session.access_token}"}
    url = auth_server.url(f"/auth/v1/factors/{enrolled.id}/verify")
    unknown = httpx.post(url, headers=headers, json={"challenge_id": enrolled.id, "code": "123456"})
    assert unknown.status_code == 422 and unknown.json()["code"] == "mfa_factor_not_found"
    challenge = client.mfa.challenge({"factor_id": enrolled.id})
    empty = httpx.post(url, headers=headers, json={"challenge_id": challenge.id, "code": ""})
    assert empty.status_code == 400
    phone = httpx.post(auth_server.url("/auth/v1/factors"), headers=headers, json={"factor_type": "phone"})
    assert phone.status_code == 422 and phone.json()["code"] == "mfa_phone_enroll_not_enabled"
    # An unverified factor can be removed at aal1.
    assert client.mfa.unenroll({"factor_id": enrolled.id}).id == enrolled.id
