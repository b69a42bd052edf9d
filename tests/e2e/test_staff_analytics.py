"""Staff analytics in Chromium (issue 15 part 2) on a demo server: a visitor's search for a ZIP code nobody
serves shows up as unmet demand; the owner opens /staff/analytics, sees the range's figures, moves through
the tabs, picks a quick range and a bad range (the service's message), and downloads the CSV, whose totals
are the figures on the cards; HR sees the section, support does not (Access Denied, back to /staff, 403 on
the CSV). axe in light and dark at 1280 and 375 px; screenshots in tests/artifacts/.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, MOBILE, SCREENSHOTS, open_page, screenshot
from tests.e2e.test_staff_portal import sidebar_links, staff_sign_in

UNSERVED = "99501"  # Anchorage: no demo provider travels there


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("analytics"))
    yield server
    stop_server(server)


def looks(page: Page, name: str) -> list[str]:
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for size, viewport in (("desktop", DESKTOP), ("phone", MOBILE)):
        for scheme in ("light", "dark"):
            set_look(page, viewport, scheme)
            screenshot(page, f"{name}-{size}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def card(page: Page, name: str):  # noqa: ANN201 - Locator
    return page.get_by_role("article", name=name)


def owner_on(browser: Browser, demo: LiveServer, path: str) -> Page:
    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, demo, "owner", path)
    expect(owner.get_by_role("heading", name="Analytics", level=1)).to_be_visible()
    loaded(owner)
    return owner


def test_a_search_nobody_serves_shows_on_the_owners_analytics_and_csv(
    browser: Browser, demo: LiveServer
) -> None:
    problems: list[str] = []

    visitor = browser.new_page(viewport=DESKTOP)
    open_page(visitor, demo.url(f"/find-provider?zip={UNSERVED}"))
    expect(visitor.get_by_role("heading", name="No providers match these filters")).to_be_visible()
    visitor.close()

    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, demo, "owner", "/staff")
    sidebar_links(owner).filter(has_text="Analytics").click()
    expect(owner).to_have_url(re.compile(r"/staff/analytics$"))
    expect(owner.get_by_role("heading", name="Analytics", level=1)).to_be_visible()
    loaded(owner)
    last_30 = owner.get_by_role("link", name="Last 30 days")
    expect(last_30).to_have_attribute("aria-current", "true")
    expect(card(owner, "Visits booked")).to_contain_text(re.compile(r"\d"))
    expect(card(owner, "Completion rate")).to_contain_text(re.compile(r"\d+\.\d%|—"))
    expect(card(owner, "Searches with no provider")).to_contain_text("1")
    expect(owner.get_by_role("heading", name="How these are counted")).to_be_visible()
    expect(owner.get_by_role("tab", name="Visits")).to_have_attribute("aria-selected", "true")
    expect(owner.get_by_role("img", name=re.compile(r"^Visits due per period"))).to_be_visible()
    expect(owner.get_by_role("table", name="Visits per period, newest first")).to_be_visible()
    problems += looks(owner, "staff-analytics-visits")

    # The CSV of the same range: its totals are the cards' figures.
    download = owner.get_by_role("link", name="Download CSV, figures per period")
    href = download.get_attribute("href")
    assert href is not None
    answer = owner.request.get(demo.url(href))
    assert answer.status == 200
    total = list(csv.DictReader(io.StringIO(answer.text())))[-1]
    assert total["period_start"] == "total"
    expect(card(owner, "Visits booked")).to_contain_text(f"{int(total['visits_booked']):,}")
    expect(card(owner, "Patients seen")).to_contain_text(
        f"{int(total['new_patients']):,} new, {int(total['returning_patients']):,} returning"
    )
    assert total["searches_with_no_provider"] == "1"

    owner.get_by_role("tab", name="Unmet demand").click()
    expect(owner).to_have_url(re.compile(r"view=demand"))
    table = owner.get_by_role("table", name="ZIP codes searched most often without finding a provider")
    expect(table.get_by_role("row", name=re.compile(UNSERVED))).to_contain_text("1")
    loaded(owner)
    problems += looks(owner, "staff-analytics-demand")
    owner.close()
    assert not problems, "\n".join(problems)


def test_owner_reads_providers_and_the_help_desk(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    owner = owner_on(browser, demo, "/staff/analytics?view=visits")
    owner.get_by_role("tab", name="Provider utilisation").click()
    expect(owner).to_have_url(re.compile(r"view=providers"))
    providers = owner.get_by_role(
        "table", name="Listed providers with the most booked time in the range (at most 50)"
    )
    expect(providers).to_contain_text("Priya Shah")
    loaded(owner)
    problems += looks(owner, "staff-analytics-providers")

    owner.get_by_role("tab", name="Help desk").click()
    expect(owner.get_by_role("table", name="Help-desk tickets per period, newest first")).to_be_visible()
    loaded(owner)
    problems += looks(owner, "staff-analytics-helpdesk")
    owner.close()
    assert not problems, "\n".join(problems)


def test_owner_picks_ranges_and_a_bad_one_says_why(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    owner = owner_on(browser, demo, "/staff/analytics")
    owner.get_by_role("tab", name="Patients").click()
    expect(owner.get_by_role("img", name=re.compile(r"^Patients seen per period"))).to_be_visible()

    owner.get_by_role("link", name="Last 90 days").click()
    expect(owner).to_have_url(re.compile(r"view=patients"))
    expect(owner.get_by_role("link", name="Last 90 days")).to_have_attribute("aria-current", "true")
    owner.get_by_label("Periods").select_option("week")
    owner.get_by_role("button", name="Show").click()
    expect(owner).to_have_url(re.compile(r"by=week"))
    expect(owner.get_by_role("table", name="Patients per period, newest first")).to_contain_text("Week of")
    loaded(owner)
    problems += looks(owner, "staff-analytics-patients-weekly")

    owner.get_by_label("From", exact=True).fill("2026-03-10")
    owner.get_by_label("To", exact=True).fill("2026-03-01")
    owner.get_by_role("button", name="Show").click()
    alert = owner.get_by_role("alert").filter(has_text="This range cannot be shown")
    expect(alert).to_contain_text("The end date must be on or after the start date.")
    problems += looks(owner, "staff-analytics-bad-range")
    owner.close()
    assert not problems, "\n".join(problems)


def test_hr_may_read_analytics_and_support_may_not(browser: Browser, demo: LiveServer) -> None:
    hr = browser.new_page(viewport=DESKTOP)
    staff_sign_in(hr, demo, "hr", "/staff/analytics")
    expect(hr.get_by_role("heading", name="Analytics", level=1)).to_be_visible()
    expect(sidebar_links(hr).filter(has_text="Analytics")).to_have_count(1)
    hr.close()

    support = browser.new_page(viewport=DESKTOP)
    staff_sign_in(support, demo, "support", "/staff")
    expect(sidebar_links(support).filter(has_text="Analytics")).to_have_count(0)
    open_page(support, demo.url("/staff/analytics"))
    expect(support).to_have_url(re.compile(r"/staff$"))
    expect(support.get_by_text("You don't have permission to access Analytics.")).to_be_visible()
    assert support.request.get(demo.url("/api/analytics/export.csv")).status == 403
    support.close()
