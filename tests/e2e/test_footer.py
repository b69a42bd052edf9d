"""The footer (SPEC §2 "Footer"): a 4-column grid, every footer link, the copyright year, four social
links opening in a new tab, and Report Bug opening its dialog."""

from __future__ import annotations

import re
from datetime import date

from playwright.sync_api import expect

from tests.e2e.conftest import open_page
from tests.e2e.helpers import bounds, open_bug_report

FOOTER_PATHS = (
    "/services",
    "/service-requests",
    "/corporate",
    "/about",
    "/careers",
    "/contact",
    "/provider-faq",
    "/ad-purchase",
    "/how-it-works",
    "/become-provider",
    "/help-center",
    "/privacy-policy",
    "/terms-of-service",
)


def test_footer_has_four_columns_side_by_side(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    footer = page.get_by_role("contentinfo")
    columns = footer.locator(".footer-grid > *")
    expect(columns).to_have_count(4)
    boxes = [bounds(columns.nth(i)) for i in range(4)]
    assert len({round(box["y"]) for box in boxes}) == 1, "the four columns are not on one row"
    assert [box["x"] for box in boxes] == sorted(box["x"] for box in boxes)
    assert all(box["width"] > 120 for box in boxes)


def test_footer_links_every_spec_page(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    footer = page.get_by_role("contentinfo")
    for path in FOOTER_PATHS:
        expect(footer.locator(f'a[href="{path}"]').first).to_be_visible()
    expect(footer.get_by_role("link", name="All Services")).to_have_attribute("href", "/services")
    expect(footer.get_by_role("link", name="Find Providers")).to_have_attribute("href", "/services")


def test_footer_copyright_shows_the_current_year(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    expect(
        page.get_by_role("contentinfo").get_by_text(re.compile(rf"©\s*{date.today().year}\b"))
    ).to_be_visible()


def test_footer_has_four_social_links_opening_in_a_new_tab(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    social = page.get_by_role("contentinfo").locator('a[href^="http"]')
    expect(social).to_have_count(4)
    for i in range(4):
        link = social.nth(i)
        expect(link).to_be_visible()
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", re.compile(r"\bnoopener\b"))
        expect(link).to_have_accessible_name(re.compile(r"\S"))


def test_footer_report_bug_opens_the_dialog(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    dialog = open_bug_report(page)
    expect(dialog.get_by_label("Issue title")).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
