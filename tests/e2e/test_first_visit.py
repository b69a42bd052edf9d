"""A first visit is loaded once: the service worker installing and taking control must not reload the page
(issue 11: every first visit used to load twice)."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.e2e.conftest import DESKTOP, open_page


def test_the_first_service_worker_takes_control_without_reloading_the_page(
    browser: Browser, live_server
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # service workers allowed, unlike the other tests
    try:
        page = context.new_page()
        navigations: list[str] = []
        page.on("framenavigated", lambda frame: frame == page.main_frame and navigations.append(frame.url))
        open_page(page, live_server.url("/"))
        page.evaluate("window.firstDocument = true")
        took_control = page.evaluate(
            """() => navigator.serviceWorker.controller !== null || new Promise((resolve) =>
                navigator.serviceWorker.addEventListener("controllerchange", () => setTimeout(() => resolve(true), 50)))"""
        )
        assert took_control
        # A reload would have replaced the document (and this evaluation would fail with it).
        assert page.evaluate("window.firstDocument") is True
        assert navigations == [live_server.url("/")]
    finally:
        context.close()
