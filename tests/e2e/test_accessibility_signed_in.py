"""axe-core finds no WCAG 2.0/2.1/2.2 A or AA violation (issue 11) on the signed-in screens people use most
(dashboard, checkout with items, appointments for patient and provider, the provider's services, the staff
dashboard and the help desk) in light and dark at 1280 and 375 px, nor on the open cart panel and checkout's
error summary (in two of the four looks, like the public routes in test_accessibility.py). Each screen is
checked once its content has loaded (no loading spinner left). Violations are collected over every screen and
reported together.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, PUBLIC_LOOKS, check_every_look, loaded
from tests.e2e.conftest import DESKTOP, open_page
from tests.e2e.helpers import sign_in, toasts

SIGNED_IN = {
    "patient@demo.medivisit.test": ("/dashboard", "/appointments", "/checkout", "/dashboard/support"),
    "provider@demo.medivisit.test": ("/dashboard", "/appointments", "/dashboard/services"),
    "support@demo.medivisit.test": ("/staff", "/staff/helpdesk"),
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    """A demo server of this file's own: the patient's cart gets an item here."""
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("a11y-signed-in"))
    yield server
    stop_server(server)


@pytest.mark.timeout(600)
def test_no_wcag_violation_on_the_signed_in_screens(browser: Browser, demo: LiveServer) -> None:
    server = demo
    problems: list[str] = []
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        for email, paths in SIGNED_IN.items():
            context.clear_cookies()
            page.set_viewport_size(DESKTOP)
            sign_in(page, server, email, DEMO_PASSWORD)
            expect(toasts(page, "Authentication successful")).to_be_visible()
            if email.startswith("patient"):
                open_page(page, server.url("/services/iv-therapy"))
                page.get_by_role("button", name=re.compile("Add to cart")).first.click()
                panel = page.get_by_role("dialog", name="Your Cart")
                expect(panel.get_by_role("listitem").first).to_be_visible()
                problems += check_every_look(page, "the open cart panel", PUBLIC_LOOKS)
                page.keyboard.press("Escape")
                expect(panel).to_have_count(0)
            for path in paths:
                open_page(page, server.url(path))
                loaded(page)
                problems += check_every_look(page, f"{path} as {email.split('@')[0]}")
                if path == "/checkout":  # Place order with nothing chosen: the error summary, fields marked
                    page.set_viewport_size(DESKTOP)
                    page.get_by_role("button", name=re.compile("^Place order")).click()
                    expect(page.locator("#checkout-errors")).to_be_focused()
                    problems += check_every_look(page, "/checkout's error summary", PUBLIC_LOOKS)
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
