"""Self-serve ads in Chromium (issue 17 part 4; paid, issue 29 item 5): Priya Shah (demo provider) books a
flight on /ad-purchase with an uploaded image and previews it in the slot's own markup; Morgan Hayes (demo
management, manage_ads) sees the screening's verdict and approves it on /staff/ads; the flight awaits its
payment: Priya pays its budget by card (Stripe Checkout: the stand-in of tests/stripe_standin.py, the
webhook signed with the SDK's helper) and only then does a visitor find it on /services labelled
"Sponsored" with its link through the click counter; Priya's /dashboard/ad-analytics shows that view;
an edit of the live creative sends it back to review, and she ends the flight: the unspent budget is
refunded to her card, her flight says so, and its receipt downloads as a PDF.
axe-core once per screen built; screenshots at 1280 and 375 px, light and dark (tests/artifacts/ads-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from tests import stripe_standin
from tests.conftest import LiveServer, demo_database, free_port, start_server, stop_server
from tests.e2e.accessibility import (
    PUBLIC_LOOKS,
    check_every_look,
    full_page_screenshots,
    loaded,
    signed_in_at,
)
from tests.e2e.conftest import DESKTOP, _page, open_page, page_errors
from tests.factories import png_bytes

PROVIDER = "provider@demo.medivisit.test"
MANAGER = "management@demo.medivisit.test"
HEADLINE = "Blood draws at home with Priya"
SLOT = ".ad-slot[data-ad-placement='SERVICES_TOP']"


@pytest.fixture(scope="module")
def stripe() -> Iterator[stripe_standin.StripeStandIn]:
    standin, server = stripe_standin.serve()
    standin.hosted_here = True
    yield standin
    server.shutdown()


@pytest.fixture(scope="module")
def site(tmp_path_factory, stripe: stripe_standin.StripeStandIn) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("ads")
    port = free_port()
    server = start_server(
        tmp,
        port=port,
        SITE_URL=f"http://127.0.0.1:{port}",  # where Stripe's page sends the advertiser back
        DATABASE_URL=demo_database(tmp / "ads.db"),
        REMINDERS_ENABLED="false",
        EARNINGS_RELEASE_ENABLED="false",
        UPLOAD_DIR=str(tmp / "uploads"),
        PAYMENT_GATEWAY="stripe",
        STRIPE_SECRET_KEY=stripe_standin.SECRET_KEY,
        STRIPE_WEBHOOK_SECRET=stripe_standin.WEBHOOK_SECRET,
        STRIPE_API_BASE=stripe.url,
    )
    yield server
    stop_server(server)


@pytest.fixture
def second_page(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, DESKTOP)


@pytest.fixture
def third_page(browser: Browser) -> Iterator[Page]:
    yield from _page(
        browser, DESKTOP, user_agent="Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36"
    )


def test_a_flight_from_booking_to_a_sponsored_slot_and_its_figures(
    page: Page, second_page: Page, third_page: Page, site: LiveServer, stripe: stripe_standin.StripeStandIn
) -> None:
    problems: list[str] = []

    # Priya books a flight in Services, top, with an image, and previews it.
    signed_in_at(page, site, PROVIDER, "/ad-purchase")
    form = page.locator("#ad-form")
    form.get_by_label("Flight name").fill("Spring home draws")
    form.get_by_label("Services, top").check()
    form.get_by_label("Budget (USD)").fill("120")
    form.get_by_label("Headline", exact=True).fill(HEADLINE)
    form.get_by_label("Line under the headline").fill(
        "Licensed phlebotomist, weekday mornings. Results vary."
    )
    form.get_by_label("Link (https)").fill("https://example.com/priya")
    page.locator("#ad-image-file").set_input_files(
        files=[FilePayload(name="clinic.png", mimeType="image/png", buffer=png_bytes())]
    )
    expect(page.get_by_alt_text("Your uploaded image")).to_be_visible()
    form.get_by_role("button", name="Preview").click()
    preview = page.locator(".ad-preview")
    expect(preview.get_by_text("Sponsored")).to_be_visible()
    expect(preview.get_by_text(HEADLINE)).to_be_visible()
    problems += check_every_look(page, "/ad-purchase", looks=PUBLIC_LOOKS)
    full_page_screenshots(page, "ads-purchase")
    form.get_by_role("button", name="Submit for review").click()
    expect(page.get_by_role("heading", name="Thanks: your flight is in review")).to_be_visible()

    # Morgan reviews it: the screening found nothing, a person still decides.
    signed_in_at(second_page, site, MANAGER, "/staff/ads")
    flight = second_page.get_by_role("listitem").filter(
        has=second_page.get_by_role("heading", name="Spring home draws")
    )
    expect(flight.get_by_text("Screening found no health claims")).to_be_visible()
    expect(flight.get_by_text(HEADLINE)).to_be_visible()
    problems += check_every_look(second_page, "/staff/ads", looks=PUBLIC_LOOKS)
    full_page_screenshots(second_page, "ads-review")
    flight.get_by_role("button", name="Approve Spring home draws").click()
    expect(second_page.get_by_text("No flights are waiting for review.")).to_be_visible()

    # Approved, it waits for its budget: Priya pays it by card on Stripe's page; Stripe's webhook starts it.
    open_page(page, site.url("/ad-purchase"))
    loaded(page)
    mine = (
        page.get_by_role("region", name="Your flights")
        .get_by_role("listitem")
        .filter(has=page.get_by_role("heading", name="Spring home draws"))
    )
    expect(mine).to_contain_text("Awaiting payment: $120 by card before it runs")
    mine.get_by_role("button", name="Pay $120 by card for Spring home draws").click()
    expect(page).to_have_url(re.compile(re.escape(stripe.url) + r"/c/pay/cs_test\d+$"))
    [checkout] = [s for s in stripe.sessions.values() if s["status"] == "open"]
    assert checkout["amount_total"] == 12000 and checkout["metadata"]["ad_flight_id"]
    paid = checkout | {"status": "complete", "payment_status": "paid", "payment_intent": "pi_test_ad"}
    body, header = stripe_standin.signed(stripe_standin.event("checkout.session.completed", paid))
    for _delivery in range(2):  # Stripe redelivers: applied once
        answer = httpx.post(
            site.url("/api/payments/stripe/webhook"), content=body, headers={"Stripe-Signature": header}
        )
    assert answer.json()["result"] == "duplicate"
    open_page(page, checkout["success_url"])
    loaded(page)
    expect(page.get_by_text("Thanks: your payment is being confirmed.")).to_be_visible()
    expect(mine).to_contain_text("Paid by card: $120")
    expect(mine).to_contain_text("Running")
    problems += check_every_look(page, "/ad-purchase with a paid flight", looks=PUBLIC_LOOKS)

    # A visitor finds it on /services, labelled Sponsored, its link through the click counter. Approval
    # reaches the serving snapshot after the commit's event: reload until the slot has it.
    slot = third_page.locator(SLOT)
    for _attempt in range(10):
        open_page(third_page, site.url("/services"))
        try:
            expect(slot).to_be_visible(timeout=2_000)
            break
        except AssertionError:
            continue
    expect(slot.get_by_text("Sponsored")).to_be_visible()
    expect(slot.get_by_role("link", name=re.compile(HEADLINE))).to_have_attribute(
        "href", re.compile(r"^/api/ads/click/[0-9a-f-]+\?p=SERVICES_TOP$")
    )
    slot.scroll_into_view_if_needed()
    problems += check_every_look(third_page, "/services with an ad", looks=PUBLIC_LOOKS)
    full_page_screenshots(third_page, "ads-services-slot")

    # Priya sees the view in her figures.
    open_page(page, site.url("/dashboard/ad-analytics"))
    loaded(page)
    expect(page.get_by_role("table", name="Figures by flight and placement")).to_contain_text("SERVICES_TOP")
    impressions = page.locator("article.stat-card").filter(has_text="Impressions")
    expect(impressions.get_by_text("1", exact=True)).to_be_visible()  # the visitor's one view
    problems += check_every_look(page, "/dashboard/ad-analytics", looks=PUBLIC_LOOKS)
    full_page_screenshots(page, "ads-analytics")

    # She edits the live creative: it goes back to review. Then she ends the flight.
    page.get_by_role("button", name="Edit Spring home draws").click()
    editor = page.get_by_role("dialog", name="Edit “Spring home draws”")
    editor.get_by_label("Headline", exact=True).fill("Home blood draws, weekday mornings")
    editor.get_by_role("button", name="Save and send to review").click()
    flights = page.get_by_role("table", name="Your flights")
    expect(flights.get_by_text("In review")).to_be_visible()
    page.get_by_role("button", name="End Spring home draws").click()
    page.get_by_role("dialog", name="End “Spring home draws”?").get_by_role(
        "button", name="End flight"
    ).click()
    expect(flights.get_by_text("Ended", exact=True)).to_be_visible()

    # What it did not spend goes back to her card; her flight says so, with its statement and receipt.
    [refund] = stripe.calls("POST", "/v1/refunds")
    assert refund.params["payment_intent"] == "pi_test_ad" and int(refund.params["amount"]) >= 11_990
    open_page(page, site.url("/ad-purchase"))
    loaded(page)
    expect(mine).to_contain_text("unspent refunded to your card")
    mine.get_by_role("button", name="Spend statement of Spring home draws").click()
    statement = page.get_by_role("dialog", name="Spend statement: Spring home draws")
    expect(statement.get_by_role("table", name="Daily spend")).to_contain_text("1")
    problems += check_every_look(page, "/ad-purchase spend statement", looks=PUBLIC_LOOKS)
    full_page_screenshots(page, "ads-statement")
    statement.get_by_role("button", name="Close").click()
    receipt = mine.get_by_role("link", name="Download the receipt of Spring home draws (PDF)")
    pdf = page.request.get(site.url(receipt.get_attribute("href") or ""))
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    assert problems == []
    assert page_errors(page) == [] and page_errors(second_page) == [] and page_errors(third_page) == []
