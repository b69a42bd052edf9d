"""The provider screens in Chromium: a visitor reads a verified provider's public profile (credentials,
rating and latest reviews, prices with the flash sale struck through, open times by day in their own time
zone), unverified or unknown providers are 'not available', and the demo provider edits their weekly hours,
time off, a price and their service area on /dashboard/services and sees the change on their profile.

The site gets its own database with the demo data (`python -m medivisit seed --demo`) plus one verified provider
with a dozen reviews, an unverified one, and a provider account without a profile.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Page, expect

from app.db import Database
from app.principal import SYSTEM
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
from models.account import Role
from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.conftest import open_page, screenshot
from tests.e2e.helpers import sign_in, toasts, wait_for_screen
from tests.factories import license_in

PASSWORD = "Demo-MediVisit-1"
DEMO_PROVIDER = "provider@demo.medivisit.test"
NEW_PROVIDER = "new-provider@medivisit.test"
VISITOR_ZONE = "America/Chicago"
ALL_DAY = [Hours(day, 0, 1440) for day in range(7)]  # open times whenever the test runs


@dataclass(frozen=True)
class Site:
    server: LiveServer
    listed_id: str
    hidden_id: str


async def _populate(database_url: str) -> tuple[str, str]:
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            listed = await create_provider(
                session=session,
                actor=SYSTEM,
                first_name="Grace",
                last_name="Okafor",
                provider_type="nurse",
                license_type="RN",
                license_state="NY",
                bio="Infusion nurse: IV hydration and blood draws at home or at work.",
                languages=("English", "Spanish"),
                verified=True,
            )
            await set_services(
                session=session,
                actor=SYSTEM,
                provider_id=listed.id,
                offers=[
                    ServiceOffer("routine-blood-draw", Decimal("80")),
                    ServiceOffer("iv-hydration", Decimal("150")),
                ],
            )
            await license_in(session, listed.id)
            await set_service_area(
                session=session, actor=SYSTEM, provider_id=listed.id, zip_codes=["10001", "10002"]
            )
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=listed.id, hours=ALL_DAY)
            for index in range(12):
                await add_review(
                    session=session,
                    provider_id=listed.id,
                    rating=5 - index % 2,
                    comment=f"Visit number {index + 1} went well.",
                    author_name=f"Patient {index + 1}",
                    visit_completed=True,
                )
            await add_review(session=session, provider_id=listed.id, rating=1, comment="Never happened.")
            hidden = await create_provider(
                session=session,
                actor=SYSTEM,
                first_name="Hidden",
                last_name="Unverified",
                provider_type="nurse",
            )
            await create_account(
                session=session, email=NEW_PROVIDER, password=PASSWORD, role=Role.provider, name="Nora New"
            )
    finally:
        await database.dispose()
    return listed.id, hidden.id


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("provider-pages")
    server, database_url = start_demo_server(tmp)
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        listed_id, hidden_id = pool.submit(asyncio.run, _populate(database_url)).result()
    yield Site(server, listed_id, hidden_id)
    stop_server(server)


@pytest.fixture
def visitor(browser: Browser) -> Iterator[Page]:
    """A desktop page whose browser lives in Chicago (times must show in that zone)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, service_workers="block", timezone_id=VISITOR_ZONE
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def _clock(iso: str, zone: str) -> str:
    local = datetime.fromisoformat(iso).astimezone(ZoneInfo(zone))
    return f"{local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


