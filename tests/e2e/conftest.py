"""Playwright driving Debian's Chromium against the live server (`live_server` in tests/conftest.py)."""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

from tests.conftest import ARTIFACTS, FAST_HASHING

# Debian's build of Chromium's headless shell (the "old" headless mode, what Playwright itself runs headless
# tests in): the same Blink as /usr/bin/chromium without the desktop browser's layers, for about half the CPU
# per page (`make chromium` installs both; the full browser is the fallback).
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = str(HEADLESS_SHELL) if HEADLESS_SHELL.exists() else "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
MOBILE: ViewportSize = {"width": 375, "height": 812}

expect.set_options(timeout=10_000)


# The longest files, longest first (a worker's time for each, measured with --durations=0 on four processes with
# PostgreSQL: 75 s for test_booking_flow down to 17 s). xdist hands out whole files (--dist loadfile) in
# collection order (--no-loadscope-reorder): starting with the longest lets the short ones fill in at the end,
# so that the processes finish together instead of one running a long file alone.
LONGEST_FIRST = (
    "test_booking_flow.py",
    "test_accessibility.py",
    "test_sign_in.py",
    "test_automation.py",
    "test_corporate.py",
    "test_several_workers.py",
    "test_money_paths.py",
    "test_accessibility_signed_in.py",
    "test_ads.py",
    "test_store.py",
    "test_enrollment.py",
    "test_admin_console_pages.py",
    "test_invoices.py",
    "test_forum.py",
    "test_staff_portal.py",
    "test_phi_hardening.py",
    "test_staff_analytics.py",
    "test_provider_management.py",
    "test_payouts_and_revenue.py",
    "test_help_center.py",
    "test_provider_journey.py",
    "test_helpdesk.py",
    "test_notifications.py",
    "test_careers.py",
    "test_account_pages.py",
    "test_cart.py",
    "test_toasts_and_theme.py",
    "test_service_requests.py",
    "test_keyboard.py",
    "test_verification.py",
)


def pytest_collection_modifyitems(items) -> None:  # noqa: ANN001
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)

    def rank(item) -> int:  # noqa: ANN001
        name = item.path.name
        if "tests/e2e/" not in str(item.fspath):
            return -1  # the other lanes first, in their own order
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: a file's tests keep their order


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashing() -> Iterator[None]:
    """Servers started for the browser tests, and the demo data seeded for them, hash passwords at argon2's
    lowest cost (1 MiB, one pass) instead of 64 MiB and three (0.2 s of CPU for each sign-in): no browser test
    is about that cost, tests/gates/test_login_saturation.py is."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in FAST_HASHING.items():
            patch.setenv(name, value)
        yield


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


_page_errors: weakref.WeakKeyDictionary[Page, list[str]] = weakref.WeakKeyDictionary()


def watch_errors(page: Page) -> list[str]:
    """The uncaught JavaScript errors of `page` from now on (the list grows), also `page_errors(page)`."""
    errors = _page_errors.setdefault(page, [])
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def page_errors(page: Page) -> list[str]:
    """The uncaught JavaScript errors `page` has had since `watch_errors` (every fixture page's are watched)."""
    return _page_errors[page]


def _page(
    browser: Browser,
    viewport: ViewportSize,
    *,
    has_touch: bool | None = None,
    is_mobile: bool | None = None,
    user_agent: str | None = None,
) -> Iterator[Page]:
    context = browser.new_context(
        viewport=viewport,
        service_workers="block",
        has_touch=has_touch,
        is_mobile=is_mobile,
        user_agent=user_agent,
    )
    context.set_default_timeout(10_000)  # actions and waits fail as fast as `expect` does
    page = context.new_page()
    watch_errors(page)
    yield page
    context.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop (1280×800) page; service workers blocked so tests see the network."""
    yield from _page(browser, DESKTOP)


@pytest.fixture
def mobile_page(browser: Browser) -> Iterator[Page]:
    """A phone-sized (375×812) touch page."""
    yield from _page(browser, MOBILE, has_touch=True, is_mobile=True)


def wait_for_live_page(page: Page) -> None:
    """Wait until the live tree (not the first frame in the HTML) shows the frame."""
    page.locator("#app .site-header, #app .app-shell, #app .dash-layout").first.wait_for()


def open_page(page: Page, url: str) -> Page:
    """Go to `url` and wait until the live tree (not the first frame in the HTML) shows the frame."""
    page.goto(url)
    wait_for_live_page(page)
    return page


# Screenshots are for people to look at (`make screenshots`), not assertions: the test command skips them
# (a few hundred full-page PNGs were about a minute of the browser lane).
SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"


def screenshot(page: Page, name: str, *, full_page: bool = False, **options) -> None:
    """Save tests/artifacts/<name>.png when SCREENSHOTS=1; `options` go to Playwright (e.g.
    animations="disabled")."""
    if not SCREENSHOTS:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page, **options)
