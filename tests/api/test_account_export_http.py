"""GET /api/account/export (api/account.py) against the ASGI app: a signed-in browser's cookies get a
JSON attachment of its own records (never cached); nobody signed in, or a session signed out meanwhile,
gets 401; beyond the hourly limit, 429 with Retry-After."""

from __future__ import annotations

import json

import httpx
import pytest

from app.services.accounts import sign_out_other_sessions
from app.settings import get_settings
from medivisit.main import create_app
from tests.factories import person, run, sign_in

EXPORT = "/api/account/export"


@pytest.fixture
async def client(identity_env):
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


async def test_a_signed_in_browser_downloads_its_own_records(client, monkeypatch) -> None:
    me = await person(name="Pat Export")
    client.cookies.set("mv_access", me.access_token)
    answer = await client.get(EXPORT, headers={"user-agent": "Mozilla/5.0 (Windows NT 10.0) Firefox/128.0"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["content-disposition"] == 'attachment; filename="medivisit-my-data.json"'
    assert answer.headers["cache-control"] == "private, no-store"
    data = json.loads(answer.text)
    assert data["profile"]["email"] == me.email and data["profile"]["name"] == "Pat Export"

    monkeypatch.setenv("RATE_LIMIT_DATA_EXPORT", "1")
    get_settings.cache_clear()
    limited = await client.get(EXPORT)
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
    assert limited.json()["code"] == "rate_limited"


async def test_nobody_or_an_ended_session_gets_401(client) -> None:
    answer = await client.get(EXPORT)
    assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"
    me = await person()
    keeper = await sign_in(me.id)
    await run(sign_out_other_sessions, actor=keeper)  # signs out `me`'s first session
    client.cookies.set("mv_access", me.access_token)
    assert (await client.get(EXPORT)).status_code == 401
