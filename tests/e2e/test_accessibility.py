"""axe-core finds no WCAG 2.0/2.1/2.2 A or AA violation (issue 11) on every public route, in light and dark,
at 1280 and 375 px (each route in two of the four combinations, which cover both themes and both widths).
The signed-in screens are checked in test_accessibility_signed_in.py (a file of its own, so that the two
halves run side by side on the test processes). Each screen is checked once its content has loaded (no
loading spinner left), since a spinner alone would pass. Violations are collected over every screen and
reported together.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import LOOKS, PUBLIC_LOOKS, check_every_look, demo_provider_id, loaded
from tests.e2e.conftest import DESKTOP, open_page

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
# Screens with pictures drawn per theme (components/illustrations.py) are checked in all four looks.
ILLUSTRATED = ("/", "/services")


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    """A demo server, and the id of its demo provider (for /providers/{provider})."""
    server, database_url = start_demo_server(tmp_path_factory.mktemp("a11y"))
    yield server, demo_provider_id(database_url)
    stop_server(server)


@pytest.mark.timeout(600)
def test_no_wcag_violation_on_any_public_screen(browser: Browser, demo) -> None:
    server, provider = demo
    problems: list[str] = []
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        for path in PUBLIC:
            open_page(page, server.url(path.format(provider=provider)))
            loaded(page)
            problems += check_every_look(page, path, LOOKS if path in ILLUSTRATED else PUBLIC_LOOKS)
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
