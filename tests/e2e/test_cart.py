"""The cart in Chromium (SPEC §2, §4, §8, §9): add from a service page (the panel opens with the toast),
add again (quantity 2, 'Updated quantity…'), badges on desktop and on the mobile bottom bar, the stepper,
remove, clear, prices with the flash sale struck through and the 5 % fee, the same cart after a reload and in
a second tab, a provider's price from the search results, and an anonymous cart kept after signing in.

The site gets its own database seeded like `make run` (catalog, demo accounts, the demo provider)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from components.cart import ESTIMATE_NOTE
from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import open_page, page_errors, screenshot, wait_for_live_page
from tests.e2e.helpers import log_out, sign_in, toasts

DEMO_PASSWORD = "Demo-MediVisit-1"
HYDRATION = "Hydration IV (1 liter)"  # $149, $104.30 during the daily flash sale
VITAMINS = "Vitamin infusion (Myers' cocktail)"  # $229, $160.30 during the sale
DRAW = "Routine blood draw"  # $79


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("cart")
    server, _database_url = start_demo_server(tmp)
    yield server
    stop_server(server)


def cart_panel(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Your Cart")


def header_cart(page: Page) -> Locator:
    return page.get_by_role("banner").get_by_role("button", name=re.compile(r"^Cart"))


def badge(button: Locator) -> Locator:
    """The count drawn on a cart button (its full text is read out as part of the button's name)."""
    return button.locator(".badge-count > [aria-hidden=true]")


def add_button(page: Page, service: str) -> Locator:
    return page.get_by_role("article", name=service).get_by_role("button", name="Add to cart")


def line(page: Page, service: str) -> Locator:
    return cart_panel(page).get_by_role("listitem").filter(has=page.get_by_role("heading", name=service))


def totals(page: Page) -> list[str]:
    return [
        re.sub(r"\s+", " ", row).strip()
        for row in cart_panel(page).locator(".cart-totals > div").all_inner_texts()
    ]


def expect_totals(page: Page, expected: list[str]) -> None:
    """The panel's totals read `expected` once the server's updates have all arrived (a quantity change
    may reach the subtotal a frame before the fee and the total), then compared for a readable failure."""
    page.wait_for_function(
        """expected => JSON.stringify([...document.querySelectorAll('.cart-totals > div')]
            .map(row => row.innerText.replace(/\\s+/g, ' ').trim())) === JSON.stringify(expected)""",
        arg=expected,
        timeout=10_000,
    )
    assert totals(page) == expected


def close_panel(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(cart_panel(page)).to_be_hidden()


def test_add_step_remove_and_clear(site, page: Page) -> None:
    open_page(page, site.url("/services/iv-therapy"))
    expect(header_cart(page)).to_have_accessible_name("Cart")
    add_button(page, HYDRATION).click()

    panel = cart_panel(page)
    expect(panel).to_be_visible()
    expect(toasts(page, f"Added {HYDRATION} to cart")).to_be_visible()
    expect(panel.get_by_role("button", name="Close cart")).to_be_focused()
    item = line(page, HYDRATION)
    # No provider chosen: "from" the lowest listed provider's price ($140), 30 % off in the sale.
    expect(item.locator("s")).to_have_text("Regular price $140")
    expect(item.locator(".cart-price strong")).to_have_text("Sale price from $98")
    expect_totals(page, ["Subtotal from $98", "Platform fee (5%) from $4.90", "Total from $102.90"])
    expect(panel.locator(".cart-estimate")).to_have_text(ESTIMATE_NOTE)
    expect(panel.get_by_text("1 item", exact=True)).to_be_visible()
    checkout = panel.get_by_role("link", name="Checkout")
    expect(checkout).to_have_attribute("href", "/checkout")

    close_panel(page)
    add_button(page, HYDRATION).click()
    expect(toasts(page, f"Updated quantity of {HYDRATION} in cart")).to_be_visible()
    expect(cart_panel(page)).to_be_hidden()  # only a new item opens the panel
    expect(header_cart(page)).to_have_accessible_name("Cart (2 items)")
    expect(badge(header_cart(page))).to_have_text("2")

    header_cart(page).click()
    item = line(page, HYDRATION)
    expect(item.locator("output")).to_have_text("2")
    expect(item.get_by_text("from $196 for 2 visits")).to_be_visible()
    item.get_by_role("button", name=f"Increase quantity of {HYDRATION}").click()
    expect(item.locator("output")).to_have_text("3")
    expect(panel.get_by_text("3 items", exact=True)).to_be_visible()
    expect_totals(page, ["Subtotal from $294", "Platform fee (5%) from $14.70", "Total from $308.70"])
    item.get_by_role("button", name=f"Decrease quantity of {HYDRATION}").click()
    expect(item.locator("output")).to_have_text("2")
    expect(header_cart(page)).to_have_accessible_name("Cart (2 items)")
    screenshot(page, "cart-panel-desktop", animations="disabled")

    close_panel(page)
    add_button(page, VITAMINS).click()
    expect(toasts(page, f"Added {VITAMINS} to cart")).to_be_visible()
    line(page, HYDRATION).get_by_role("button", name=f"Remove {HYDRATION}").click()
    expect(toasts(page, f"Removed {HYDRATION} from cart")).to_be_visible()
    expect(line(page, HYDRATION)).to_have_count(0)
    expect(header_cart(page)).to_have_accessible_name("Cart (1 item)")

    # The stepper below 1 removes the item too (SPEC §4).
    line(page, VITAMINS).get_by_role("button", name=f"Decrease quantity of {VITAMINS}").click()
    expect(toasts(page, f"Removed {VITAMINS} from cart")).to_be_visible()
    expect(panel.get_by_text("Your cart is empty")).to_be_visible()
    expect(header_cart(page)).to_have_accessible_name("Cart")

    close_panel(page)
    add_button(page, HYDRATION).click()
    expect(line(page, HYDRATION)).to_be_visible()
    close_panel(page)
    add_button(page, VITAMINS).click()
    expect(line(page, VITAMINS)).to_be_visible()
    panel.get_by_role("button", name="Clear cart").click()
    expect(toasts(page, "Cart cleared")).to_be_visible()
    expect(panel.get_by_text("Your cart is empty")).to_be_visible()
    expect(panel.get_by_role("link", name="Browse services")).to_be_visible()
    assert page_errors(page) == []


def test_the_cart_survives_a_reload_and_shows_in_a_second_tab(site, page: Page) -> None:
    open_page(page, site.url("/services"))
    page.locator("#phlebotomy").get_by_role("listitem").filter(has_text=DRAW).get_by_role(
        "button", name="Add to cart"
    ).click()
    expect(line(page, DRAW)).to_be_visible()
    line(page, DRAW).get_by_role("button", name=f"Increase quantity of {DRAW}").click()
    expect(header_cart(page)).to_have_accessible_name("Cart (2 items)")

    page.reload()
    wait_for_live_page(page)  # the panel is opened in the live page (the first frame's button may be gone)
    expect(header_cart(page)).to_have_accessible_name("Cart (2 items)")
    header_cart(page).click()
    expect(line(page, DRAW).locator("output")).to_have_text("2")

    second = page.context.new_page()
    open_page(second, site.url("/how-it-works"))
    expect(header_cart(second)).to_have_accessible_name("Cart (2 items)")
    # A change in one tab reaches the other without a reload.
    line(page, DRAW).get_by_role("button", name=f"Increase quantity of {DRAW}").click()
    expect(header_cart(second)).to_have_accessible_name("Cart (3 items)")
    second.close()


def test_a_provider_from_the_search_is_booked_at_their_price(site, page: Page) -> None:
    # In Priya's ZIP code: the demo marketplace lists dozens of IV nurses nationwide.
    open_page(page, site.url("/find-provider?service=iv-hydration&zip=10001&sort=soonest"))
    card = page.get_by_role("article", name="Priya Shah")
    card.get_by_role("button", name="Add to cart").click()
    item = line(page, HYDRATION)
    expect(item.get_by_text("with Priya Shah")).to_be_visible()
    expect(item.locator("s")).to_have_text("Regular price $159")
    expect(item.get_by_text("$111.30")).to_be_visible()
    # A search by category names no single service: the cards stay as they are.
    close_panel(page)
    open_page(page, site.url("/find-provider?service=iv-therapy&zip=10001"))
    expect(page.get_by_role("article", name="Priya Shah")).to_be_visible()
    expect(
        page.get_by_role("article", name="Priya Shah").get_by_role("button", name="Add to cart")
    ).to_have_count(0)


def test_mobile_bottom_bar_badge_and_panel(site, mobile_page: Page) -> None:
    page = mobile_page
    open_page(page, site.url("/services/iv-therapy"))
    add_button(page, HYDRATION).click()
    expect(cart_panel(page)).to_be_visible()
    close_panel(page)
    add_button(page, VITAMINS).click()
    expect(line(page, VITAMINS)).to_be_visible()
    bar_cart = page.get_by_role("navigation", name="Quick navigation").get_by_role(
        "button", name=re.compile("^Cart")
    )
    expect(bar_cart).to_have_accessible_name("Cart (2 items)")
    screenshot(page, "cart-panel-mobile", animations="disabled")
    bar_cart.click()  # the bar stays below the sheet: its Cart entry closes the panel again
    expect(cart_panel(page)).to_be_hidden()
    expect(badge(bar_cart)).to_have_text("2")
    bar_cart.click()
    expect(cart_panel(page)).to_be_visible()
    assert page_errors(page) == []


def test_an_anonymous_cart_is_kept_after_signing_in(site, page: Page) -> None:
    open_page(page, site.url("/services/iv-therapy"))
    add_button(page, HYDRATION).click()
    expect(line(page, HYDRATION)).to_be_visible()

    sign_in(page, site, "patient@demo.medivisit.test", DEMO_PASSWORD)
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    open_page(page, site.url("/services"))
    expect(header_cart(page)).to_have_accessible_name("Cart (1 item)")
    header_cart(page).click()
    expect(line(page, HYDRATION)).to_be_visible()
    close_panel(page)

    # The cart is the patient's now: signed out, this browser's visitor cart is empty.
    log_out(page)
    expect(header_cart(page)).to_have_accessible_name("Cart")
    sign_in(page, site, "patient@demo.medivisit.test", DEMO_PASSWORD)
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    open_page(page, site.url("/services"))
    expect(header_cart(page)).to_have_accessible_name("Cart (1 item)")
