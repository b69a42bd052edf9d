"""axe-core in the browser tests (tests/e2e/test_accessibility*.py): WCAG 2.0/2.1/2.2 A and AA checks of a
page in each look (width and theme), with every violation described on one line.

axe-core 4 (axe-playwright-python's copy) is injected by Playwright, which the page's Content-Security-Policy
does not govern, once per loaded document: it stays in the page while the looks change (half a megabyte of
script parsed once instead of once per check).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Page, ViewportSize, expect

from tests.conftest import LiveServer
from tests.e2e.conftest import DESKTOP, MOBILE, SCREENSHOTS, screenshot
from tests.e2e.helpers import sign_in, wait_for_screen

DEMO_PASSWORD = "Demo-MediVisit-1"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
Scheme = Literal["light", "dark"]
SCHEMES: tuple[Scheme, ...] = ("light", "dark")
Look = tuple[ViewportSize, Scheme]
LOOKS: tuple[Look, ...] = ((DESKTOP, "light"), (DESKTOP, "dark"), (MOBILE, "light"), (MOBILE, "dark"))
# Each screen is checked at both widths and in both themes, paired (desktop light, phone dark): contrast
# depends on the theme and structure on the width, and the four combinations doubled the suite's axe time.
# The illustrated public pages are checked in all four looks (test_accessibility.py).
PUBLIC_LOOKS: tuple[Look, ...] = ((DESKTOP, "light"), (MOBILE, "dark"))
# The same looks by name, for screenshot file names: (width, theme), and each width's viewport.
NAMED_LOOKS: tuple[tuple[str, Scheme], ...] = (("desktop", "light"), ("phone", "dark"))
EVERY_NAMED_LOOK: tuple[tuple[str, Scheme], ...] = (
    ("desktop", "light"),
    ("desktop", "dark"),
    ("phone", "light"),
    ("phone", "dark"),
)
WIDTHS: dict[str, ViewportSize] = {"desktop": DESKTOP, "phone": MOBILE}


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
    # axe reads colours: not those of a toast half-way through fading in or out.
    page.wait_for_function(
        "() => document.getAnimations().every(a => !a.effect?.target?.closest?.('.toast') || a.playState !== 'running')"
    )
    found = page.evaluate("(options) => axe.run(document, options)", OPTIONS)["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) at {', '.join(str(n['target'][0]) for n in v['nodes'][:3])}"
        for v in found
    ]


def set_look(page: Page, viewport: ViewportSize, scheme: Scheme) -> None:
    """Show the page at `viewport` in the `scheme` theme (what theme.js does at load, done here)."""
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme=scheme)
    page.evaluate("(scheme) => document.documentElement.setAttribute('data-theme', scheme)", scheme)
    # Colours ease between themes: read them (axe, a screenshot) once the transitions have ended.
    page.wait_for_function(
        "() => document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState === 'finished')"
    )


def check_every_look(page: Page, where: str, looks: Sequence[Look] = PUBLIC_LOOKS) -> list[str]:
    """axe in each look (width and theme) on the page as loaded (what theme.js does at load, done here);
    the page is left in the look it had."""
    size, theme = (
        page.viewport_size,
        page.evaluate("() => document.documentElement.getAttribute('data-theme')"),
    )
    problems: list[str] = []
    for viewport, scheme in looks:
        set_look(page, viewport, scheme)
        problems += violations(page, f"{where} at {viewport['width']} px, {scheme}")
    if (looks[-1][0], looks[-1][1]) != (size, theme) and size is not None:
        set_look(page, size, theme)
    return problems


def screenshot_looks(page: Page, looks: Sequence[Look] = LOOKS) -> Iterator[Look]:
    """Each look in turn, set on the page, for screenshots; none unless SCREENSHOTS=1 (setting a look waits
    for the theme's colour transitions)."""
    if not SCREENSHOTS:
        return
    for viewport, scheme in looks:
        set_look(page, viewport, scheme)
        yield viewport, scheme


def signed_in_at(page: Page, server: LiveServer, email: str, path: str) -> None:
    """Sign in as a demo account (the demo password) straight to `path`, its content loaded."""
    sign_in(page, server, email, DEMO_PASSWORD, path=f"/login?redirect={path}")
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))
    loaded(page)


def full_page_screenshots(page: Page, name: str) -> None:
    """With SCREENSHOTS=1, `<name>-desktop|mobile-light|dark` of the whole page; back to desktop light."""
    if not SCREENSHOTS:
        return
    for viewport, scheme in screenshot_looks(page):
        size = "mobile" if viewport == MOBILE else "desktop"
        screenshot(page, f"{name}-{size}-{scheme}", full_page=True, animations="disabled")
    set_look(page, DESKTOP, "light")