def test_a_visitor_reads_a_verified_providers_profile(site: Site, visitor: Page, mobile_page: Page) -> None:
    page = visitor
    open_page(page, site.server.url(f"/providers/{site.listed_id}"))
    expect(page.get_by_role("heading", level=1, name="Grace Okafor")).to_be_visible()
    expect(page).to_have_title("Grace Okafor | MediVisit")
    hero = page.locator(".profile-hero")
    expect(hero.get_by_text("Verified")).to_be_visible()
    expect(hero.get_by_text("License: RN, NY")).to_be_visible()
    expect(hero.get_by_text("Speaks English, Spanish")).to_be_visible()
    expect(hero.locator(".profile-initials")).to_have_text("GO")  # no photo: initials

    reviews = page.get_by_role("region", name="Reviews")
    expect(reviews.get_by_text("4.5", exact=True)).to_be_visible()
    expect(reviews.get_by_text("(12 reviews)")).to_be_visible()
    expect(reviews.locator(".review")).to_have_count(10)
    expect(reviews.get_by_text("The latest 10 of 12 reviews.")).to_be_visible()
    expect(reviews.get_by_role("img", name="5 out of 5 stars").first).to_be_visible()
    expect(page.get_by_text("Never happened.")).to_have_count(0)  # its visit was never completed

    services = page.get_by_role("region", name="Services and prices")
    iv = services.get_by_role("listitem").filter(has_text="Hydration IV (1 liter)")
    expect(iv.locator("s")).to_contain_text("$150")  # the flash sale strikes the provider's price through
    expect(iv.get_by_text("$105")).to_be_visible()
    expect(iv.get_by_role("button", name="Add to cart")).to_be_visible()
    draw = services.get_by_role("listitem").filter(has_text="Routine blood draw")
    expect(draw.get_by_text("$80")).to_be_visible()
    expect(draw.locator("s")).to_have_count(0)

    area = page.get_by_role("region", name="Service area")
    expect(area.get_by_role("listitem")).to_have_text(["10001", "10002"])

    openings = page.get_by_role("region", name="Next available times")
    days = openings.get_by_role("group", name="Choose a day").get_by_role("button")
    expect(days).to_have_count(7)
    today = datetime.now(UTC).astimezone(ZoneInfo(VISITOR_ZONE)).date()
    expect(days.nth(1)).to_have_accessible_name(
        re.compile(rf"^{(today + timedelta(days=1)):%A}, .*: \d+ open times$")
    )
    slots = openings.locator(".slot")
    expect(slots.first).to_be_visible()
    # every time shows in the visitor's zone (Chicago), not the provider's (New York)
    first = slots.first
    starts = first.get_attribute("data-slot")
    assert starts is not None
    expect(first).to_have_text(_clock(starts, VISITOR_ZONE))

    days.nth(2).click()
    expect(days.nth(2)).to_have_attribute("aria-pressed", "true")
    third = today + timedelta(days=2)
    expect(openings.get_by_role("heading", level=3)).to_have_text(
        re.compile(rf"^{third:%A}, {third:%b} {third.day}, ")
    )
    expect(slots.first).to_have_text("12:00 AM")  # open around the clock: the day starts at midnight
    draws = slots.count()  # the first service offered: 30-minute blood draws
    openings.get_by_label("Service").select_option("iv-hydration")
    # a 60-minute IV visit can't start in the last half hour before the provider's day ends
    expect(slots).to_have_count(draws - 1)
    expect(days.nth(2)).to_have_attribute("aria-pressed", "true")  # the chosen day stays
    expect(
        openings.get_by_text(f"Times are shown in your time zone ({VISITOR_ZONE.replace('_', ' ')})")
    ).to_be_visible()
    screenshot(page, "provider-profile-desktop", full_page=True)

    open_page(mobile_page, site.server.url(f"/providers/{site.listed_id}"))
    expect(mobile_page.get_by_role("heading", level=1, name="Grace Okafor")).to_be_visible()
    expect(mobile_page.locator(".slot").first).to_be_visible()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing overflows sideways
    screenshot(mobile_page, "provider-profile-mobile", full_page=True)


@pytest.mark.parametrize("which", ["unverified", "unknown"])
def test_unverified_or_unknown_providers_are_not_shown(site: Site, page: Page, which: str) -> None:
    provider_id = site.hidden_id if which == "unverified" else "no-such-provider"
    open_page(page, site.server.url(f"/providers/{provider_id}"))
    expect(page.get_by_role("heading", level=1, name="This provider is not available")).to_be_visible()
    expect(page.get_by_role("main").get_by_role("link", name="Find a provider")).to_have_attribute(
        "href", "/find-provider"
    )
    expect(page.get_by_text("Hidden Unverified")).to_have_count(0)


def _signed_in(page: Page, site: Site, email: str) -> None:
    sign_in(page, site.server, email, PASSWORD)
    expect(page).to_have_url(re.compile(r"/(dashboard|provider-enrollment)$"))


def _editor(page: Page, site: Site) -> None:
    open_page(page, site.server.url("/dashboard/services"))
    expect(page.get_by_role("heading", level=1, name="Services & availability")).to_be_visible()
    expect(page.get_by_role("button", name="Save weekly hours")).to_be_visible()


