"""axe-core in the browser tests (tests/e2e/test_accessibility*.py): WCAG 2.0/2.1/2.2 A and AA checks of a
page in each look (width and theme), with every violation described on one line.

axe-core 4 (axe-playwright-python's copy) is injected by Playwright, which the page's Content-Security-Policy
does not govern, once per loaded document: it stays in the page while the looks change (half a megabyte of
script parsed once instead of once per check).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DESKTOP, MOBILE
from tests.e2e.helpers import wait_for_screen

DEMO_PASSWORD = "Demo-MediVisit-1"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
LOOKS = ((DESKTOP, "light"), (DESKTOP, "dark"), (MOBILE, "light"), (MOBILE, "dark"))
# Public routes share the frame and the kit: each is checked at both widths and in both themes, paired
# (desktop light, phone dark) to keep the suite's budget; the signed-in screens in all four looks.
PUBLIC_LOOKS = ((DESKTOP, "light"), (MOBILE, "dark"))


def demo_provider_id(database_url: str) -> str:
    """The id of the demo provider Priya Shah in a demo database."""
    with sqlite3.connect(Path(database_url.removeprefix("sqlite:///"))) as db:
        [provider] = db.execute("SELECT id FROM providers WHERE first_name = 'Priya'").fetchone()
    return provider


def loaded(page: Page) -> None:
    """Wait for the screen's content (no loading spinner left): a spinner alone would pass."""
    wait_for_screen(page)
    expect(page.locator('main [role="status"]:has(.portal-spinner)')).to_have_count(0)


def violations(page: Page, where: str) -> list[str]:
    """axe-core's WCAG A/AA violations on the page as it is now, one line each."""
    if not page.evaluate("() => typeof window.axe === 'object'"):  # a new document since the last check
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate("(options) => axe.run(document, options)", OPTIONS)["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) at {', '.join(str(n['target'][0]) for n in v['nodes'][:3])}"
        for v in found
    ]


def check_every_look(page: Page, where: str, looks=LOOKS) -> list[str]:  # noqa: ANN001
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
        problems += violations(page, f"{where} at {viewport['width']} px, {scheme}")
    return problems
