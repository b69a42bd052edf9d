"""A dropped connection is said, and clicks are held off until it is back (issue 11, flow 2): when the
websocket closes, a "Reconnecting…" bar appears and the app is inert; once ReactPy's client has a socket
again the page is loaded afresh (ReactPy 1.1 would otherwise show an empty page) and answers clicks."""

from __future__ import annotations

import re

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.conftest import open_page


def test_a_dropped_connection_shows_reconnecting_and_the_page_works_again(page: Page, live_server) -> None:
    sockets: list[WebSocketRoute] = []

    def through(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(re.compile(r"/_reactpy/stream"), through)
    open_page(page, live_server.url("/services"))
    bar = page.locator("[data-connection-bar]")
    expect(bar).to_have_count(0)

    # ReactPy's client opens a new socket; once it is up the page is loaded again, whole and live.
    with page.expect_event("load", timeout=20_000):
        sockets[-1].close(code=1006, reason="network drop")
        expect(bar).to_have_text(re.compile(r"^Connection lost\. Reconnecting…"))
        expect(page.locator("#app")).to_have_js_property("inert", True)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(bar).to_have_count(0)
    expect(page.locator("#app")).to_have_js_property("inert", False)
    page.get_by_role("banner").get_by_role("link", name="How It Works").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("How"))
