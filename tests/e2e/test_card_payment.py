"""Card payments in Chromium (PAYMENT_GATEWAY=stripe): Jordan Lee books Priya Shah's blood draw with a
thermometer from the store in the same cart, chooses Pay by card (the recommended of the two modes), and one
Place order sends the browser to the payment page (one Checkout Session for the visit and the product), Jordan comes back to the order ("Complete your payment", Pay by
card), Stripe's webhook arrives and the open page changes by itself to the requested visit paid by card;
then the Wallet lists the card saved at checkout and removes it after a confirmation (axe-core on the order
page and the wallet).

Stripe cannot be reached from here: the site's Stripe API is the local stand-in of tests/stripe_standin.py,
whose Checkout Session address is a page of its own (no test goes through Stripe's hosted page), and the
webhook is sent by the test, signed with the Stripe SDK's own helper.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from app.db import Database
from app.principal import SYSTEM
from app.services.providers import Hours, set_weekly_hours
from models.identity import User
from models.payment import PaymentCustomer
from models.provider import Provider
from tests import stripe_standin
from tests.conftest import LiveServer, demo_database, free_port, start_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, check_every_look, loaded
from tests.e2e.conftest import open_page, screenshot, wait_for_live_page
from tests.e2e.helpers import toasts
from tests.e2e.test_booking_flow import choose_day
from tests.factories import present

PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
ZIP = "10001"
DRAW = "Routine blood draw"
THERMOMETER = "Digital oral thermometer"
DAYS_AHEAD = 3  # outside every cancellation window


async def _open_every_day(database_url: str) -> None:
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            priya = await session.scalar(
                select(Provider).join(User, User.id == Provider.user_id).where(User.email == PROVIDER)
            )
            hours = [Hours(day, 7 * 60, 19 * 60) for day in range(7)]
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=present(priya).id, hours=hours)
    finally:
        await database.dispose()


async def _customer_of(database_url: str, email: str) -> str:
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            customer = await session.scalar(
                select(PaymentCustomer.customer_id)
                .join(User, User.id == PaymentCustomer.user_id)
                .where(User.email == email)
            )
            return present(customer)
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, stripe_standin.StripeStandIn, str]]:
    tmp = tmp_path_factory.mktemp("card")
    standin, server = stripe_standin.serve()
    standin.hosted_here = True
    database_url = demo_database(tmp / "card.db")
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        pool.submit(asyncio.run, _open_every_day(database_url)).result()
    port = free_port()
    live = start_server(
        tmp,
        port=port,
        SITE_URL=f"http://127.0.0.1:{port}",  # where Stripe's page sends the patient back
        DATABASE_URL=database_url,
        REMINDERS_ENABLED="false",
        PAYMENT_GATEWAY="stripe",
        STRIPE_SECRET_KEY=stripe_standin.SECRET_KEY,
        STRIPE_WEBHOOK_SECRET=stripe_standin.WEBHOOK_SECRET,
        STRIPE_API_BASE=standin.url,
    )
    yield live, standin, database_url
    stop_server(live)
    server.shutdown()


def test_pay_by_card_then_manage_the_saved_card(page: Page, site) -> None:  # noqa: ANN001
    live, standin, database_url = site
    problems: list[str] = []

    # Jordan signs in and adds Priya's blood draw from Find a Provider.
    open_page(page, live.url("/login?redirect=/find-provider"))
    page.get_by_label("Email").fill(PATIENT)
    page.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/find-provider$"))
    wait_for_live_page(page)  # this test is about paying, not about the first frame's hand-over
    search = page.get_by_role("search", name="Find a provider")
    search.get_by_label("ZIP code").fill(ZIP)
    search.get_by_label("Service", exact=True).select_option("routine-blood-draw")
    search.get_by_role("button", name="Search").click()
    expect(page.locator(f'.search-results[data-results-for*="zip={ZIP}"][aria-busy="false"]')).to_be_visible()
    page.get_by_role("article", name="Priya Shah").get_by_role("button", name="Add to cart").click()
    expect(toasts(page, f"Added {DRAW} to cart")).to_be_visible()

    # And a thermometer from the store: one checkout, one card payment for both.
    open_page(page, live.url("/dashboard/store?q=thermometer"))
    page.get_by_role("button", name=f"Add {THERMOMETER} to cart").click()
    expect(toasts(page, f"Added {THERMOMETER} to cart")).to_be_visible()

    # Checkout offers the modes the owners allow, card first (recommended); Place order goes to Stripe.
    open_page(page, live.url("/checkout"))
    summary = page.get_by_role("complementary", name="Order summary")
    pay_by_card = summary.get_by_role("radio", name=re.compile(r"^Pay by card"))
    expect(pay_by_card).to_be_checked()
    expect(summary.get_by_role("radio", name="Pay at the visit")).not_to_be_checked()
    expect(summary).to_contain_text(THERMOMETER)
    meet = page.get_by_role("region", name="Where we'll meet you")
    meet.get_by_label("ZIP code").fill(ZIP)
    draw = page.get_by_role("article", name=DRAW)
    # By its date: the day chips are drawn again once the ZIP code is known (the nth chip may be another day).
    choose_day(draw, DAYS_AHEAD)
    grid = draw.get_by_role("group", name=re.compile(r"^Time"))
    grid.get_by_role("button").first.click()
    expect(draw.get_by_role("status").filter(has_text="Held until")).to_be_visible()
    meet.get_by_label("Street address").fill("350 W 31st St")
    meet.get_by_label("City").fill("New York")
    meet.get_by_label("State").fill("NY")
    shipping = page.get_by_role("region", name="Shipping address")
    for label, value in (
        ("Full name", "Jordan Lee"),
        ("Street address", "350 Fifth Avenue"),
        ("City", "New York"),
        ("State", "NY"),
        ("ZIP code", "10118"),
    ):
        shipping.get_by_label(label).fill(value)
    problems += check_every_look(page, "/checkout (a visit and a product, pay by card)")
    screenshot(page, "checkout-visit-and-product", full_page=True, animations="disabled")
    expect(summary.get_by_role("button", name=re.compile(r"^Place order"))).to_have_count(1)  # one for all
    summary.get_by_role("button", name=re.compile(r"^Place order")).click()
    expect(page).to_have_url(re.compile(re.escape(standin.url) + r"/c/pay/cs_test\d+$"))
    [checkout] = [s for s in standin.sessions.values() if s["status"] == "open"]
    order_page = checkout["cancel_url"]
    assert checkout["metadata"]["store_order_id"]  # the products are on the visits' one payment
    [created] = standin.calls("POST", "/v1/checkout/sessions")
    assert THERMOMETER in created.params.values()

    # Back on the order (Stripe's cancel address): it waits for the payment and offers to pay.
    open_page(page, order_page)
    loaded(page)
    expect(page.get_by_role("heading", name="Complete your payment")).to_be_visible()
    expect(page.get_by_role("link", name="Pay by card")).to_have_attribute("href", checkout["url"])
    expect(page.get_by_role("main")).to_contain_text("Total, to pay by card")
    problems += check_every_look(page, "order awaiting payment")

    # Stripe's webhook: the open page turns into the requested visit, paid by card.
    event = stripe_standin.event(
        "checkout.session.completed",
        {
            "id": checkout["id"],
            "object": "checkout.session",
            "status": "complete",
            "payment_status": "paid",
            "amount_total": checkout["amount_total"],
            "currency": checkout["currency"],
            "payment_intent": "pi_test_browser",
            "metadata": checkout["metadata"],
        },
    )
    body, header = stripe_standin.signed(event)
    answer = httpx.post(
        live.url("/api/payments/stripe/webhook"), content=body, headers={"Stripe-Signature": header}
    )
    assert answer.json()["result"] == "paid"
    expect(page.get_by_role("heading", name="Your visit is requested")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("Total, paid by card")
    # One order: the visit and the thermometer (its store order), one total.
    expect(page.get_by_role("main")).to_contain_text(THERMOMETER)
    expect(page.get_by_role("main")).to_contain_text(re.compile(r"store order MS-[0-9A-Z]+"))
    expect(page.get_by_role("link", name="Pay by card")).to_have_count(0)
    screenshot(page, "card-order-paid", full_page=True, animations="disabled")

    # The card Jordan paid with is saved: the Wallet lists it, and removes it once confirmed.
    with ThreadPoolExecutor(max_workers=1) as pool:
        customer = pool.submit(asyncio.run, _customer_of(database_url, PATIENT)).result()
    standin.add_card(customer, "visa", "4242", 12, 2031)
    open_page(page, live.url("/dashboard/wallet"))
    loaded(page)
    cards = page.get_by_role("region", name="Saved cards")
    expect(cards).to_contain_text("Visa ending in 4242")
    expect(cards).to_contain_text("Expires 12/2031")
    problems += check_every_look(page, "wallet with a saved card")
    screenshot(page, "wallet-saved-card", full_page=True, animations="disabled")
    cards.get_by_role("button", name="Remove Visa ending in 4242").click()
    dialog = page.get_by_role("dialog", name="Remove this card?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Remove card").click()
    expect(dialog).to_have_count(0)
    expect(cards).to_contain_text("No saved cards")
    assert standin.calls("POST", r"/v1/payment_methods/pm_test\d+/detach")
    assert problems == []
