"""Find a Provider in Chromium: search by ZIP code and service, see results with their next open slot, sort,
page, and keep every filter in the URL across a reload; /services strikes through IV-therapy prices during
the flash sale. The site gets its own database with the reference catalog and 25 providers in one ZIP."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from app.db import Database
from app.principal import SYSTEM
from app.services.appointments.internal import add_review
from app.services.catalog.internal import ensure_reference_catalog
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from tests.conftest import LiveServer, start_server, stop_server
from tests.e2e.conftest import page_errors, screenshot, watch_errors
from tests.e2e.helpers import wait_for_screen
from tests.factories import license_in

ZIP = "10001"
VISITOR_ZONE = "America/Chicago"
ALL_WEEK = [Hours(day, 0, 1440) for day in range(7)]  # open slots whenever the test runs


async def _populate(database_url: str) -> None:
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            await ensure_reference_catalog(session=session)
            for index in range(25):
                profile = await create_provider(
                    session=session,
                    actor=SYSTEM,
                    first_name=f"Nurse{index:02d}",
                    last_name="Example",
                    provider_type="nurse",
                    license_type="RN",
                    license_state="NY",
                    bio="Registered nurse for home infusions.",
                    verified=True,
                )
                await set_services(
                    session=session,
                    actor=SYSTEM,
                    provider_id=profile.id,
                    offers=[
                        ServiceOffer("iv-hydration", Decimal(200 - index)),
                        ServiceOffer("routine-blood-draw", Decimal(80)),
                    ],
                )
                await license_in(session, profile.id)
                await set_service_area(session=session, actor=SYSTEM, provider_id=profile.id, zip_codes=[ZIP])
                await set_weekly_hours(session=session, actor=SYSTEM, provider_id=profile.id, hours=ALL_WEEK)
                for _ in range(index % 5 + 1):
                    await add_review(
                        session=session, provider_id=profile.id, rating=5 - index % 3, visit_completed=True
                    )
            hidden = await create_provider(
                session=session,
                actor=SYSTEM,
                first_name="Hidden",
                last_name="Unverified",
                provider_type="nurse",
            )
            await set_services(
                session=session,
                actor=SYSTEM,
                provider_id=hidden.id,
                offers=[ServiceOffer("iv-hydration", Decimal(1))],
            )
            await license_in(session, hidden.id)
            await set_service_area(session=session, actor=SYSTEM, provider_id=hidden.id, zip_codes=[ZIP])
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def marketplace(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("marketplace")
    database_url = f"sqlite:///{tmp / 'marketplace.db'}"
    server = start_server(tmp, DATABASE_URL=database_url)
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        pool.submit(asyncio.run, _populate(database_url)).result()
    yield server
    stop_server(server)


@pytest.fixture
def visitor(browser: Browser) -> Iterator[Page]:
    """A desktop page whose browser lives in Chicago (the times must show in that zone)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, service_workers="block", timezone_id=VISITOR_ZONE
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    watch_errors(page)
    yield page
    context.close()


