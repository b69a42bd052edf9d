"""An httpx client talking to the ASGI app in-process, on the test database and SMTP server; live identity
servers and helpers for the /auth/v1 tests."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from email.message import Message
from pathlib import Path

import httpx
import pytest

from app.settings import get_settings
from medivisit.main import create_app
from tests.conftest import LiveServer, SmtpInbox, html_part, start_server, stop_server


@pytest.fixture
async def client(configured) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


# ---- identity service (/auth/v1) ---------------------------------------------------------------
# Fast argon2 and room for the whole suite under the request limits; one test lowers them on its own server.
IDENTITY_TEST_ENV = {
    "PASSWORD_HASH_MEMORY_KIB": "1024",
    "PASSWORD_HASH_TIME_COST": "1",
    "RATE_LIMIT_TOKEN": "100000",
    "RATE_LIMIT_VERIFY": "100000",
    "RATE_LIMIT_OTP": "100000",
    "RATE_LIMIT_MFA": "100000",
    "RATE_LIMIT_EMAIL_SENT": "100000",
    "SITE_URL": "http://app.medivisit.test",
    "URI_ALLOW_LIST": "http://localhost:3000/**",
}


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@medivisit.test"


class IdentityServer(LiveServer):
    """A live server that also says where its SQLite database and its var directory (signing keys) are."""

    def __init__(self, server: LiveServer, *, database_url: str, var_dir: Path) -> None:
        super().__init__(server.base_url, server.log_path, server.process)
        self.database_url = database_url
        self.var_dir = var_dir


def start_identity_server(tmp_dir: Path, smtp_url: str, **env: str) -> IdentityServer:
    """A live server with its own SQLite database and signing key under `tmp_dir`."""
    server = start_server(
        tmp_dir, environment={"SMTP_URL": smtp_url, "VAR_DIR": str(tmp_dir), **IDENTITY_TEST_ENV, **env}
    )
    return IdentityServer(server, database_url=f"sqlite:///{tmp_dir / 'live.db'}", var_dir=tmp_dir)


@pytest.fixture(scope="session")
def auth_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: tuple[SmtpInbox, str]
) -> Iterator[IdentityServer]:
    """Auto-confirm on (sign-up answers a session)."""
    _inbox, smtp_url = smtp_server
    server = start_identity_server(
        tmp_path_factory.mktemp("auth-autoconfirm"), smtp_url, MAILER_AUTOCONFIRM="true"
    )
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def confirm_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: tuple[SmtpInbox, str]
) -> Iterator[IdentityServer]:
    """Auto-confirm off (sign-up sends a confirmation e-mail)."""
    _inbox, smtp_url = smtp_server
    server = start_identity_server(
        tmp_path_factory.mktemp("auth-confirm"), smtp_url, MAILER_AUTOCONFIRM="false"
    )
    yield server
    stop_server(server)


def gotrue(server: LiveServer, **options):  # noqa: ANN201 - a SyncGoTrueClient
    from supabase_auth import SyncGoTrueClient

    return SyncGoTrueClient(
        url=server.url("/auth/v1"),
        headers={"apiKey": "anon", "Authorization": "Bearer anon"},
        auto_refresh_token=False,
        persist_session=False,
        **options,
    )


def mail_to(inbox: SmtpInbox, address: str, count: int = 1, timeout: float = 10) -> list[Message]:
    """The messages delivered to `address` once there are `count` of them."""
    deadline = time.monotonic() + timeout
    while True:
        found = [m for m in list(inbox.messages) if address in (m["To"] or "")]
        if len(found) >= count or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert len(found) >= count, f"expected {count} e-mail(s) to {address}, got {len(found)}"
    return found


def mail_code(message: Message) -> str:
    match = re.search(r"<strong>(\d{6})</strong>", html_part(message))
    assert match, "no 6-digit code in the e-mail"
    return match.group(1)


def mail_link(message: Message) -> str:
    from html import unescape

    match = re.search(r'href="([^"]+/auth/v1/verify\?[^"]+)"', html_part(message))
    assert match, "no verification link in the e-mail"
    return unescape(match.group(1))


@pytest.fixture
def identity_env(configured, monkeypatch, tmp_path) -> Iterator[None]:
    """In-process identity settings: a signing key under tmp_path, fast hashing, generous limits."""
    from app import ratelimit

    for name, value in {**IDENTITY_TEST_ENV, "VAR_DIR": str(tmp_path)}.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    ratelimit.reset()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()
    ratelimit.reset()


@pytest.fixture
async def auth_client(identity_env, client):  # noqa: ANN201 - httpx.AsyncClient on the ASGI app
    client.headers.update({"apikey": "anon", "X-Supabase-Api-Version": "2024-01-01"})
    return client
