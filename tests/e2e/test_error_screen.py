"""A screen that raises (SPEC §2 router fallback, §8): 'Unexpected Application Error!' with the message,
inside a frame that keeps working, and navigating away recovers.

Runs against a second server started with MEDIVISIT_TEST_BROKEN_SCREEN=1, which mounts the test-only
route /__test__/broken whose screen raises RuntimeError("Deliberate failure for tests").
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.conftest import LiveServer, start_server, stop_server
from tests.e2e.conftest import open_page, page_errors
from tests.e2e.helpers import ROUTER_FALLBACK, expect_frame, wait_for_screen

BROKEN_PATH = "/__test__/broken"
MESSAGE = "Deliberate failure for tests"


@pytest.fixture(scope="module")
def broken_server(tmp_path_factory) -> Iterator[LiveServer]:
    server = start_server(tmp_path_factory.mktemp("broken"), MEDIVISIT_TEST_BROKEN_SCREEN="1")
    yield server
    stop_server(server)


def test_failing_screen_shows_the_error_inside_a_working_frame(broken_server, page) -> None:
    response = page.goto(broken_server.url(BROKEN_PATH))
    assert response is not None and response.status == 200
    wait_for_screen(page)
    expect(page.get_by_role("heading", name=ROUTER_FALLBACK)).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text(MESSAGE)
    expect_frame(page)

    # The frame around the error keeps working: menus open, the footer's dialog opens and closes.
    page.get_by_role("navigation", name="Main").get_by_role("button", name="Services").hover()
    expect(page.get_by_role("menuitem", name="IV Therapy")).to_be_visible()
    page.mouse.move(640, 760)
    page.get_by_role("contentinfo").get_by_role("button", name="Report Bug").click()
    expect(page.get_by_role("dialog", name="Report a Bug")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog", name="Report a Bug")).to_be_hidden()
    assert page_errors(page) == []


def test_navigating_away_from_the_error_recovers(broken_server, page) -> None:
    open_page(page, broken_server.url(BROKEN_PATH))
    expect(page.get_by_role("heading", name=ROUTER_FALLBACK)).to_be_visible()
    page.evaluate("window.__marker = 1")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="How It Works").click()
    expect(page).to_have_url(broken_server.url("/how-it-works"))
    wait_for_screen(page)
    expect(page.get_by_role("heading", name=ROUTER_FALLBACK)).to_have_count(0)

    page.get_by_role("banner").get_by_role("link", name="MediVisit").first.click()
    expect(page.get_by_role("heading", name="Licensed care, at your door.")).to_be_visible()
    assert page.evaluate("window.__marker") == 1, "recovering needed a page reload"

    page.go_back()
    page.go_back()
    expect(page).to_have_url(broken_server.url(BROKEN_PATH))
    expect(page.get_by_role("heading", name=ROUTER_FALLBACK)).to_be_visible()
    assert page_errors(page) == []
