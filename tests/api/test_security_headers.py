"""Security headers on every response, HSTS over https only, and the websocket Origin check (hardening
issue, finding 9)."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from medivisit.main import create_app
from medivisit.security_headers import CONTENT_SECURITY_POLICY

PATHS = ("/", "/login", "/healthz", "/static/css/app.css", "/no-such-page", "/functions/v1/send-email")


@pytest.mark.parametrize("path", PATHS)
async def test_every_response_carries_the_security_headers(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    headers = response.headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert "camera=()" in headers["permissions-policy"]
    assert "geolocation=()" in headers["permissions-policy"]
    assert "strict-transport-security" not in headers  # plain http: no HSTS


def test_the_policy_allows_no_inline_script_eval_or_inline_style() -> None:
    directives = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


async def test_https_requests_get_hsts(configured) -> None:
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="https://testserver") as client:
        response = await client.get("/")
    assert response.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"


def test_hsts_behind_a_trusted_proxy(live_server) -> None:
    """uvicorn trusts X-Forwarded-Proto from 127.0.0.1 (FORWARDED_ALLOW_IPS): the page was served over https."""
    plain = urllib.request.urlopen(live_server.url("/healthz"), timeout=10)
    assert plain.headers.get("Strict-Transport-Security") is None
    request = urllib.request.Request(live_server.url("/healthz"), headers={"X-Forwarded-Proto": "https"})
    with urllib.request.urlopen(request, timeout=10) as forwarded:
        assert forwarded.headers["Strict-Transport-Security"].startswith("max-age=31536000")


async def test_docs_keep_working_with_their_own_policy(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs")
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in policy and "frame-ancestors 'none'" in policy


async def _first_frame(url: str, **options) -> dict:  # noqa: ANN003
    async with websockets.connect(url, open_timeout=30, **options) as socket:
        return json.loads(await asyncio.wait_for(socket.recv(), timeout=30))


async def test_a_websocket_from_another_site_is_refused(live_server) -> None:
    stream = live_server.base_url.replace("http://", "ws://") + "/_reactpy/stream/"
    with pytest.raises(InvalidStatus) as refused:
        await _first_frame(stream, origin="https://evil.example")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):
        await _first_frame(stream, origin="null")
    # The site's own pages (and non-browser clients, which send no Origin) connect.
    assert (await _first_frame(stream, origin=live_server.base_url))["type"] == "layout-update"
    assert (await _first_frame(stream))["type"] == "layout-update"


def test_no_screen_renders_a_script_element() -> None:
    """ReactPy's client evals the text of a rendered <script>, which the policy forbids (no 'unsafe-eval'):
    browser behaviour belongs in static/js."""
    root = Path(__file__).resolve().parents[2]
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for package in ("components", "pages", "staff", "helpdesk", "admin", "medivisit")
        for path in (root / package).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bhtml\.script\(", line)
    ]
    assert offenders == []
