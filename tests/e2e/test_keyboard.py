"""Keyboard and focus (issue 11, WCAG 2.2 AA): the mobile menu, the side drawer and the cart panel keep the
focus inside while open (Tab and Shift+Tab wrap), close on Escape and give the focus back to their opener;
they lock page scrolling; the mobile overlays are not in the page until opened; the header's Services and
Providers menus answer the menu-button keys; Add to cart moves the focus into the cart panel; sign-in's Tab
order is Email, Password, Sign in; another screen gives the focus to its <main>."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import open_page, screenshot
from tests.e2e.helpers import wait_for_screen

FOCUSED = "document.activeElement"


def focus_is_inside(scope: Locator) -> bool:
    return scope.evaluate("(el) => el.contains(document.activeElement) && document.activeElement !== el")


def focused_name(page: Page) -> str:
    """The focused element's accessible name as tests see it: aria-label, else its text."""
    return page.evaluate(f"(({FOCUSED}.getAttribute('aria-label') || {FOCUSED}.innerText || '').trim())")


def scroll_locked(page: Page) -> bool:
    return page.evaluate(
        "getComputedStyle(document.documentElement).overflow === 'hidden'"
        " && getComputedStyle(document.body).overflow === 'hidden'"
    )


def tab_stops(page: Page, scope: Locator) -> int:
    """How many elements of `scope` Tab can reach (visible, enabled, not tabindex=-1)."""
    return scope.evaluate(
        """(el) => Array.from(el.querySelectorAll(
             "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, textarea, [tabindex]"
           )).filter((e) => e.tabIndex >= 0 && e.getClientRects().length > 0).length"""
    )


def assert_focus_trapped(page: Page, dialog: Locator) -> None:
    """Tab twice around the dialog and Shift+Tab once around: the focus never leaves it, and wraps."""
    stops = tab_stops(page, dialog)
    assert stops >= 2, stops
    seen: list[str] = []
    for _ in range(2 * stops + 1):
        page.keyboard.press("Tab")
        assert focus_is_inside(dialog), f"Tab left the dialog after {seen}"
        seen.append(focused_name(page))
    assert seen[:stops] == seen[stops : 2 * stops], "Tab wraps round to the same stops"
    for _ in range(stops + 1):
        page.keyboard.press("Shift+Tab")
        assert focus_is_inside(dialog), "Shift+Tab left the dialog"


# ---- mobile overlays ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("opener", "name", "selector"),
    [("Open menu", "Menu", ".mobile-menu"), ("Open side menu", "Side menu", ".drawer")],
)
def test_mobile_overlay_traps_focus_locks_scrolling_and_gives_focus_back(
    live_server, mobile_page, opener: str, name: str, selector: str
) -> None:
    page = mobile_page
    open_page(page, live_server.url("/"))
    wait_for_screen(page)
    # Not in the page (nor in the server's tree) until opened.
    expect(page.locator(selector)).to_have_count(0)
    assert not scroll_locked(page)

    button = page.get_by_role("button", name=opener, exact=True)
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name=name, exact=True)
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name=re.compile("^Close"))).to_be_focused()
    assert scroll_locked(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate("(s) => document.documentElement.setAttribute('data-theme', s)", scheme)
        screenshot(page, f"{selector.strip('.')}-open-{scheme}", animations="disabled")
    assert_focus_trapped(page, dialog)

    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator(selector)).to_have_count(0)
    expect(button).to_be_focused()
    assert not scroll_locked(page)


