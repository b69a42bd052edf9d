"""Refresh-token rotation, reuse detection and sign-out scopes (gotrue-compat §5) with the official client."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import create_engine, update
from supabase_auth.errors import AuthApiError

from models.identity import RefreshToken
from tests.api.conftest import gotrue, unique_email


def _age_refresh_tokens(server, seconds: int) -> None:
    """Move every refresh token's last change into the past (beyond the reuse interval)."""
    engine = create_engine(server.database_url)
    with engine.begin() as conn:
        conn.execute(update(RefreshToken).values(updated_at=datetime.now(UTC) - timedelta(seconds=seconds)))
    engine.dispose()


def _decode(token: str) -> dict:
    import jwt as pyjwt

    return pyjwt.decode(token, options={"verify_signature": False})


def test_refresh_rotates_and_reuse_after_the_interval_revokes_the_family(auth_server) -> None:
    email = unique_email("refresh")
    client = gotrue(auth_server)
    first = client.sign_up({"email": email, "password": "secret-1234"}).session
    t0 = first.refresh_token

    second = client.refresh_session(t0).session
    t1 = second.refresh_token
    assert t1 != t0
    assert _decode(second.access_token)["session_id"] == _decode(first.access_token)["session_id"]
    t2 = client.refresh_session(t1).session.refresh_token
    assert len({t0, t1, t2}) == 3

    # t1 is the parent of the live token: a client that lost the answer gets the same live token back.
    assert client.refresh_session(t1).session.refresh_token == t2
    # An older revoked token inside the reuse interval (10 s) still works: a new child.
    t3 = client.refresh_session(t0).session.refresh_token
    assert t3 not in {t0, t1, t2}

    _age_refresh_tokens(auth_server, seconds=60)
    # t1 is no longer the parent of the newest live token (t3, a child of t0): plain reuse.
    with pytest.raises(AuthApiError) as reused:
        client.refresh_session(t1)
    assert reused.value.status == 400 and reused.value.code == "refresh_token_already_used"
    # The whole family is revoked, the live tokens included.
    for token in (t2, t3, t0):
        with pytest.raises(AuthApiError) as revoked:
            client.refresh_session(token)
        assert revoked.value.code == "refresh_token_already_used"

    with pytest.raises(AuthApiError) as unknown:
        client.refresh_session("not-a-token-we-issued")
    assert unknown.value.code == "refresh_token_not_found"


def test_refresh_keeps_user_changes_and_session(auth_server) -> None:
    client = gotrue(auth_server)
    client.sign_up({"email": unique_email("keep"), "password": "secret-1234"})
    client.update_user({"data": {"tier": "pro"}})
    refreshed = client.refresh_session().session
    claims = _decode(refreshed.access_token)
    assert claims["user_metadata"]["tier"] == "pro" and claims["amr"][0]["method"] == "password"


def _sign_in(server, email: str):  # noqa: ANN202
    client = gotrue(server)
    session = client.sign_in_with_password({"email": email, "password": "secret-1234"}).session
    return client, session


def _status(server, access_token: str) -> tuple[int, str | None]:
    response = httpx.get(server.url("/auth/v1/user"), headers={"Authorization": f"Bearer {access_token}"})
    return response.status_code, response.json().get("code")


def test_sign_out_scopes(auth_server) -> None:
    email = unique_email("logout")
    gotrue(auth_server).sign_up({"email": email, "password": "secret-1234"})
    a, sa = _sign_in(auth_server, email)
    b, sb = _sign_in(auth_server, email)
    c, sc = _sign_in(auth_server, email)

    c.sign_out({"scope": "others"})
    assert _status(auth_server, sa.access_token) == (403, "session_not_found")
    assert _status(auth_server, sb.access_token) == (403, "session_not_found")
    assert _status(auth_server, sc.access_token)[0] == 200
    assert c.get_session() is not None  # `others` keeps this device signed in

    d, sd = _sign_in(auth_server, email)
    d.sign_out({"scope": "local"})
    assert d.get_session() is None
    assert _status(auth_server, sd.access_token) == (403, "session_not_found")
    with pytest.raises(AuthApiError) as refresh_after_logout:
        gotrue(auth_server).refresh_session(sd.refresh_token)
    assert refresh_after_logout.value.status == 400
    assert _status(auth_server, sc.access_token)[0] == 200

    e, se = _sign_in(auth_server, email)
    c.sign_out()  # global
    assert c.get_session() is None
    assert _status(auth_server, sc.access_token) == (403, "session_not_found")
    assert _status(auth_server, se.access_token) == (403, "session_not_found")
    with pytest.raises(AuthApiError) as gone:
        e.get_user()
    assert gone.value.code == "session_not_found"

    response = httpx.post(
        auth_server.url("/auth/v1/logout?scope=everything"),
        headers={"Authorization": f"Bearer {_sign_in(auth_server, email)[1].access_token}"},
    )
    assert response.status_code == 400 and response.json()["code"] == "validation_failed"


def test_concurrent_refreshes_of_one_token_agree(auth_server) -> None:
    """Refreshes of one session are serialised: racing clients all get the same child token."""
    from concurrent.futures import ThreadPoolExecutor

    client = gotrue(auth_server)
    token = client.sign_up({"email": unique_email("race"), "password": "secret-1234"}).session.refresh_token

    def refresh_once(_: int) -> tuple[int, str | None]:
        response = httpx.post(
            auth_server.url("/auth/v1/token?grant_type=refresh_token"),
            json={"refresh_token": token},
            timeout=30,
        )
        return response.status_code, response.json().get("refresh_token")

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(refresh_once, range(8)))
    assert {status for status, _ in results} == {200}
    assert len({child for _, child in results}) == 1