def query_of(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def expect_results_for(page: Page, query: str) -> None:
    """Wait until the results on screen are those of `query` (not the previous ones, still shown while
    the next load runs)."""
    expect(page.locator(f'.search-results[data-results-for="{query}"][aria-busy="false"]')).to_be_visible()


def cards(page: Page):  # noqa: ANN201 - Locator
    return page.locator(".provider-card")


def test_search_sort_page_and_reload_keep_the_filters(marketplace: LiveServer, visitor: Page) -> None:
    page = visitor
    page.goto(marketplace.url("/find-provider"))
    wait_for_screen(page)
    form = page.get_by_role("search", name="Find a provider")
    form.get_by_label("ZIP code").fill(ZIP)
    form.get_by_label("Service", exact=True).select_option("iv-hydration")
    # The page goes on updating (the unfiltered results arrive): what was typed must stay.
    expect_results_for(page, "sort=soonest")
    expect(form.get_by_label("ZIP code")).to_have_value(ZIP)
    form.get_by_role("button", name="Search").click()

    expect(page).to_have_url(re.compile(r"zip=10001"))
    assert query_of(page) == {"zip": [ZIP], "service": ["iv-hydration"], "sort": ["soonest"]}
    expect_results_for(page, "service=iv-hydration&zip=10001&sort=soonest")
    status = page.get_by_role("status").filter(has_text="providers match")
    expect(status).to_have_text("25 providers match; showing 1–20.")
    expect(cards(page)).to_have_count(20)
    expect(page.get_by_text("Hidden Unverified")).to_have_count(0)
    first = cards(page).first
    expect(first.get_by_text("Next opening:")).to_be_visible()
    expect(first.get_by_text("(1 hr visit)")).to_be_visible()
    slot_text = first.locator("[data-next-slot]").inner_text()
    assert re.search(r"\d{1,2}:\d{2} (AM|PM) C[SD]T$", slot_text), slot_text  # the visitor's zone
    expect(page.get_by_text(f"your time zone ({VISITOR_ZONE.replace('_', ' ')})")).to_be_visible()
    screenshot(page, "find-provider-results")

    page.get_by_role("navigation", name="Sort providers").get_by_role("link", name="Price").click()
    expect(page).to_have_url(re.compile(r"sort=price"))
    expect_results_for(page, "service=iv-hydration&zip=10001&sort=price")
    expect(cards(page).first.get_by_role("heading")).to_have_text("Nurse24 Example")  # $176, the lowest
    expect(cards(page).first.locator(".price-original")).to_contain_text("$176")

    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Next").click()
    expect(page).to_have_url(re.compile(r"page=2"))
    expect_results_for(page, "service=iv-hydration&zip=10001&sort=price&page=2")
    expect(status).to_have_text("25 providers match; showing 21–25.")
    expect(cards(page)).to_have_count(5)
    expect(cards(page).first.get_by_role("heading")).to_have_text("Nurse04 Example")
    before_reload = query_of(page)
    assert before_reload == {"service": ["iv-hydration"], "zip": [ZIP], "sort": ["price"], "page": ["2"]}

    page.reload()
    wait_for_screen(page)
    assert query_of(page) == before_reload
    expect(status).to_have_text("25 providers match; showing 21–25.")
    form = page.get_by_role("search", name="Find a provider")
    expect(form.get_by_label("ZIP code")).to_have_value(ZIP)
    expect(form.get_by_label("Service", exact=True)).to_have_value("iv-hydration")
    expect(page.get_by_role("link", name="Price")).to_have_attribute("aria-current", "true")

    page.go_back()
    expect_results_for(page, "service=iv-hydration&zip=10001&sort=price")
    expect(status).to_have_text("25 providers match; showing 1–20.")
    assert page_errors(page) == []


def test_services_strike_through_iv_prices(marketplace: LiveServer, visitor: Page) -> None:
    page = visitor
    page.goto(marketplace.url("/services"))
    wait_for_screen(page)
    iv = page.locator("#iv-therapy")
    hydration = iv.get_by_role("listitem").filter(has_text="Hydration IV (1 liter)")
    expect(hydration.locator("s.price-original")).to_have_text("Regular price $149")
    expect(hydration.locator(".price-now")).to_have_text("Sale price $104.30")
    expect(iv.locator("s.price-original")).to_have_count(4)
    expect(page.locator("#phlebotomy s")).to_have_count(0)  # only IV therapy is on sale
    expect(page.locator("#phlebotomy").get_by_text("$79", exact=True)).to_be_visible()
    iv.scroll_into_view_if_needed()
    screenshot(page, "services-iv-sale")


def test_browse_and_featured_providers(marketplace: LiveServer, visitor: Page) -> None:
    page = visitor
    page.goto(marketplace.url("/providers?sort=rating"))
    wait_for_screen(page)
    expect(page.get_by_role("status").filter(has_text="providers match")).to_have_text(
        "25 providers match; showing 1–20."
    )
    page.goto(marketplace.url("/provider-of-month"))
    wait_for_screen(page)
    featured = page.locator(".featured-card")
    expect(featured.first).to_be_visible()
    expect(featured).to_have_count(5)  # the five with at least five reviews
    expect(page.get_by_text("Hidden Unverified")).to_have_count(0)
    assert page_errors(page) == []


def test_the_search_in_the_home_hero_opens_find_a_provider_with_its_filters(
    marketplace: LiveServer, visitor: Page
) -> None:
    page = visitor
    page.goto(marketplace.url("/"))
    wait_for_screen(page)  # the live page, not the first frame in the HTML
    hero = page.get_by_role("search", name="Find a provider near you")
    hero.get_by_label("Service").select_option("routine-blood-draw")
    hero.get_by_label("ZIP code").fill(ZIP)
    hero.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(rf"/find-provider\?service=routine-blood-draw&zip={ZIP}$"))
    expect(page.locator('.search-results[aria-busy="false"]')).to_be_visible()
    expect(cards(page).first).to_be_visible()
    # The search form on Find a Provider carries what the hero sent.
    expect(page.get_by_role("search", name="Find a provider").get_by_label("ZIP code")).to_have_value(ZIP)
