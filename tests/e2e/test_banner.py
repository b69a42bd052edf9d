"""The flash-sale banner (SPEC §1, §2 "Flash-sale banner"): sale text, a live countdown to the end of the
visitor's local day, Book Now, a close button remembered for the day, and closing itself at zero (driven
with Playwright's fake clock)."""

from __future__ import annotations

import re
from datetime import date

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import open_page

SALE_TEXT = "24-HOUR FLASH SALE: 30% off IV therapies today only!"
COUNTDOWN = re.compile(r"^\d\d:\d\d:\d\d$")


def banner(page: Page) -> Locator:
    return page.get_by_role("region", name="Flash sale")


def countdown(page: Page) -> Locator:
    return banner(page).locator("time")


def seconds_shown(page: Page) -> int:
    hours, minutes, seconds = (int(part) for part in countdown(page).inner_text().split(":"))
    return hours * 3600 + minutes * 60 + seconds


def seconds_to_local_midnight(page: Page) -> float:
    return page.evaluate(
        """() => {
          const now = new Date();
          const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
          return (midnight - now) / 1000;
        }"""
    )


def test_banner_shows_the_sale_and_a_ticking_countdown_to_local_midnight(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    expect(banner(page)).to_be_visible()
    expect(banner(page)).to_contain_text(SALE_TEXT)
    expect(countdown(page)).to_have_text(COUNTDOWN)

    shown = countdown(page).inner_text()
    expect(countdown(page)).not_to_have_text(shown, timeout=2500)
    expect(countdown(page)).to_have_text(COUNTDOWN)
    difference = abs(seconds_shown(page) - seconds_to_local_midnight(page)) % 86400
    assert min(difference, 86400 - difference) <= 2, "the countdown is not the time left until local midnight"


def test_book_now_leads_to_iv_therapy(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    book_now = banner(page).get_by_role("link", name="Book Now")
    expect(book_now).to_have_attribute("href", "/services/iv-therapy")
    book_now.click()
    expect(page).to_have_url(live_server.url("/services/iv-therapy"))


def test_closed_banner_stays_closed_after_reload_the_same_day(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    banner(page).get_by_role("button", name=re.compile("close", re.I)).click()
    expect(banner(page)).to_be_hidden()

    page.reload()
    page.get_by_role("banner").wait_for()
    expect(page.get_by_role("heading", name="Licensed care, at your door.")).to_be_visible()
    expect(banner(page)).to_be_hidden()


def test_banner_closes_itself_when_the_countdown_reaches_zero(live_server, page) -> None:
    # A string without a zone is the browser's local time, like the countdown.
    page.clock.install(time=f"{date.today().isoformat()}T23:59:40")
    open_page(page, live_server.url("/"))
    expect(banner(page)).to_be_visible()
    expect(countdown(page)).to_have_text(re.compile(r"^00:00:[0-3]\d$"))

    page.clock.run_for(40_000)
    expect(banner(page)).to_be_hidden()
