"""Automatic logoff in the browser (issue 10, finding 4): a signed-in tab left alone shows a warning a
minute before its inactivity limit, "Stay signed in" keeps the session, and at the limit the tab signs out
to /login?redirect=<where it was>, which says why. The page's clock is Playwright's, fast-forwarded."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import DESKTOP, screenshot
from tests.e2e.helpers import sign_in


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("logoff")
    server, _database_url = start_demo_server(tmp, VAR_DIR=str(tmp), REMINDERS_ENABLED="false")
    yield server
    stop_server(server)


def test_an_idle_tab_is_warned_then_signed_out(browser: Browser, demo_site: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    page = context.new_page()
    page.clock.install()  # the page's Date and timers are Playwright's: it runs on, and jumps forward below
    sign_in(page, demo_site, "patient@demo.medivisit.test", "Demo-MediVisit-1")
    expect(page).not_to_have_url(re.compile(r"/login"))
    with page.expect_response(
        lambda answer: answer.url.endswith("/auth/activity")
    ):  # the tab learnt its limit
        page.goto(demo_site.url("/dashboard/appointments"))
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    warning = page.get_by_role("alertdialog", name="Are you still there?")
    page.clock.fast_forward("59:10")  # a patient's limit is 60 minutes: the warning shows in its last minute
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("you'll be signed out in")
    expect(warning.get_by_role("button", name="Stay signed in")).to_be_focused()
    screenshot(page, "idle-warning", animations="disabled")
    warning.get_by_role("button", name="Stay signed in").click()
    expect(warning).to_be_hidden()

    page.clock.fast_forward("59:10")  # the click counted: still signed in, warned again
    expect(warning).to_be_visible()
    page.clock.fast_forward("01:05")
    expect(page).to_have_url(re.compile(r"/login\?redirect=%2Fdashboard%2Fappointments$"))
    expect(page.get_by_text("signed out after a period of inactivity")).to_be_visible()
    # The server ended the session: the dashboard now asks for a sign-in.
    page.goto(demo_site.url("/dashboard/appointments"))
    expect(page).to_have_url(re.compile(r"/login"))
    context.close()
