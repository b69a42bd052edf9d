"""A first visit is loaded once: the service worker installing and taking control must not reload the page
(issue 11: every first visit used to load twice)."""

from __future__ import annotations

from playwright.sync_api import Browser, Frame

from tests.e2e.conftest import DESKTOP, open_page


def test_the_first_service_worker_takes_control_without_reloading_the_page(
    browser: Browser, live_server
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # service workers allowed, unlike the other tests
    try:
        page = context.new_page()
        navigations: list[str] = []

        def navigated(frame: Frame) -> None:
            if frame == page.main_frame:
                navigations.append(frame.url)

        page.on("framenavigated", navigated)
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
