"""The store in Chromium (issue 14 part 9), with a product photo uploaded in the editor: Olivia Bennett (demo
owner) sets the store's shipping at /staff/settings (issue 29 item 4: retail carries no platform fee by
default); Jordan Lee (demo patient) browses /dashboard/store (stock states,
search, the sold-out product that can't be added), adds a thermometer to the cart and checks out with a
shipping address (a wrong one first: the error summary, what was typed kept), the Shipping line in the cart
and at checkout and the same total on the order; Olivia (manage_services) moves the order through processed, shipped (carrier and tracking number) and delivered on
/staff/store-orders while Jordan's "My orders" follows each status live in a second browser, and the
delivered order's "Download receipt" link answers its PDF. axe-core at
1280 and 375 px, light and dark, with screenshots (tests/artifacts/store-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from tests.conftest import LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import (
    check_every_look,
    full_page_screenshots,
    loaded,
    signed_in_at,
)
from tests.e2e.conftest import DESKTOP, _page, open_page, page_errors
from tests.e2e.helpers import toasts
from tests.factories import png_bytes

PATIENT = "patient@demo.medivisit.test"
OWNER = "owner@demo.medivisit.test"
STORE = "/dashboard/store"
ORDERS = "/staff/store-orders"
THERMOMETER = "Digital oral thermometer"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("store")
    server = start_server(
        tmp,
        DATABASE_URL=demo_database(tmp / "store.db"),
        REMINDERS_ENABLED="false",
        EARNINGS_RELEASE_ENABLED="false",
        UPLOAD_DIR=str(tmp / "uploads"),
    )
    yield server
    stop_server(server)


@pytest.fixture
def staff_page(browser: Browser) -> Iterator[Page]:
    """A second browser (its own cookies) for the staff member."""
    yield from _page(browser, DESKTOP)


def card(page: Page, name: str):  # noqa: ANN201 - Locator
    return page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=name))


def test_a_store_order_from_the_cart_to_delivery(page: Page, staff_page: Page, site) -> None:  # noqa: ANN001
    problems: list[str] = []

    # Olivia charges $6.95 shipping per store order (a wrong amount first).
    signed_in_at(staff_page, site, OWNER, "/staff/settings")
    business = staff_page.get_by_role("region", name="Business settings")
    shipping = business.get_by_label("Store shipping per order", exact=True)
    expect(shipping).to_have_value("0.00")
    shipping.fill("6.999")
    business.get_by_role("button", name="Save Store shipping per order").click()
    expect(toasts(staff_page, "Enter an amount in dollars from $0.00 to $500.00, e.g. 6.95.")).to_be_visible()
    shipping.fill("$6.95")
    business.get_by_role("button", name="Save Store shipping per order").click()
    expect(toasts(staff_page, "Store shipping per order saved")).to_be_visible()
    staff_page.reload()  # stored as typed dollars, two decimals
    expect(
        staff_page.get_by_role("region", name="Business settings").get_by_label(
            "Store shipping per order", exact=True
        )
    ).to_have_value("6.95")

    # Jordan browses the store.
    signed_in_at(page, site, PATIENT, STORE)
    expect(page.get_by_role("heading", name="Store", level=1)).to_be_visible()
    # Each demo product has its picture, named by the product (its alt text), served from the uploads.
    chair = card(page, "Shower chair with back").get_by_role("img", name="Shower chair with back")
    expect(chair).to_be_visible()
    chair.scroll_into_view_if_needed()  # pictures load lazily
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=chair.element_handle())
    assert chair.evaluate("(img) => img.naturalWidth") == 640
    expect(card(page, "Fingertip pulse oximeter").get_by_text("Out of stock")).to_have_count(2)
    expect(card(page, "Fingertip pulse oximeter").get_by_role("button", name="Out of stock")).to_be_disabled()
    expect(card(page, "Nitrile exam gloves, medium (100 count)")).to_contain_text("Only 3 left")
    problems += check_every_look(page, STORE)
    full_page_screenshots(page, "store-products")

    page.get_by_label("Search").fill("thermometer")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/dashboard/store\?q=thermometer"))
    expect(page.get_by_text("1 product", exact=True)).to_be_visible()
    card(page, THERMOMETER).get_by_role("button", name=f"Add {THERMOMETER} to cart").click()
    expect(toasts(page, f"Added {THERMOMETER} to cart")).to_be_visible()
    cart = page.get_by_role("dialog", name=re.compile("cart", re.I))
    expect(cart.get_by_role("heading", name=THERMOMETER)).to_be_visible()
    # $14.99 and $6.95 shipping; no platform fee on retail, no sales tax with the default settings.
    totals = cart.locator(".cart-totals")
    expect(totals).to_contain_text("Shipping$6.95")
    expect(totals).to_contain_text("Total$21.94")
    expect(totals).not_to_contain_text("Platform fee")
    expect(totals).not_to_contain_text("Sales tax")

    # Checkout: a wrong address is refused field by field and what was typed stays.
    open_page(page, site.url("/checkout"))
    expect(page.get_by_role("heading", name="Shipping address")).to_be_visible()
    page.get_by_label("Full name").fill("Jordan Lee")
    page.get_by_label("Street address").fill("350 Fifth Avenue")
    page.get_by_label("City").fill("New York")
    page.get_by_label("State").fill("CA")
    page.get_by_label("ZIP code").fill("10118")
    page.get_by_role("button", name=re.compile(r"^Place order")).click()
    summary = page.get_by_role("alert").filter(has_text="There is a problem")
    expect(summary).to_contain_text("ZIP code 10118 is in NY, not CA.")
    expect(page.get_by_label("Street address")).to_have_value("350 Fifth Avenue")
    problems += check_every_look(page, "/checkout (store products)")
    full_page_screenshots(page, "store-checkout")
    page.get_by_label("State").fill("NY")
    checkout_totals = page.locator(".store-checkout-totals")
    expect(checkout_totals).to_contain_text("Subtotal$14.99")
    expect(checkout_totals).to_contain_text("Shipping$6.95")
    expect(checkout_totals).to_contain_text("Total$21.94")
    page.get_by_role("button", name="Place order · $21.94").click()
    expect(page).to_have_url(re.compile(r"/dashboard/store\?tab=orders&placed=MS-"))
    placed = re.search(r"placed=(MS-[0-9A-Z]+)", page.url)
    assert placed is not None
    number = placed.group(1)
    order = page.get_by_role("article", name=f"Order {number}")
    expect(order).to_contain_text("Pending")
    expect(order).to_contain_text("Pay on delivery")
    expect(order.locator(".store-order-totals")).to_contain_text("Shipping$6.95")
    expect(order.locator(".store-order-totals")).to_contain_text("Total$21.94")

    # Olivia moves it along; Jordan's page follows each step.
    open_page(staff_page, site.url(ORDERS))
    queued = staff_page.get_by_role("article", name=f"Order {number}")
    expect(queued).to_contain_text("Jordan Lee")
    problems += check_every_look(staff_page, ORDERS)
    full_page_screenshots(staff_page, "store-staff-orders")

    queued.get_by_role("button", name=f"Mark processed: order {number}").click()
    expect(toasts(staff_page, "Order marked processed")).to_be_visible()
    expect(order).to_contain_text("Processed")
    expect(order).to_contain_text("Processing")

    queued.get_by_role("button", name=f"Mark shipped: order {number}").click()
    dialog = staff_page.get_by_role("dialog", name=f"Mark shipped: order {number}")
    dialog.get_by_role("button", name="Mark shipped").click()
    expect(dialog.get_by_role("alert")).to_contain_text("Enter the carrier and the tracking number")
    dialog.get_by_label("Carrier").fill("UPS")
    dialog.get_by_label("Tracking number").fill("1Z999AA10123456784")
    problems += check_every_look(staff_page, "/staff/store-orders (ship dialog)")
    dialog.get_by_role("button", name="Mark shipped").click()
    expect(toasts(staff_page, "Order marked shipped")).to_be_visible()
    expect(order).to_contain_text("Shipped")
    expect(order).to_contain_text("UPS tracking number 1Z999AA10123456784")

    queued.get_by_role("button", name=f"Mark delivered: order {number}").click()
    expect(toasts(staff_page, "Order marked delivered")).to_be_visible()
    expect(order.get_by_text("Delivered")).to_have_count(2)  # the order status and the fulfilment
    receipt = order.get_by_role("link", name=f"Download receipt for order {number} (PDF)")
    pdf = page.request.get(site.url(receipt.get_attribute("href") or ""))
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    expect(queued.get_by_role("button", name=f"Mark returned: order {number}")).to_be_visible()
    loaded(page)
    problems += check_every_look(page, f"{STORE}?tab=orders")
    full_page_screenshots(page, "store-my-orders")

    # The products screen.
    open_page(staff_page, site.url("/staff/products"))
    loaded(staff_page)
    table = staff_page.get_by_role("table", name="Products")
    expect(table).to_contain_text("Digital oral thermometer")
    table.get_by_role("button", name=f"Edit {THERMOMETER}").click()
    editor = staff_page.get_by_role("dialog", name=f"Edit {THERMOMETER}")
    expect(editor.get_by_label("Units in stock")).to_have_value("24")  # 25, one sold
    editor.get_by_label("Price (USD)").fill("14.999")
    editor.get_by_role("button", name="Save product").click()
    expect(editor).to_contain_text("Enter a price in dollars")
    # The demo's own picture of it (the seed ships one per product) gives way to the staff's photo.
    expect(editor.get_by_role("img", name=f"Photo 1 of {THERMOMETER}")).to_be_visible()
    editor.get_by_role("button", name="Remove photo 1").click()
    expect(editor.get_by_role("img", name=f"Photo 1 of {THERMOMETER}")).to_have_count(0)
    editor.locator("input[type=file]").set_input_files(
        files=[FilePayload(name="thermometer.png", mimeType="image/png", buffer=png_bytes(480, 360))]
    )
    expect(editor.get_by_role("img", name=f"Photo 1 of {THERMOMETER}")).to_be_visible()
    problems += check_every_look(staff_page, "/staff/products (editor)")
    full_page_screenshots(staff_page, "store-staff-products")

    # The photo shows in the store.
    open_page(page, site.url(f"{STORE}?q=thermometer"))
    photo = card(page, THERMOMETER).get_by_role("img", name=THERMOMETER)
    expect(photo).to_be_visible()
    # Loaded, and the staff's 480 px photo (not the demo's picture): visible is not yet loaded.
    page.wait_for_function("(img) => img.complete && img.naturalWidth === 480", arg=photo.element_handle())
    assert problems == []
    assert page_errors(page) == [] and page_errors(staff_page) == []
