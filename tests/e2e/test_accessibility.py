"""axe-core finds no WCAG 2.0/2.1/2.2 A or AA violation (issue 11) on every public route and on the signed-in
screens people use most (dashboard, checkout with items, appointments for patient and provider, the
provider's services, the staff dashboard and the help desk), the open cart panel and checkout's error summary,
in light and dark, at 1280 and 375 px (public
routes in two of the four combinations, which cover both themes and both widths; signed-in screens in all).

axe-core 4 (axe-playwright-python) is injected by Playwright, which the page's Content-Security-Policy does
not govern. Each screen is checked once its content has loaded (no loading spinner left), since a spinner
alone would pass. Violations are collected over every screen and reported together.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import DESKTOP, MOBILE, open_page
from tests.e2e.helpers import sign_in, toasts, wait_for_screen

DEMO_PASSWORD = "Demo-MediVisit-1"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
PUBLIC = (
    "/",
    "/about",
    "/services",
    "/services/iv-therapy",
    "/services/iv-hydration",
    "/providers",
    "/providers/{provider}",
    "/find-provider?zip=10001",
    "/provider-of-month",
    "/become-provider",
    "/provider-faq",
    "/how-it-works",
    "/corporate",
    "/forum",
    "/ai-assistant",
    "/help-center",
    "/contact",
    "/careers",
    "/service-requests",
    "/ad-purchase",
    "/privacy-policy",
    "/terms-of-service",
    "/login",
    "/register",
    "/forgot-password",
    "/no-such-page",
)
SIGNED_IN = {
    "patient@demo.medivisit.test": ("/dashboard", "/appointments", "/checkout", "/dashboard/support"),
    "provider@demo.medivisit.test": ("/appointments", "/dashboard/services"),
    "support@demo.medivisit.test": ("/staff", "/staff/helpdesk"),
}
LOOKS = ((DESKTOP, "light"), (DESKTOP, "dark"), (MOBILE, "light"), (MOBILE, "dark"))
# Public routes share the frame and the kit: each is checked at both widths and in both themes, paired
# (desktop light, phone dark) to keep the suite's budget; the signed-in screens in all four looks.
PUBLIC_LOOKS = ((DESKTOP, "light"), (MOBILE, "dark"))
# Screens with pictures drawn per theme (components/illustrations.py) are checked in all four looks.
ILLUSTRATED = ("/", "/services")


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    server, database_url = start_demo_server(tmp_path_factory.mktemp("a11y"))
    with sqlite3.connect(Path(database_url.removeprefix("sqlite:///"))) as db:
        [provider] = db.execute("SELECT id FROM providers WHERE first_name = 'Priya'").fetchone()
    yield server, provider
    stop_server(server)


def _loaded(page: Page) -> None:
    wait_for_screen(page)
    expect(page.locator('main [role="status"]:has(.portal-spinner)')).to_have_count(0)


def _violations(axe: Axe, page: Page, where: str) -> list[str]:
    found = axe.run(page, options=OPTIONS).response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) at {', '.join(str(n['target'][0]) for n in v['nodes'][:3])}"
        for v in found
    ]


def _check_every_look(axe: Axe, page: Page, where: str, looks=LOOKS) -> list[str]:  # noqa: ANN001
    """axe in each look (width and theme) on the page as loaded (what theme.js does at load, done here)."""
    problems = []
    for viewport, scheme in looks:
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=scheme)
        page.evaluate("(scheme) => document.documentElement.setAttribute('data-theme', scheme)", scheme)
        # Colours ease between themes: axe must read them once the transitions have ended.
        page.wait_for_function(
            "() => document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState === 'finished')"
        )
        problems += _violations(axe, page, f"{where} at {viewport['width']} px, {scheme}")
    return problems


@pytest.mark.timeout(600)
def test_no_wcag_violation_on_any_screen(browser: Browser, demo) -> None:
    server, provider = demo
    axe = Axe()
    problems: list[str] = []
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        for path in PUBLIC:
            open_page(page, server.url(path.format(provider=provider)))
            _loaded(page)
            problems += _check_every_look(axe, page, path, LOOKS if path in ILLUSTRATED else PUBLIC_LOOKS)
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
                problems += _check_every_look(axe, page, "the open cart panel", PUBLIC_LOOKS)
                page.keyboard.press("Escape")
                expect(panel).to_have_count(0)
            for path in paths:
                open_page(page, server.url(path))
                _loaded(page)
                problems += _check_every_look(axe, page, f"{path} as {email.split('@')[0]}")
                if path == "/checkout":  # Place order with nothing chosen: the error summary, fields marked
                    page.set_viewport_size(DESKTOP)
                    page.get_by_role("button", name=re.compile("^Place order")).click()
                    expect(page.locator("#checkout-errors")).to_be_focused()
                    problems += _check_every_look(axe, page, "/checkout's error summary", PUBLIC_LOOKS)
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
