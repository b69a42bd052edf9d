"""404: 'Page Not Found' with the page the visitor most likely wanted (SPEC §2 keyword table)."""

from __future__ import annotations

import logging

from reactpy import component, html, use_location
from reactpy.types import VdomDict

from app.services.feedback import record_unknown_path, suggest_page
from components import browser
from components.context import use_session
from components.effects import use_effect
from components.hooks import use_action
from components.kit import button_link, button_row

logger = logging.getLogger("app.pages")


@component
def NotFoundPage() -> VdomDict:
    session = use_session()
    pathname = use_location().pathname
    href, label = suggest_page(pathname)
    record = use_action(record_unknown_path, on_error=lambda _message: None)

    @use_effect(dependencies=[pathname])
    async def count_client_side_visit() -> None:
        # A first page load was already counted by the HTTP layer (which answered 404).
        if pathname != session.initial_path:
            logger.info("Unknown path requested: %s", pathname[:200])
            await record.run(path=pathname)

    return html.section(
        {"class_name": "container not-found"},
        html.p({"class_name": "not-found-code", "aria-hidden": "true"}, "404"),
        html.h1("Page Not Found"),
        html.p(
            {"class_name": "lead"},
            "We couldn't find the page you were looking for. It may have moved, or the address may be mistyped.",
        ),
        html.p(
            {"class_name": "suggestion"},
            "Were you looking for ",
            html.a({"href": href, "data-suggestion": ""}, label),
            "?",
        ),
        button_row(
            button_link("Back to Home", "/"),
            html.button(
                {"class_name": "btn btn-outline", "type": "button", **browser.history_back()}, "Go Back"
            ),
        ),
        html.p(
            {"class_name": "hint spaced-above"},
            "Still stuck? ",
            html.a({"href": "/contact"}, "Contact our support team"),
            ".",
        ),
    )