def test_the_demo_provider_edits_hours_time_off_prices_and_area(
    site: Site, page: Page, mobile_page: Page
) -> None:
    _signed_in(page, site, DEMO_PROVIDER)
    _editor(page, site)
    expect(page.get_by_text("Time zone: America/New York")).to_be_visible()

    # weekly hours: a Saturday range is saved; an overlapping Monday range is refused, losing nothing
    hours = page.get_by_role("region", name="Weekly hours")
    hours.get_by_role("button", name="Add hours on Saturday").click()
    hours.get_by_label("Saturday start").fill("10:00")
    hours.get_by_label("Saturday end").fill("14:00")
    hours.get_by_role("button", name="Save weekly hours").click()
    expect(toasts(page, "Weekly hours saved")).to_be_visible()
    hours.get_by_role("button", name="Add hours on Monday").click()
    expect(hours.get_by_label("Monday start")).to_have_count(2)
    hours.get_by_role("button", name="Save weekly hours").click()
    refusal = "Monday: each range needs a start before its end, and ranges can't overlap."
    expect(toasts(page, refusal)).to_be_visible()
    expect(hours.get_by_role("alert")).to_have_text(refusal)
    expect(hours.get_by_label("Saturday start")).to_have_value("10:00")
    expect(hours.get_by_label("Monday start").last).to_have_value("09:00")
    hours.get_by_label("Monday start").last.fill("18:00")
    hours.get_by_label("Monday end").last.fill("20:00")
    hours.get_by_role("button", name="Save weekly hours").click()
    expect(hours.get_by_role("alert")).to_have_count(0)
    expect(toasts(page, "Weekly hours saved").last).to_be_visible()

    # time off: a bad one is refused keeping what was typed; a good one is listed, then removed
    time_off = page.get_by_role("region", name="Time off")
    expect(time_off.get_by_text("No time off planned.")).to_be_visible()
    day = date.today() + timedelta(days=40)
    time_off.get_by_label("Starts").fill(f"{day}T14:00")
    time_off.get_by_label("Ends").fill(f"{day}T09:00")
    time_off.get_by_label("Reason (optional)").fill("Conference")
    time_off.get_by_role("button", name="Add time off").click()
    expect(toasts(page, "Time off needs a start before its end.")).to_be_visible()
    expect(time_off.get_by_label("Reason (optional)")).to_have_value("Conference")
    time_off.get_by_label("Ends").fill(f"{day + timedelta(days=1)}T17:00")
    time_off.get_by_role("button", name="Add time off").click()
    expect(toasts(page, "Time off added")).to_be_visible()
    entry = time_off.get_by_role("list", name="Upcoming time off").get_by_role("listitem")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Conference")
    expect(entry).to_contain_text(f"{day:%b} {day.day}, {day:%Y}, 2:00 PM")
    expect(time_off.get_by_label("Reason (optional)")).to_have_value("")
    screenshot(page, "provider-editor-desktop", full_page=True)
    entry.get_by_role("button", name=re.compile("^Remove time off")).click()
    expect(toasts(page, "Time off removed")).to_be_visible()
    expect(time_off.get_by_text("No time off planned.")).to_be_visible()

    # a price
    services = page.get_by_role("region", name="Services & prices")
    services.get_by_label("Price for Routine blood draw").fill("77")
    services.get_by_role("button", name="Save services & prices").click()
    expect(toasts(page, "Services and prices saved")).to_be_visible()

    # the service area: a bad code is named and the text kept; duplicates are dropped on save
    area = page.get_by_role("region", name="Service area")
    area.get_by_label("ZIP codes").fill("10001, 1234")
    area.get_by_role("button", name="Save service area").click()
    expect(toasts(page, "Not a ZIP code: 1234. ZIP codes are five digits.")).to_be_visible()
    expect(area.get_by_label("ZIP codes")).to_have_value("10001, 1234")
    area.get_by_label("ZIP codes").fill("10002 10001\n10002")
    area.get_by_role("button", name="Save service area").click()
    expect(toasts(page, "Service area saved")).to_be_visible()
    expect(area.get_by_label("ZIP codes")).to_have_value("10001, 10002")

    # the public profile shows the new price and area
    page.get_by_role("link", name="View public profile").click()
    wait_for_screen(page)
    draw = (
        page.get_by_role("region", name="Services and prices")
        .get_by_role("listitem")
        .filter(has_text="Routine blood draw")
    )
    expect(draw.get_by_text("$77")).to_be_visible()
    expect(page.get_by_role("region", name="Service area").get_by_role("listitem")).to_have_text(
        ["10001", "10002"]
    )

    _signed_in(mobile_page, site, DEMO_PROVIDER)
    _editor(mobile_page, site)
    expect(mobile_page.get_by_label("Saturday start")).to_have_value("10:00")  # saved before
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(mobile_page, "provider-editor-mobile", full_page=True)


def test_the_editor_explains_itself_to_everyone_else(site: Site, page: Page, browser: Browser) -> None:
    _signed_in(page, site, "patient@demo.medivisit.test")
    open_page(page, site.server.url("/dashboard/services"))
    expect(page.get_by_role("heading", name="This page is for providers")).to_be_visible()
    expect(page.get_by_role("main").get_by_role("link", name="See our services")).to_have_attribute(
        "href", "/services"
    )

    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    newcomer = context.new_page()
    try:
        _signed_in(newcomer, site, NEW_PROVIDER)
        open_page(newcomer, site.server.url("/dashboard/services"))
        expect(newcomer.get_by_role("heading", name="You don't have a provider profile yet")).to_be_visible()
        expect(
            newcomer.get_by_role("main").get_by_role("link", name="Go to provider enrollment")
        ).to_have_attribute("href", "/provider-enrollment")
    finally:
        context.close()
