"""Unknown and forwarded paths (SPEC §2 route table and "404 page"): HTTP 404 with 'Page Not Found', the
keyword suggestion, Back to Home, Go Back and a contact link; unknown paths logged by the server; a known
path with a trailing slash redirected to the path without it; /signup replaced by /sign-up."""

from __future__ import annotations

import re
import secrets
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_page, screenshot
from tests.e2e.helpers import path_of, wait_for_screen

HOME_HEADING = "Licensed care, at your door."


def open_missing(page: Page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Page Not Found")).to_be_visible()


def suggestion_hrefs(page: Page) -> set[str]:
    """Where the 404 page's links lead, apart from Back to Home and the contact link."""
    links = page.get_by_role("main").get_by_role("link")
    hrefs = {
        links.nth(i).get_attribute("href") or ""
        for i in range(links.count())
        if links.nth(i).inner_text().strip() != "Back to Home"
    }
    return hrefs - {"/contact"}


@pytest.mark.parametrize(
    ("path", "suggested"),
    [
        ("/my-appointment-list", "/appointments"),
        ("/user/register-now", "/sign-up"),
        ("/our-provider-list", "/providers"),
        ("/foo", "/"),
    ],
)
def test_unknown_path_is_a_404_with_a_suggestion(live_server, page, path: str, suggested: str) -> None:
    open_missing(page, live_server.url(path))
    main = page.get_by_role("main")
    expect(main.get_by_role("link", name="Back to Home")).to_have_attribute("href", "/")
    expect(main.get_by_role("button", name="Go Back")).to_be_visible()
    expect(main.get_by_role("link", name=re.compile("contact", re.I))).to_have_attribute("href", "/contact")
    assert suggestion_hrefs(page) == {suggested}
    assert path_of(page.url) == path, "a 404 keeps the address the visitor typed"


def test_404_buttons_lead_home_and_back(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    open_missing(page, live_server.url("/no-such-page"))
    screenshot(page, "not-found")

    page.get_by_role("button", name="Go Back").click()
    expect(page).to_have_url(live_server.url("/"))
    expect(page.get_by_role("heading", name=HOME_HEADING)).to_be_visible()

    open_missing(page, live_server.url("/another-missing-page"))
    page.get_by_role("link", name="Back to Home").click()
    expect(page).to_have_url(live_server.url("/"))
    expect(page.get_by_role("heading", name=HOME_HEADING)).to_be_visible()


def test_unknown_path_is_logged_by_the_server(live_server, page) -> None:
    path = f"/missing-{secrets.token_hex(4)}"
    open_missing(page, live_server.url(path))
    deadline = time.monotonic() + 5
    while f"Unknown path requested: {path}" not in live_server.log() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f"Unknown path requested: {path}" in live_server.log()


def test_known_path_with_trailing_slash_redirects_without_it(live_server, page) -> None:
    response = page.goto(live_server.url("/how-it-works/?ref=footer"))
    assert response is not None and response.status == 200
    assert response.request.redirected_from is not None, "no redirect happened"
    assert response.request.redirected_from.response().status in (301, 308)
    assert path_of(page.url) == "/how-it-works?ref=footer"
    wait_for_screen(page)
    expect(page.get_by_role("heading", name="Page Not Found")).to_have_count(0)


def test_signup_replaces_itself_with_sign_up(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    entries = page.evaluate("history.length")

    page.goto(live_server.url("/signup"))
    expect(page).to_have_url(live_server.url("/sign-up"))
    assert page.evaluate("history.length") == entries + 1, "/signup stayed in the history"

    page.go_back()
    expect(page).to_have_url(live_server.url("/"))
