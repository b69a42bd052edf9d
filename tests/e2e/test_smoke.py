"""The home page renders in a real browser at desktop and phone widths (screenshots in tests/artifacts/)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import open_page, page_errors, screenshot


def test_home_renders_at_desktop_and_mobile(live_server, page, mobile_page) -> None:
    open_page(page, live_server.url("/"))
    expect(page.get_by_role("heading", name="Licensed care, at your door.")).to_be_visible()
    expect(page).to_have_title("Mobile healthcare at your door | MediVisit")
    screenshot(page, "home-desktop", full_page=True)

    open_page(mobile_page, live_server.url("/"))
    expect(mobile_page.get_by_role("navigation", name="Quick navigation")).to_be_visible()
    screenshot(mobile_page, "home-mobile")
    assert page_errors(page) == [] and page_errors(mobile_page) == []
