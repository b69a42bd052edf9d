"""Issue 4, done when: a signed-out visitor finds a provider by ZIP code and service, fills the cart (one
visit from a search result card, one from a service page), signs in at checkout with the cart kept, books
two visits (a chosen provider and "First available", times held and replaced, the address entered) and gets
the confirmation on screen and by e-mail; the provider confirms one visit, the patient cancels the other and
finds it under Past. Also: a time another patient takes first shows the service's message and the times
refresh.

The site gets its own database (SQLite, and PostgreSQL when TEST_DATABASE_URL is set): the demo seed (the
patient Jordan Lee and the provider Priya Shah, who travels to ZIP 10001), Priya open every day from 7 AM to
7 PM, a second, better rated IV nurse for "First available", and two more patients. Browsers live in New
York, like the providers, so the times on screen are the providers' own.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from sqlalchemy import select

from app.auth.sessions import find_user_by_email
from app.db import Database
from app.principal import SYSTEM
from app.services.accounts import DEMO_PASSWORD
from app.services.accounts.internal import create_account
from app.services.appointments.internal import add_review
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from components.format import format_date
from models.provider import Provider
from tests.conftest import (
    LiveServer,
    create_postgres_database,
    demo_database,
    drop_later,
    html_part,
    seed_demo,
    start_server,
    stop_server,
)
from tests.e2e.conftest import DESKTOP, MOBILE, open_page, page_errors, screenshot, watch_errors
from tests.e2e.helpers import bounds, sign_in, toasts
from tests.factories import license_in, present

ZIP = "10001"
ZONE = "America/New_York"
PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
OTHER_PASSWORD = "Booking-Flow-1"
RIVALS = ("taylor@patients.medivisit.test", "sam@patients.medivisit.test")
DRAW = "Routine blood draw"  # Priya Shah's price: $85
INJECTION = "Injection or medication visit"  # Priya Shah's price: $89
HYDRATION = "Hydration IV (1 liter)"  # list $149; Elena Torres $150, both 30 % off in the daily flash sale
POLICY_WINDOW_DAYS = 2  # every visit booked here starts more than 24 hours ahead
ORDER_NUMBER = re.compile(r"MV-[2-9A-HJ-NP-Z]{6}")


# ---- the site ---------------------------------------------------------------------------------------
async def _populate(database_url: str) -> None:
    database = Database(database_url)
    every_day = [Hours(day, 7 * 60, 19 * 60) for day in range(7)]
    try:
        async with database.unit_of_work() as session:
            priya_user = present(await find_user_by_email(session, PROVIDER))
            priya = present(await session.scalar(select(Provider).where(Provider.user_id == priya_user.id)))
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=priya.id, hours=every_day)
            elena = await create_provider(
                session=session,
                actor=SYSTEM,
                first_name="Elena",
                last_name="Torres",
                provider_type="nurse",
                license_type="RN",
                license_state="NY",
                bio="Registered nurse for home infusions in Manhattan.",
                time_zone=ZONE,
                verified=True,
            )
            await set_services(
                session=session,
                actor=SYSTEM,
                provider_id=elena.id,
                offers=[ServiceOffer("iv-hydration", Decimal("150"))],
            )
            await license_in(session, elena.id)
            await set_service_area(session=session, actor=SYSTEM, provider_id=elena.id, zip_codes=[ZIP])
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=elena.id, hours=every_day)
            for _ in range(4):
                await add_review(session=session, provider_id=elena.id, rating=5, visit_completed=True)
            for email, name in zip(RIVALS, ("Taylor Kim", "Sam Ortiz"), strict=True):
                await create_account(
                    session=session, email=email, password=OTHER_PASSWORD, role="patient", name=name
                )
    finally:
        await database.dispose()


def _databases() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get("TEST_DATABASE_URL") else ["sqlite"]


@pytest.fixture(scope="module", params=_databases())
def site(request, tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("booking")
    _inbox, smtp_url = smtp_server
    # Playwright's thread already runs an event loop: whatever runs one of its own goes to a worker thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        if request.param == "postgresql":
            database_url = pool.submit(create_postgres_database, os.environ["TEST_DATABASE_URL"]).result()
        else:
            database_url = demo_database(tmp / "booking.db")  # a copy of the run's seeded demo database
        server = start_server(tmp, DATABASE_URL=database_url, SMTP_URL=smtp_url, REMINDERS_ENABLED="false")
        try:
            if request.param == "postgresql":  # the SQLite copy holds the demo data already
                seed_demo(database_url)
            pool.submit(asyncio.run, _populate(database_url)).result()
            yield server
        finally:
            stop_server(server)
            if request.param == "postgresql":
                drop_later(os.environ["TEST_DATABASE_URL"], [database_url.rpartition("/")[2]])


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages of separate browsers (contexts) in New York: one per person in the test."""
    contexts = []

    def make(viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(viewport=viewport, service_workers="block", timezone_id=ZONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        watch_errors(page)
        return page

    yield make
    for context in contexts:
        context.close()


# ---- locators -----------------------------------------------------------------------------------------
def header_cart(page: Page) -> Locator:
    return page.get_by_role("banner").get_by_role("button", name=re.compile(r"^Cart"))


def cart_panel(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Your Cart")


def visit(page: Page, service: str) -> Locator:
    """A visit line of the checkout, or a visit card of My Appointments."""
    return page.get_by_role("article", name=service)


def day_chips(line: Locator) -> Locator:
    return line.get_by_role("group", name="Day").get_by_role("button")


def times(line: Locator) -> Locator:
    """The open times of a visit line, once they are loaded for the chosen day."""
    grid = line.get_by_role("group", name=re.compile(r"^Time"))
    expect(grid).to_have_attribute("aria-busy", "false")
    return grid.get_by_role("button")


def time_chip(line: Locator, label: str) -> Locator:
    return times(line).filter(has_text=re.compile(rf"^{re.escape(label)}$"))


def summary(page: Page) -> Locator:
    return page.get_by_role("complementary", name="Order summary")


def summary_totals(scope: Locator) -> list[str]:
    return [
        re.sub(r"\s+", " ", row).strip() for row in scope.locator(".summary-totals > div").all_inner_texts()
    ]


def day_ahead(days: int, *, weekdays_only: bool = False) -> date:
    """The day `days` from today in New York (the browsers' and the providers' zone); with `weekdays_only`,
    the first Monday-to-Friday day from then on (the demo's Priya Shah works Monday to Friday), so a test
    passes on whatever day of the week it runs."""
    day = datetime.now(ZoneInfo(ZONE)).date() + timedelta(days=days)
    while weekdays_only and day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def choose_day(line: Locator, day: int | date) -> None:
    """Choose the day chip of `day` (a date, or so many days from today)."""
    if isinstance(day, int):
        day = day_ahead(day)
    chip = line.get_by_role("group", name="Day").get_by_role(
        "button", name=re.compile(rf", {re.escape(format_date(day))}$")
    )
    chip.click()
    expect(chip).to_have_attribute("aria-pressed", "true")
    # The times of that day, not the previous day's still on screen a moment after the chip is pressed.
    expect(line.locator(f'[data-day="{day.isoformat()}"]')).to_have_attribute("aria-busy", "false")


def held(line: Locator) -> Locator:
    return line.get_by_role("status").filter(has_text="Held until")


def hold(line: Locator, day: int | date, label: str | None = None) -> str:
    """Choose `day` (a date, or so many days from today) and a time (the first one if no `label`); returns
    the time chosen once the line says it is held."""
    choose_day(line, day)
    chip = time_chip(line, label) if label else times(line).first
    label = chip.inner_text()
    chip.click()
    expect(held(line)).to_be_visible()
    expect(time_chip(line, label)).to_have_attribute("aria-pressed", "true")
    return label


def snapshot(page: Page, name: str) -> None:
    """The whole page from the top, at desktop and at phone size (where it must not scroll sideways)."""
    for size, viewport in (("desktop", DESKTOP), ("mobile", MOBILE)):
        page.set_viewport_size(viewport)
        no_horizontal_overflow(page)
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-{size}", full_page=True, animations="disabled")
    page.set_viewport_size(DESKTOP)


def add_priyas_draw(page: Page, site: LiveServer) -> None:
    """Find a Provider: search ZIP code 10001 for blood draws and add Priya Shah's from her card."""
    open_page(page, site.url("/find-provider"))
    search = page.get_by_role("search", name="Find a provider")
    search.get_by_label("ZIP code").fill(ZIP)
    search.get_by_label("Service", exact=True).select_option("routine-blood-draw")
    search.get_by_role("button", name="Search").click()
    expect(page.locator(f'.search-results[data-results-for*="zip={ZIP}"][aria-busy="false"]')).to_be_visible()
    visit(page, "Priya Shah").get_by_role("button", name="Add to cart").click()
    expect(toasts(page, f"Added {DRAW} to cart")).to_be_visible()


def no_horizontal_overflow(page: Page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


# ---- issue 4 -------------------------------------------------------------------------------------------
def test_find_book_confirm_and_cancel(site: LiveServer, new_page, smtp) -> None:
    page = new_page()

    # A signed-out visitor searches by ZIP code and service and adds Priya's blood draw from her card.
    add_priyas_draw(page, site)
    expect(cart_panel(page).get_by_text("with Priya Shah")).to_be_visible()
    page.keyboard.press("Escape")

    # ... and an IV from the IV-therapy page, "from" the lowest provider's price while no provider is chosen.
    open_page(page, site.url("/services/iv-therapy"))
    visit(page, HYDRATION).get_by_role("button", name="Add to cart").click()
    expect(toasts(page, f"Added {HYDRATION} to cart")).to_be_visible()
    panel = cart_panel(page)
    expect(panel).to_be_visible()
    expect(header_cart(page)).to_have_accessible_name("Cart (2 items)")
    expect(header_cart(page).locator(".badge-count > [aria-hidden=true]")).to_have_text("2")
    # $85 + from $98 (30 % off the lowest provider's $140); 5 % of $183 is $9.15.
    assert [
        re.sub(r"\s+", " ", t).strip() for t in panel.locator(".cart-totals > div").all_inner_texts()
    ] == [
        "Subtotal from $183",
        "Platform fee (5%) from $9.15",
        "Total from $192.15",
    ]

    # Checkout asks for an account, then comes back to the same cart.
    panel.get_by_role("link", name="Checkout").click()
    expect(page).to_have_url(re.compile(r"/login\?redirect=(/|%2F)checkout$"))
    expect(toasts(page, "Please sign in to book your visits")).to_be_visible()
    page.get_by_label("Email").fill(PATIENT)
    page.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/checkout$"))
    expect(page.get_by_role("heading", name="Checkout", level=1)).to_be_visible()
    toasts(page, "Authentication successful").get_by_role("button", name="Close notification").click()
    expect(header_cart(page)).to_have_accessible_name("Cart (2 items)")
    draw, iv = visit(page, DRAW), visit(page, HYDRATION)
    expect(draw.get_by_label("Provider").locator("option:checked")).to_have_text("Priya Shah")
    expect(iv.get_by_label("Provider").locator("option:checked")).to_have_text("First available")
    expect(draw.get_by_text("Enter your ZIP code above to see open times.")).to_be_visible()
    # Never disabled (GOV.UK): Place order now would say what is missing (tests/e2e/test_keyboard_booking.py).
    expect(summary(page).get_by_role("button", name="Place order")).to_be_enabled()

    # The ZIP code shows the times; another time replaces the hold (the first one is open again).
    page.get_by_label("ZIP code").fill(ZIP)
    expect(draw.get_by_label("Provider").locator("option:checked")).to_have_text("Priya Shah · $85")
    first = hold(draw, POLICY_WINDOW_DAYS + 1)
    last = times(draw).last.inner_text()
    time_chip(draw, last).click()
    expect(time_chip(draw, last)).to_have_attribute("aria-pressed", "true")
    expect(summary(page).get_by_role("listitem").filter(has_text=DRAW)).to_contain_text(last)
    choose_day(draw, POLICY_WINDOW_DAYS)
    choose_day(draw, POLICY_WINDOW_DAYS + 1)
    expect(time_chip(draw, first)).to_have_attribute("aria-pressed", "false")
    expect(time_chip(draw, last)).to_have_attribute("aria-pressed", "true")

    # "First available" holds the best rated provider free then, at their price.
    hold(iv, POLICY_WINDOW_DAYS, "10:00 AM")
    iv_line = summary(page).get_by_role("listitem").filter(has_text=HYDRATION)
    expect(iv_line).to_contain_text("Elena Torres")
    expect(iv_line.locator("s")).to_have_text("$150")
    expect(iv_line.locator("strong").last).to_have_text("$105")
    assert summary_totals(summary(page)) == ["Subtotal $190", "Platform fee (5%) $9.50", "Total $199.50"]

    place = summary(page).get_by_role("button", name="Place order · $199.50")
    page.get_by_label("Street address").fill("350 W 31st St, Apt 12C")
    page.get_by_label("City").fill("New York")
    page.get_by_label("State").fill("ny")
    draw.get_by_label("Intake notes (optional)").fill("Doorman building: ask for Jordan.")
    snapshot(page, "checkout")
    page.set_viewport_size(MOBILE)  # one column, the summary after the visits
    assert bounds(summary(page))["y"] > bounds(iv)["y"] + bounds(iv)["height"]
    page.set_viewport_size(DESKTOP)  # two columns, the summary beside the visits
    assert bounds(summary(page))["x"] > bounds(draw)["x"] + bounds(draw)["width"]

    place.click()
    expect(page.get_by_role("heading", name="Your visits are requested")).to_be_visible()  # pending visits
    number = page.locator("[data-order-number]").inner_text()
    assert ORDER_NUMBER.fullmatch(number), number
    done = page.get_by_role("main")
    expect(done).to_contain_text(f"Order {number}")
    expect(done).to_contain_text("Home: 350 W 31st St, Apt 12C, New York, NY 10001")
    expect(done.locator(".status-pill")).to_have_text(["Pending", "Pending"])
    assert summary_totals(done) == [
        "Subtotal $190",
        "Platform fee (5%) $9.50",
        "Total, paid at the visit $199.50",
    ]
    expect(header_cart(page)).to_have_accessible_name("Cart")  # the booked items left the cart
    snapshot(page, "checkout-confirmation")
    # The confirmation has its own address: a reload shows the same order, not an empty cart.
    expect(page).to_have_url(re.compile(rf"/orders/{re.escape(number)}$"))
    page.reload()
    expect(page.get_by_role("heading", name="Your visits are requested")).to_be_visible()
    expect(page.locator("[data-order-number]")).to_have_text(number)
    expect(page.get_by_role("main").locator(".status-pill")).to_have_text(["Pending", "Pending"])
    # An order number that is not theirs is said to be so, on a page that leads on to their visits.
    open_page(page, site.url("/orders/MV-000000"))
    missing = page.get_by_role("main")
    expect(missing).to_contain_text("We could not find this order in your account.")
    expect(missing.get_by_role("link", name="My Appointments")).to_have_attribute("href", "/appointments")
    page.go_back()

    # The e-mail reached the patient's inbox, saying what is true: both visits await their provider.
    subject = f"Booking request {number}"
    messages = smtp.wait_for(2)
    confirmation = next(m for m in messages if m["Subject"] == subject)
    assert confirmation["To"] == PATIENT
    body = html_part(confirmation)
    for text in (DRAW, HYDRATION, "Priya Shah", "Elena Torres", "$199.50", "Your visits are requested"):
        assert text in body, text
    assert "Your visits are booked" not in body

    # Both visits are under My Appointments.
    done.get_by_role("link", name="View My Appointments").click()
    expect(page).to_have_url(re.compile(r"/appointments$"))
    for service in (DRAW, HYDRATION):
        expect(visit(page, service).locator(".appt-status")).to_have_text("Pending")
    expect(visit(page, DRAW)).to_contain_text(f"Order {number}")

    # Priya, in her own browser, confirms her visit.
    provider = new_page()
    sign_in(provider, site, PROVIDER, DEMO_PASSWORD, path="/login?redirect=/dashboard/appointments")
    expect(provider).to_have_url(re.compile(r"/dashboard/appointments$"))
    request = visit(provider, DRAW)
    expect(request).to_contain_text("Jordan Lee")
    expect(request).to_contain_text("Doorman building: ask for Jordan.")
    expect(visit(provider, HYDRATION)).to_have_count(0)  # Elena's visit
    request.get_by_role("button", name="Confirm").click()
    expect(toasts(provider, "Visit confirmed").first).to_be_visible()
    expect(request.locator(".appt-status")).to_have_text("Confirmed")

    # The patient sees it confirmed, cancels the IV (more than 24 hours ahead) and finds it under Past.
    expect(visit(page, DRAW).locator(".appt-status")).to_have_text("Confirmed")
    visit(page, HYDRATION).get_by_role("button", name="Cancel visit").click()
    dialog = page.get_by_role("dialog", name="Cancel this visit?")
    dialog.get_by_role("button", name="Cancel visit").click()
    expect(toasts(page, "Visit cancelled")).to_be_visible()
    expect(visit(page, HYDRATION)).to_have_count(0)
    page.get_by_role("tab", name="Past").click()
    expect(visit(page, HYDRATION).locator(".appt-status")).to_have_text("Cancelled")
    assert page_errors(page) == []
    assert page_errors(provider) == []


def test_a_time_taken_first_by_someone_else(site: LiveServer, new_page) -> None:
    rivals = []
    for email in RIVALS:
        page = new_page()
        sign_in(page, site, email, OTHER_PASSWORD, path="/login?redirect=/services")
        expect(page).to_have_url(re.compile(r"/services$"))
        page.locator("#nursing").get_by_role("listitem").filter(has_text=INJECTION).get_by_role(
            "button", name="Add to cart"
        ).click()
        expect(toasts(page, f"Added {INJECTION} to cart")).to_be_visible()
        open_page(page, site.url("/checkout"))
        page.get_by_label("ZIP code").fill(ZIP)
        line = visit(page, INJECTION)
        line.get_by_label("Provider").select_option(label="Priya Shah · $89")
        choose_day(line, POLICY_WINDOW_DAYS + 2)
        expect(time_chip(line, "9:00 AM")).to_be_enabled()
        rivals.append((page, line))

    (slow, slow_line), (quick, quick_line) = rivals
    time_chip(quick_line, "9:00 AM").click()
    expect(held(quick_line)).to_be_visible()

    time_chip(slow_line, "9:00 AM").click()
    message = "That time was just booked by someone else. Please choose another time."
    expect(slow_line.get_by_role("alert")).to_have_text(message)
    expect(time_chip(slow_line, "9:00 AM")).to_have_count(0)  # the times were refreshed
    hold(slow_line, POLICY_WINDOW_DAYS + 2, "1:00 PM")
    expect(slow_line.get_by_role("alert")).to_have_count(0)

    # A visit at home needs the street address too.
    summary(slow).get_by_role("button", name="Place order · $93.45").click()
    errors = slow.locator("#checkout-errors")  # the error summary (tests/e2e/test_keyboard_booking.py)
    expect(errors).to_be_focused()
    expect(errors.get_by_role("link").first).to_have_text("Enter your street address")
    assert page_errors(slow) == [] and page_errors(quick) == []
