"""The admin console in Chromium (/admin, issue 15 item 3) on a demo server: the owner switches sign-ups to
the waitlist and a visitor's /register becomes the waitlist form at once, with no restart; the owner gives the
server's setting back. axe in light and dark at 1280 and 375 px; screenshots in tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, NAMED_LOOKS, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("admin"))
    yield server
    stop_server(server)


def test_the_owner_switches_signups_to_the_waitlist_without_a_restart(
    browser: Browser, demo: LiveServer
) -> None:
    owner = browser.new_page(viewport=DESKTOP)
    sign_in(owner, demo, "owner@demo.medivisit.test", DEMO_PASSWORD)
    open_page(owner, demo.url("/admin"))
    toggles = owner.get_by_role("region", name="Feature toggles")
    expect(toggles.get_by_label("Sign-ups", exact=True)).to_have_value("open")
    expect(toggles.get_by_label("Flash sale", exact=True)).to_have_value("on")
    loaded(owner)
    problems = check_every_look(owner, "admin console")
    if SCREENSHOTS:
        for width, scheme in NAMED_LOOKS:
            set_look(owner, WIDTHS[width], scheme)
            screenshot(owner, f"admin-console-{width}-{scheme}", full_page=True)
        set_look(owner, DESKTOP, "light")

    visitor = browser.new_context(viewport=DESKTOP).new_page()
    open_page(visitor, demo.url("/register"))
    expect(visitor.get_by_role("button", name="Create account")).to_be_visible()

    toggles.get_by_label("Sign-ups", exact=True).select_option("waitlist")
    toggles.get_by_role("button", name="Save Sign-ups").click()
    expect(toasts(owner, "Sign-ups: Waitlist")).to_be_visible()
    expect(
        toggles.get_by_text(
            re.compile(r"Set by owner@demo\.medivisit\.test on .*the server's setting is Open")
        )
    ).to_be_visible()
    expect(owner.get_by_role("region", name="Waitlist")).to_contain_text("Sign-ups go through the waitlist.")

    open_page(visitor, demo.url("/register"))
    expect(visitor.get_by_role("button", name="Join the waitlist")).to_be_visible()

    toggles.get_by_role("button", name="Sign-ups: use the server's setting").click()
    expect(toasts(owner, "Sign-ups: Open")).to_be_visible()
    open_page(visitor, demo.url("/register"))
    expect(visitor.get_by_role("button", name="Create account")).to_be_visible()
    assert not problems, "\n".join(problems)
