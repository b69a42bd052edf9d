"""The first frame in the HTML (medivisit/reactpy_compat/first_paint.py) handing over to the live tree
(static/js/first-paint.js): what a fast visitor does before the scripts have run is not lost. The test holds
back ReactPy's client bundle, acts on the server's copy, then lets the bundle load. The server gets a first
frame budget long enough for its reads on a loaded machine (the catalog fills the hero's service list)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, Route, expect

from tests.conftest import LiveServer, seed_demo, start_server, stop_server
from tests.e2e.conftest import page_errors

# ReactPy's client, as the page loads it (patched, under its own name: medivisit/reactpy_compat/client.py).
CLIENT_BUNDLE = re.compile(r"/_reactpy/assets/[^/]*\.js$")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("first-frame")
    server = start_server(tmp, FIRST_PAINT_BUDGET_MS="10000")
    seed_demo(f"sqlite:///{tmp / 'live.db'}", demo=False)  # the service catalog
    yield server
    stop_server(server)


def hold_client(page: Page) -> Callable[[], None]:
    """Hold ReactPy's client bundle back; returns the function that lets it load."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(CLIENT_BUNDLE, hold)

    def release() -> None:
        for route in held:
            route.continue_()
        page.unroute(CLIENT_BUNDLE, hold)

    return release


def live(page: Page) -> None:
    """Wait until the live tree has replaced the first frame."""
    page.locator("#app .site-header").wait_for()
    expect(page.locator("#first-paint")).to_have_count(0)


def after_mount_effects(page: Page) -> None:
    """Wait until the live tree's mount effects have run (Preact runs them in a task after the next frame)."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))"
    )


def test_what_is_typed_in_the_first_frame_is_kept_and_searched(site: LiveServer, page: Page) -> None:
    release = hold_client(page)
    page.goto(site.url("/"), wait_until="commit")
    hero = page.locator("#first-paint").get_by_role("search", name="Find a provider near you")
    hero.get_by_label("Service").select_option("routine-blood-draw")
    hero.get_by_label("ZIP code").fill("10001")

    release()
    live(page)
    hero = page.get_by_role("search", name="Find a provider near you")
    # The live fields show what was typed, and keep it after their first renders (a field's value used to
    # be put back to the server's empty one a moment after the swap).
    expect(hero.get_by_label("Service")).to_have_value("routine-blood-draw")
    expect(hero.get_by_label("ZIP code")).to_have_value("10001")
    expect(hero.get_by_label("ZIP code")).to_be_focused()
    after_mount_effects(page)
    expect(hero.get_by_label("ZIP code")).to_have_value("10001")

    hero.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/find-provider\?service=routine-blood-draw&zip=10001$"))
    expect(page.get_by_role("search", name="Find a provider").get_by_label("ZIP code")).to_have_value("10001")
    assert page_errors(page) == []


def test_a_button_clicked_in_the_first_frame_is_clicked_in_the_live_page(
    site: LiveServer, page: Page
) -> None:
    release = hold_client(page)
    page.goto(site.url("/services"), wait_until="commit")
    first = page.locator("#first-paint")
    row = first.get_by_role("listitem").filter(has=page.get_by_role("heading", name="Routine blood draw"))
    row.get_by_role("button", name="Add to cart").click()

    release()
    live(page)
    panel = page.get_by_role("dialog", name=re.compile("cart", re.I))
    expect(panel.get_by_role("heading", name=re.compile("Routine blood draw", re.I))).to_be_visible()
    cart = page.get_by_role("banner").get_by_role("button", name=re.compile(r"^Cart"))
    expect(cart.locator(".badge-count > [aria-hidden=true]")).to_have_text("1")
    assert page_errors(page) == []
