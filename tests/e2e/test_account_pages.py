"""The account pages and the signed-in home's welcome (issue 12) in Chromium: "Sign out everywhere else" in
one browser sends the other browser's next action to sign-in; the VIP welcome shows once and not again in a
second browser; the data export downloads the account's own records as JSON; the deletion dialog traps and
returns the focus; the getting-started checklist is a card, not a modal. axe runs on the settings page and
both overlays in light and dark at 1280 and 375 px; screenshots land in tests/artifacts/account-*.png."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, LOOKS, check_every_look, loaded, screenshot_looks
from tests.e2e.conftest import DESKTOP, screenshot
from tests.e2e.helpers import sign_in

PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
VIP = "management@demo.medivisit.test"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    tmp = tmp_path_factory.mktemp("account-pages")
    server, database_url = start_demo_server(tmp, VAR_DIR=str(tmp), REMINDERS_ENABLED="false")
    with sqlite3.connect(Path(database_url.removeprefix("sqlite:///"))) as db:
        db.execute(
            "UPDATE auth_users SET raw_app_meta_data = json_set(raw_app_meta_data, '$.is_vip', json('true'))"
            " WHERE email = ?",
            (VIP,),
        )
    yield server, database_url
    stop_server(server)


def _signed_in(browser: Browser, server: LiveServer, email: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=DESKTOP, service_workers="block", accept_downloads=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    sign_in(page, server, email, DEMO_PASSWORD)
    expect(page).not_to_have_url(re.compile(r"/login"))
    return context, page


def _looks(page: Page, name: str) -> None:
    """Screenshots in the four looks (1280 and 375 px, light and dark)."""
    for viewport, scheme in screenshot_looks(page, LOOKS):
        screenshot(page, f"account-{name}-{viewport['width']}-{scheme}", full_page=name == "settings")
    page.set_viewport_size(DESKTOP)


def test_sign_out_everywhere_else_sends_the_other_browser_to_sign_in(browser: Browser, demo) -> None:
    server, _url = demo
    first, here = _signed_in(browser, server, PROVIDER)
    second, there = _signed_in(browser, server, PROVIDER)
    try:
        for page in (here, there):
            page.goto(server.url("/dashboard/settings"))
            loaded(page)
        sessions = there.get_by_role("region", name="Where you're signed in")
        expect(sessions.get_by_role("listitem")).to_have_count(2)
        expect(sessions.get_by_text("This device")).to_be_visible()
        expect(sessions.get_by_role("button", name=re.compile(r"^Sign out .*last active"))).to_have_count(1)
        problems = check_every_look(there, "settings")
        _looks(there, "settings")
        sessions.get_by_role("button", name="Sign out everywhere else").click()
        expect(sessions.get_by_role("listitem")).to_have_count(1)
        # The other browser's next command is refused: it goes to sign in, and stays signed out.
        here.get_by_role("region", name="Where you're signed in").get_by_role(
            "button", name="Sign out everywhere else"
        ).click()
        expect(here).to_have_url(re.compile(r"/login\?redirect=%2Fdashboard%2Fsettings$"))
        expect(here.get_by_label("Email")).to_be_visible()  # the sign-in form: the session is gone
        # The browser that stayed is still signed in.
        there.reload()
        loaded(there)
        expect(there.get_by_role("heading", name="Settings", level=1)).to_be_visible()
        assert problems == [], "\n".join(problems)
    finally:
        first.close()
        second.close()


def test_vip_welcome_shows_once_and_not_in_a_second_browser(browser: Browser, demo) -> None:
    server, _url = demo
    first, page = _signed_in(browser, server, VIP)
    second = None
    try:
        page.goto(server.url("/dashboard"))
        dialog = page.get_by_role("dialog", name="VIP Access Granted!")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("button", name="Continue to Dashboard")).to_be_focused()
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        expect(dialog.locator(":focus")).to_have_count(1)  # the focus stays inside
        problems = check_every_look(page, "VIP welcome")
        _looks(page, "vip")
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        page.reload()
        expect(page.locator("[data-vip-welcome=seen]")).to_have_count(1)
        expect(dialog).to_have_count(0)
        second, other = _signed_in(browser, server, VIP)
        other.goto(server.url("/dashboard"))
        expect(other.locator("[data-vip-welcome=seen]")).to_have_count(1)
        expect(other.get_by_role("dialog")).to_have_count(0)
        assert problems == [], "\n".join(problems)
    finally:
        first.close()
        if second is not None:
            second.close()


def test_export_downloads_the_accounts_own_data_and_deletion_asks_first(browser: Browser, demo) -> None:
    server, _url = demo
    context, page = _signed_in(browser, server, PATIENT)
    try:
        page.goto(server.url("/dashboard"))
        checklist = page.get_by_role("region", name="Get started")
        expect(checklist.get_by_role("link", name="Add your address")).to_be_visible()
        expect(checklist.get_by_text("Book your first visit")).to_be_visible()  # done: Jordan has visits
        problems = check_every_look(page, "getting-started checklist")
        _looks(page, "checklist")

        page.goto(server.url("/dashboard/settings"))
        loaded(page)
        with page.expect_download() as downloading:
            page.get_by_role("link", name="Download my data (JSON)").click()
        download = downloading.value
        assert download.suggested_filename == "medivisit-my-data.json"
        data = json.loads(Path(download.path()).read_text())
        assert data["profile"]["email"] == PATIENT
        assert data["visits"] and data["tickets"]
        assert all(
            other not in json.dumps(data) for other in ("patients.demo.medivisit.test", "provider@demo")
        )

        opener = page.get_by_role("button", name="Delete my account…")
        opener.click()
        dialog = page.get_by_role("dialog", name="Delete your account?")
        expect(dialog).to_be_visible()
        problems += check_every_look(page, "deletion dialog", LOOKS[:1] + LOOKS[3:])
        screenshot(page, "account-delete-dialog")
        dialog.get_by_label("Type your e-mail address to confirm").fill("wrong@example.com")
        dialog.get_by_role("button", name="Schedule deletion").click()
        expect(page.get_by_text("That is not your account's e-mail address")).to_be_visible()
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(opener).to_be_focused()
        assert problems == [], "\n".join(problems)
    finally:
        context.close()
