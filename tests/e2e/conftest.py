"""Playwright driving Debian's Chromium against the live server (`live_server` in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.conftest import ARTIFACTS

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
MOBILE = {"width": 375, "height": 812}

expect.set_options(timeout=10_000)


def pytest_collection_modifyitems(items) -> None:  # noqa: ANN001
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _page(browser: Browser, viewport: dict, **options) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, service_workers="block", **options)
    context.set_default_timeout(10_000)  # actions and waits fail as fast as `expect` does
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
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


def open_page(page: Page, url: str) -> Page:
    """Go to `url` and wait until the live tree (not the first frame in the HTML) shows the frame."""
    page.goto(url)
    page.locator("#app .site-header, #app .app-shell").first.wait_for()
    return page


def screenshot(page: Page, name: str, *, full_page: bool = False, **options) -> None:
    """Save tests/artifacts/<name>.png; `options` go to Playwright (e.g. animations="disabled")."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page, **options)