def test_mobile_overlays_are_not_in_a_desktop_page(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    wait_for_screen(page)
    expect(page.locator(".mobile-menu, .drawer, [data-overlay]")).to_have_count(0)
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_side_drawer_backdrop_closes_it_and_gives_focus_back(live_server, mobile_page) -> None:
    page = mobile_page
    open_page(page, live_server.url("/"))
    button = page.get_by_role("button", name="Open side menu")
    button.click()
    drawer = page.get_by_role("dialog", name="Side menu")
    expect(drawer).to_be_visible()
    page.mouse.click(20, 400)  # the backdrop, left of the panel
    expect(drawer).to_have_count(0)
    expect(button).to_be_focused()


# ---- cart panel -----------------------------------------------------------------------------------------
def test_cart_panel_traps_focus_locks_scrolling_and_gives_focus_back(live_server, page) -> None:
    open_page(page, live_server.url("/services"))
    wait_for_screen(page)
    cart = page.get_by_role("banner").get_by_role("button", name=re.compile("^Cart"))
    cart.focus()
    page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="Your Cart")
    expect(panel).to_be_visible()
    assert focus_is_inside(panel)
    assert scroll_locked(page)
    before = page.evaluate("window.scrollY")
    page.mouse.move(200, 400)
    page.mouse.wheel(0, 600)
    page.wait_for_function("() => getComputedStyle(document.documentElement).overflow === 'hidden'")
    assert page.evaluate("window.scrollY") == before, "the page behind the panel does not scroll"
    assert_focus_trapped(page, panel)

    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    expect(cart).to_be_focused()
    assert not scroll_locked(page)


def test_add_to_cart_moves_the_focus_into_the_open_cart_panel(live_server, page) -> None:
    open_page(page, live_server.url("/services/iv-therapy"))
    add = page.get_by_role("button", name=re.compile("Add to cart")).first
    add.focus()
    page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="Your Cart")
    expect(panel.get_by_role("listitem")).to_have_count(1)
    expect(panel.get_by_role("button", name="Close cart")).to_be_focused()
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    expect(add).to_be_focused()


# ---- header menus -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("label", "first", "last"),
    [
        ("Services", "All Healthcare Services", "At-Home Diagnostics"),
        ("Providers", "Browse Providers", "Join as Provider"),
    ],
)
def test_header_menus_answer_the_menu_button_keys(
    live_server, page, label: str, first: str, last: str
) -> None:
    open_page(page, live_server.url("/about"))
    nav = page.get_by_role("navigation", name="Main")
    button = nav.get_by_role("button", name=label)
    expect(button).to_have_attribute("aria-haspopup", "menu")
    menu = nav.get_by_role("menu").filter(has=page.get_by_role("menuitem", name=re.compile(first)))

    def item(name: str) -> Locator:
        return menu.get_by_role("menuitem", name=re.compile(rf"^{re.escape(name)}"))

    for key, focused in (("ArrowDown", first), ("Enter", first), ("Space", first), ("ArrowUp", last)):
        button.focus()
        page.keyboard.press(key)
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(item(focused)).to_be_focused()
        page.keyboard.press("Escape")
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(menu).to_be_hidden()
        expect(button).to_be_focused()

    button.focus()
    page.keyboard.press("ArrowDown")
    items = menu.get_by_role("menuitem")
    expect(items.nth(0)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(items.nth(1)).to_be_focused()
    page.keyboard.press("End")
    expect(item(last)).to_be_focused()
    page.keyboard.press("ArrowDown")  # wraps
    expect(item(first)).to_be_focused()
    page.keyboard.press("ArrowUp")  # wraps back
    expect(item(last)).to_be_focused()
    page.keyboard.press("Home")
    expect(item(first)).to_be_focused()
    # Tab leaves the menu: it closes (its items are not Tab stops).
    page.keyboard.press("Tab")
    expect(button).to_have_attribute("aria-expanded", "false")
    # (The closed menu's items are hidden, so no locator finds the menu to ask it.)
    assert page.evaluate("!document.activeElement.closest('[role=menu]')"), "focus stayed in the closed menu"

    # Enter on an item follows it.
    button.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/(services|providers)$"))
    expect(menu).to_be_hidden()


# ---- focus order and moves ------------------------------------------------------------------------------
def test_sign_in_tab_order_is_email_password_sign_in(live_server, page) -> None:
    open_page(page, live_server.url("/login"))
    email = page.get_by_label("Email")
    email.focus()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Password", exact=True)).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Sign in", exact=True)).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Forgot password?")).to_be_focused()


def test_another_screen_gives_the_focus_to_its_main_content(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    link = page.get_by_role("contentinfo").get_by_role("link", name="About Us")
    link.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(live_server.url("/about"))
    expect(page.get_by_role("main")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.get_by_role("main").evaluate("(main) => main.contains(document.activeElement)")
