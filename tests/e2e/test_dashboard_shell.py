"""The dashboard frame in Chromium (issue 12): Ctrl/Cmd+B collapses the sidebar to an icon rail and the
cookie 'sidebar:state' brings it back collapsed after a reload without a flash (the HTML is served
collapsed); the rail's tooltips; the "Go to" search; the phone drawer and the six-slot bottom bar on
/dashboard beside the public five-entry one elsewhere. Screenshots at 1280×800 and 375×812, light and dark,
go to tests/artifacts/.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.conftest import LiveServer
from tests.e2e.conftest import open_page, screenshot
from tests.e2e.test_sign_in import cookie, sign_up

# Records the sidebar's width at the moment the live tree first shows it (before any later style change).
FIRST_WIDTH_PROBE = """
new MutationObserver((_mutations, observer) => {
  const sidebar = document.querySelector('#app .dash-sidebar');
  if (!sidebar) return;
  window.__firstSidebarWidth = sidebar.getBoundingClientRect().width;
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def sidebar_width(page: Page) -> float:
    return page.locator("#app .dash-sidebar").evaluate("el => el.getBoundingClientRect().width")


def expect_width(page: Page, width: float) -> None:
    expect(page.locator("#app .dash-sidebar")).to_have_css("width", f"{width:g}px")


def test_ctrl_b_collapses_the_sidebar_and_a_reload_keeps_it_without_a_flash(
    live_server: LiveServer, page: Page
) -> None:
    sign_up(page, live_server)
    sidebar = page.get_by_role("complementary", name="Dashboard")
    expect(sidebar.get_by_role("link", name="Appointments")).to_be_visible()
    expect_width(page, 256)  # 16rem
    toggle = page.get_by_role("button", name="Toggle sidebar")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    screenshot(page, "dashboard-desktop-light")

    page.keyboard.press("Control+b")
    expect_width(page, 48)  # the 3rem icon rail
    expect(toggle).to_have_attribute("aria-expanded", "false")
    assert cookie(page, "sidebar:state") == "false"
    expiry = next(c["expires"] for c in page.context.cookies() if c["name"] == "sidebar:state")
    assert expiry > page.evaluate("Date.now() / 1000") + 6.9 * 24 * 3600  # kept for 7 days

    page.add_init_script(FIRST_WIDTH_PROBE)
    response = page.reload()
    assert response is not None and "<html data-sidebar-collapsed " in response.text()
    expect_width(page, 48)
    assert page.evaluate("window.__firstSidebarWidth") == 48  # collapsed from the first paint
    screenshot(page, "dashboard-rail-desktop-light")

    # The rail's tooltip names the link under the pointer; Escape hides it.
    support = sidebar.get_by_role("link", name="Support", exact=True)
    support.hover()
    tip = page.get_by_role("tooltip")
    expect(tip).to_have_text("Support")
    expect(support).to_have_attribute("aria-describedby", "dash-tooltip")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()

    toggle.click()
    expect_width(page, 256)
    assert cookie(page, "sidebar:state") == "true"


def test_go_to_opens_the_dashboard_page_that_matches(live_server: LiveServer, page: Page) -> None:
    sign_up(page, live_server)
    search = page.get_by_role("combobox", name="Go to a dashboard page")
    search.fill("sett")
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"/dashboard/settings$"))
    expect(page.get_by_role("heading", level=1, name="Settings")).to_be_visible()
    expect(
        page.get_by_role("complementary", name="Dashboard").get_by_role("link", name="Settings", exact=True)
    ).to_have_attribute("aria-current", "page")
    search.fill("provider wallet")  # not a patient's page
    search.press("Enter")
    expect(page.get_by_role("status").filter(has_text="No dashboard page matches")).to_have_text(
        "No dashboard page matches “provider wallet”."
    )
    expect(page).to_have_url(re.compile(r"/dashboard/settings$"))


def test_phones_get_the_drawer_and_the_six_slot_bottom_bar(
    live_server: LiveServer, mobile_page: Page
) -> None:
    page = mobile_page
    sign_up(page, live_server)
    bar = page.get_by_role("navigation", name="Quick navigation")
    expect(bar.get_by_role("link")).to_have_text(
        ["Home", "Dashboard", "Bookings", "Services", "Wallet", "Profile"]
    )
    expect(bar.get_by_role("link", name="Dashboard")).to_have_attribute("aria-current", "page")
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        screenshot(page, f"dashboard-mobile-{theme}")

    sidebar = page.get_by_role("complementary", name="Dashboard")
    expect(sidebar).to_be_hidden()
    page.get_by_role("button", name="Toggle sidebar").click()
    expect(sidebar).to_be_visible()
    expect(sidebar.get_by_role("link", name="Overview")).to_be_focused()
    screenshot(page, "dashboard-mobile-drawer")
    page.keyboard.press("Escape")
    expect(sidebar).to_be_hidden()

    bar.get_by_role("link", name="Home").click()
    expect(page).to_have_url(live_server.url("/"))
    public_bar = page.get_by_role("navigation", name="Quick navigation")
    expect(public_bar.get_by_role("link")).to_have_text(["Home", "Find", "Featured", "Bookings"])
    expect(public_bar.get_by_role("button", name=re.compile("^Cart"))).to_be_visible()


def test_the_overview_in_dark_at_desktop_width(live_server: LiveServer, page: Page) -> None:
    page.emulate_media(color_scheme="dark")
    sign_up(page, live_server)
    expect(page.get_by_role("heading", name="Your next visit")).to_be_visible()
    expect(page.get_by_text("No visits booked")).to_be_visible()
    expect(page.get_by_role("link", name="Find a provider")).to_have_attribute("href", "/find-provider")
    expect(page.get_by_text("No open requests.")).to_be_visible()
    open_page(page, live_server.url("/dashboard"))
    screenshot(page, "dashboard-desktop-dark")
