"""Issue 17, done when: a patient posts a service request for a ZIP code no provider lists; an eligible
provider's Marketplace shows it within a second, without a reload, and the provider offers; the patient
accepts and the visit is booked (it shows in My Appointments); an ineligible provider never sees it. Signed-out visitors are sent to sign in to
ask. axe-core checks each screen built here once; screenshots at 1280×800 and 375×812, light and dark.

The site is a copy of the run's demo database: the patient Jordan Lee and the provider Priya Shah (routine
blood draws in Manhattan and Brooklyn ZIP codes, a NY licence), open every day from 7 AM to 7 PM here, plus a
Chicago provider account (ZIP 60614, an IL licence) who is not eligible for a New York request. The request
comes from Yonkers (10701), which no demo provider lists: it is 15 miles from Priya's area, within the
25-mile reach of a service request.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from app.auth.sessions import find_user_by_email
from app.db import Database
from app.principal import SYSTEM
from app.services.accounts import DEMO_PASSWORD
from app.services.accounts.internal import create_account
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from models.provider import Provider
from tests.conftest import LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import LOOKS, check_every_look, screenshot_looks, set_look, violations
from tests.e2e.conftest import DESKTOP, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts
from tests.factories import license_in, present

ZONE = "America/New_York"
PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
FAR_AWAY = "cole.chicago@providers.medivisit.test"
FAR_PASSWORD = "Far-Away-Provider-1"
NOTES = "Please use a butterfly needle; my veins are small."


async def _populate(database_url: str) -> None:
    database = Database(database_url)
    every_day = [Hours(day, 7 * 60, 19 * 60) for day in range(7)]
    try:
        async with database.unit_of_work() as session:
            priya_user = present(await find_user_by_email(session, PROVIDER))
            priya = present(await session.scalar(select(Provider).where(Provider.user_id == priya_user.id)))
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=priya.id, hours=every_day)
            cole = await create_account(
                session=session, email=FAR_AWAY, password=FAR_PASSWORD, role="provider", name="Cole Chicago"
            )
            far = await create_provider(
                session=session,
                actor=SYSTEM,
                user_id=cole.id,
                first_name="Cole",
                last_name="Chicago",
                provider_type="nurse",
                time_zone="America/Chicago",
                verified=True,
            )
            await set_services(
                session=session,
                actor=SYSTEM,
                provider_id=far.id,
                offers=[ServiceOffer("routine-blood-draw", Decimal("80"))],
            )
            await license_in(session, far.id, "IL")
            await set_service_area(session=session, actor=SYSTEM, provider_id=far.id, zip_codes=["60614"])
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=far.id, hours=every_day)
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("requests")
    database_url = demo_database(tmp / "requests.db")
    server = start_server(tmp, DATABASE_URL=database_url, REMINDERS_ENABLED="false")
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread runs an event loop already
            pool.submit(asyncio.run, _populate(database_url)).result()
        yield server
    finally:
        stop_server(server)


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[[], Page]]:
    """Pages of separate browsers (contexts) in New York: one per person in the test."""
    contexts = []

    def make() -> Page:
        context = browser.new_context(viewport=DESKTOP, service_workers="block", timezone_id=ZONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def looks(page: Page, name: str, focus: str = "main h1") -> list[str]:
    """axe in the paired looks, then a screenshot in each look with `focus` scrolled into view."""
    problems = check_every_look(page, name)
    for viewport, scheme in screenshot_looks(page, LOOKS):
        page.locator(focus).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        screenshot(page, f"requests-{name}-{viewport['width']}-{scheme}")
    set_look(page, DESKTOP, "light")
    return problems


def board_card(page: Page, service: str = "Routine blood draw"):  # noqa: ANN201 - Locator
    return page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=service))


def test_request_offer_accept_book(site: LiveServer, new_page, page: Page) -> None:
    # Signed out: how it works, and a way to sign in to ask.
    open_page(page, site.url("/service-requests"))
    expect(page.get_by_role("heading", name="Request a service", level=1)).to_be_visible()
    expect(page.get_by_role("link", name="Sign in to request a service")).to_have_attribute(
        "href", "/login?redirect=%2Fservice-requests"
    )
    problems = violations(page, "service requests, signed out")
    screenshot(page, "requests-signed-out-1280-light", full_page=True)

    patient, provider, far = new_page(), new_page(), new_page()
    sign_in(provider, site, PROVIDER, DEMO_PASSWORD, path="/login?redirect=/dashboard/marketplace")
    expect(provider.get_by_role("heading", name="Marketplace", level=1)).to_be_visible()
    expect(provider.get_by_text("No open requests in your area right now.")).to_be_visible()
    sign_in(patient, site, PATIENT, DEMO_PASSWORD, path="/login?redirect=%2Fservice-requests")
    expect(patient.get_by_role("heading", name="New request")).to_be_visible()

    # The patient asks for a home blood draw in Yonkers, the day after tomorrow from 9 to noon.
    day = (datetime.now(ZoneInfo(ZONE)) + timedelta(days=2)).date().isoformat()
    patient.get_by_label("Service", exact=True).select_option(label="Routine blood draw")
    patient.get_by_label("Place of visit").select_option(label="Home")
    patient.get_by_label("ZIP code").fill("10701")
    first = patient.get_by_role("group", name="Preferred time 1")
    first.get_by_label("Date").fill(day)
    first.get_by_label("From").fill("09:00")
    first.get_by_label("To").fill("12:00")
    patient.get_by_label("Notes for the provider you choose").fill(NOTES)
    patient.get_by_role("button", name="Send request").click()
    expect(toasts(patient, "Request sent")).to_be_visible()
    mine = board_card(patient)
    expect(mine).to_contain_text("Waiting for offers")

    # Priya's board shows it live, without a reload and without the notes.
    expect(board_card(provider)).to_be_visible(timeout=1_000)
    expect(board_card(provider)).to_contain_text("ZIP 10701 (Yonkers, NY)")
    expect(provider.get_by_text(NOTES)).to_have_count(0)
    # A provider in Chicago never sees it.
    sign_in(far, site, FAR_AWAY, FAR_PASSWORD, path="/login?redirect=/dashboard/marketplace")
    expect(far.get_by_text("No open requests in your area right now.")).to_be_visible()
    expect(board_card(far)).to_have_count(0)
    problems += looks(provider, "marketplace")

    # Priya offers $80 at her first open time inside the window.
    board_card(provider).get_by_role("button", name=re.compile("^Send an offer")).click()
    dialog = provider.get_by_role("dialog", name="Offer: Routine blood draw")
    start = dialog.get_by_label("Start time")
    expect(start.locator("option").first).to_contain_text("9:00 AM")
    dialog.get_by_label("Price (USD)").fill("80")
    dialog.get_by_label("Message to the patient").fill("I can come at nine sharp.")
    screenshot(provider, "requests-offer-dialog-1280-light")
    dialog.get_by_role("button", name="Send offer").click()
    expect(toasts(provider, "Offer sent")).to_be_visible()
    expect(board_card(provider)).to_contain_text("Your offer: $80.00")

    # The patient sees the offer arrive, and accepts it with the address.
    expect(mine).to_contain_text("Offers received")
    expect(mine).to_contain_text("Priya Shah")
    problems += looks(patient, "patient", "#my-requests-title")
    mine.get_by_role("button", name="Accept Priya Shah's offer").click()
    accept = patient.get_by_role("dialog", name="Book this visit")
    accept.get_by_label("Street address").fill("86 Main St")
    accept.get_by_label("City").fill("Yonkers")
    accept.get_by_label("State").fill("NY")
    screenshot(patient, "requests-accept-dialog-1280-light")
    accept.get_by_role("button", name="Book visit").click()
    expect(toasts(patient, "Visit booked")).to_be_visible()
    expect(mine).to_contain_text(re.compile(r"Booked: order MV-[2-9A-HJ-NP-Z]{6}"))

    open_page(patient, site.url("/appointments"))
    expect(
        patient.get_by_role("article", name="Routine blood draw").filter(has_text="Priya Shah").first
    ).to_be_visible()

    # Priya's Jobs: the won job, with the patient's notes now.
    open_page(provider, site.url("/dashboard/jobs"))
    won = provider.get_by_role("region", name="Won jobs")
    expect(won).to_contain_text(NOTES)
    expect(provider.get_by_role("table", name="My offers")).to_contain_text("Accepted")
    problems += looks(provider, "jobs")
    assert problems == []
