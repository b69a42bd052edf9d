"""Small screens (375×812, touch; SPEC §2 "Mobile full menu", "Mobile bottom bar", §9 timings): the 64 px
bottom bar with its active entry and cart toggle, the full-screen menu with scroll lock and delayed
navigation, the menu's Cart button, and the right-hand side drawer."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import FloatRect, Locator, Page, expect

from tests.e2e.conftest import open_page, screenshot
from tests.e2e.helpers import bounds, navigation_delay_ms, path_of, start_navigation_probe

BOTTOM_BAR = {"Home": "/", "Find": "/services", "Featured": "/providers", "Bookings": "/appointments"}
MENU_LINKS = {
    "Services": "/services",
    "Find Providers": "/find-provider",
    "How It Works": "/how-it-works",
    "Corporate": "/corporate",
    "Forum": "/forum",
    "AI Assistant": "/ai-assistant",
    "Featured Providers": "/provider-of-month",
    "Help Center": "/help-center",
    "Search": "/find-provider",
    "Log in": "/login",
    "Sign Up": "/sign-up",
    "Become a Provider": "/become-provider",
}
DRAWER_LINKS = {
    "Home": "/",
    "About": "/about",
    "Services": "/services",
    "Providers": "/providers",
    "Contact": "/contact",
    "Sign In": "/login",
    "Sign Up": "/sign-up",
}


def bottom_bar(page: Page) -> Locator:
    return page.get_by_role("navigation", name="Quick navigation")


def cart_panel(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Your Cart")


def full_menu(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Menu", exact=True)


def side_drawer(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Side menu")


def scroll_locked(page: Page) -> bool:
    return page.evaluate(
        "getComputedStyle(document.documentElement).overflow === 'hidden'"
        " && getComputedStyle(document.body).overflow === 'hidden'"
    )


def open_full_menu(page: Page) -> Locator:
    page.get_by_role("button", name="Open menu").click()
    expect(full_menu(page)).to_be_visible()
    return full_menu(page)


def tap_center(page: Page, box: FloatRect) -> None:
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


# ---- bottom bar ------------------------------------------------------------------------------------
def test_bottom_bar_is_64px_with_five_entries_and_desktop_nav_is_hidden(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    bar = bottom_bar(mobile_page)
    expect(bar).to_be_visible()
    box = bounds(bar)
    assert box["height"] == 64
    assert box["y"] + box["height"] == 812, "the bar sits at the bottom of the screen"
    for label, href in BOTTOM_BAR.items():
        expect(bar.get_by_role("link", name=label, exact=True)).to_have_attribute("href", href)
    expect(bar.get_by_role("button", name="Cart")).to_be_visible()

    expect(mobile_page.get_by_role("navigation", name="Main")).to_be_hidden()
    expect(mobile_page.get_by_role("banner").get_by_role("link", name="Sign In")).to_be_hidden()
    expect(mobile_page.get_by_role("banner").get_by_role("link", name="Sign Up")).to_be_hidden()


@pytest.mark.parametrize(
    ("path", "active"), [("/", "Home"), ("/services", "Find"), ("/services/iv-therapy", "Find")]
)
def test_bottom_bar_highlights_the_current_section(live_server, mobile_page, path: str, active: str) -> None:
    open_page(mobile_page, live_server.url(path))
    bar = bottom_bar(mobile_page)
    for label in BOTTOM_BAR:
        entry = bar.get_by_role("link", name=label, exact=True)
        if label == active:
            expect(entry).to_have_attribute("aria-current", "page")
            expect(entry).to_have_class(re.compile(r"\bactive\b"))
        else:
            expect(entry).not_to_have_attribute("aria-current", "page")


def test_bottom_bar_entry_navigates_and_moves_the_highlight(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    find = bottom_bar(mobile_page).get_by_role("link", name="Find", exact=True)
    find.click()
    expect(mobile_page).to_have_url(live_server.url("/services"))
    expect(find).to_have_attribute("aria-current", "page")
    expect(bottom_bar(mobile_page).get_by_role("link", name="Home", exact=True)).not_to_have_attribute(
        "aria-current", "page"
    )


def test_bottom_bar_cart_toggles_the_cart_panel_without_navigating(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    cart = bottom_bar(mobile_page).get_by_role("button", name="Cart")
    box = bounds(cart)

    tap_center(mobile_page, box)
    expect(cart_panel(mobile_page)).to_be_visible()
    expect(cart_panel(mobile_page).get_by_role("heading", name="Your Cart")).to_be_visible()
    assert path_of(mobile_page.url) == "/"

    tap_center(mobile_page, box)  # the same spot again
    expect(cart_panel(mobile_page)).to_be_hidden(timeout=3000)
    assert path_of(mobile_page.url) == "/"


# ---- full-screen menu ---------------------------------------------------------------------------------
def test_full_menu_locks_scrolling_and_lists_the_signed_out_items(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    assert not scroll_locked(mobile_page)
    menu = open_full_menu(mobile_page)
    assert scroll_locked(mobile_page)

    for label, href in MENU_LINKS.items():
        expect(menu.get_by_role("link", name=label, exact=True)).to_have_attribute("href", href)
    expect(menu.get_by_role("button", name="Cart")).to_be_visible()
    expect(menu.get_by_role("link", name="Dashboard")).to_have_count(0)
    screenshot(mobile_page, "mobile-menu-open", animations="disabled")

    menu.get_by_role("button", name="Close menu").click()
    expect(menu).to_be_hidden()
    assert not scroll_locked(mobile_page)


def test_full_menu_item_closes_the_menu_then_navigates_after_300ms(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    menu = open_full_menu(mobile_page)
    start_navigation_probe(mobile_page)

    menu.get_by_role("link", name="How It Works", exact=True).click()
    expect(menu).to_be_hidden()
    expect(mobile_page).to_have_url(live_server.url("/how-it-works"))
    delay = navigation_delay_ms(mobile_page)
    assert 280 <= delay <= 900, f"navigated {delay:.0f} ms after the tap, expected about 300 ms"
    assert not scroll_locked(mobile_page)


def test_full_menu_cart_closes_the_menu_and_opens_the_cart_panel(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    menu = open_full_menu(mobile_page)
    menu.get_by_role("button", name="Cart").click()
    expect(menu).to_be_hidden()
    expect(cart_panel(mobile_page)).to_be_visible()
    assert path_of(mobile_page.url) == "/"


# ---- side drawer ------------------------------------------------------------------------------------
def test_side_drawer_lists_its_items_and_navigates(live_server, mobile_page) -> None:
    open_page(mobile_page, live_server.url("/"))
    mobile_page.get_by_role("button", name="Open side menu").click()
    drawer = side_drawer(mobile_page)
    expect(drawer).to_be_visible()
    assert scroll_locked(mobile_page)
    for label, href in DRAWER_LINKS.items():
        expect(drawer.get_by_role("link", name=label, exact=True)).to_have_attribute("href", href)
    item = bounds(drawer.get_by_role("link", name="Home", exact=True))
    assert item["x"] > 40 and item["x"] + item["width"] > 340, "the drawer is docked on the right"

    start_navigation_probe(mobile_page)
    drawer.get_by_role("link", name="Contact", exact=True).click()
    expect(drawer).to_be_hidden()
    expect(mobile_page).to_have_url(live_server.url("/contact"))
    delay = navigation_delay_ms(mobile_page)
    assert 80 <= delay <= 700, f"navigated {delay:.0f} ms after the tap, expected about 100 ms"
