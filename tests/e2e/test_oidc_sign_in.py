"""'Continue with <OIDC_NAME>' against a real OpenID Connect provider (panva/oidc-provider, started here)."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, free_port, start_server, stop_server
from tests.e2e.conftest import open_page, screenshot

PROVIDER_DIR = Path(__file__).resolve().parents[1] / "oidc"
PROVIDER_NAME = "Acme ID"


@pytest.fixture(scope="module")
def oidc_site(tmp_path_factory) -> Iterator[LiveServer]:
    """An OIDC provider and a MediVisit server configured to use it."""
    app_port, provider_port = free_port(), free_port()
    log = (tmp_path_factory.mktemp("oidc") / "provider.log").open("w")
    provider = subprocess.Popen(
        ["node", "provider.mjs"],
        cwd=PROVIDER_DIR,
        env={
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "PORT": str(provider_port),
            "CLIENT_ID": "medivisit",
            "CLIENT_SECRET": "test-secret",
            "REDIRECT_URI": f"http://127.0.0.1:{app_port}/auth/oidc/callback",
            # The moved clock of `make test-week` (libfaketime), so its tokens are dated like ours.
            **{name: os.environ[name] for name in ("FAKETIME", "LD_PRELOAD") if name in os.environ},
        },
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    issuer = f"http://127.0.0.1:{provider_port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(f"{issuer}/.well-known/openid-configuration", timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or provider.poll() is not None:
                provider.kill()
                raise RuntimeError("the OpenID Connect provider did not start") from None
            time.sleep(0.1)
    server = start_server(
        tmp_path_factory.mktemp("oidc-site"),
        port=app_port,
        OIDC_ISSUER=issuer,
        OIDC_CLIENT_ID="medivisit",
        OIDC_CLIENT_SECRET="test-secret",
        OIDC_NAME=PROVIDER_NAME,
    )
    yield server
    stop_server(server)
    provider.terminate()
    provider.wait(timeout=10)


def _sign_in_at_provider(page: Page, login: str) -> None:
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("anything")
    page.locator("button[type=submit]").click()


def test_continue_with_provider_signs_in_and_creates_the_account(oidc_site, page) -> None:
    open_page(page, oidc_site.url("/login?redirect=/dashboard/profile"))
    page.get_by_role("link", name=f"Continue with {PROVIDER_NAME}").click()
    _sign_in_at_provider(page, "ana.diaz@clinic.example")
    page.wait_for_url("**/dashboard/profile", timeout=15_000)
    page.get_by_role("button", name="Account menu").click()
    menu = page.locator("#account-menu")
    expect(menu).to_contain_text("Ana Diaz")
    expect(menu).to_contain_text("ana.diaz@clinic.example")
    screenshot(page, "oidc-signed-in")


def test_provider_that_cannot_vouch_for_the_email_is_refused_with_a_message(oidc_site, page) -> None:
    open_page(page, oidc_site.url("/login"))
    page.get_by_role("link", name=f"Continue with {PROVIDER_NAME}").click()
    _sign_in_at_provider(page, "unverified.person@clinic.example")
    page.wait_for_url("**/login", timeout=15_000)
    expect(page.get_by_text("We couldn't sign you in with your organization account.")).to_be_visible()
    expect(page.get_by_role("link", name="Sign In")).to_be_visible()


def test_a_forged_callback_without_the_state_cookie_signs_nobody_in(oidc_site, page) -> None:
    response = page.goto(oidc_site.url("/auth/oidc/callback?code=stolen&state=guess"))
    assert response is not None and page.url.endswith("/login")
    expect(page.get_by_text("We couldn't sign you in with your organization account.")).to_be_visible()
    assert not any(c["name"] == "mv_access" for c in page.context.cookies())
