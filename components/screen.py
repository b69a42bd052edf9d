"""Loads a screen on first visit and keeps a failing screen from taking the app down with it.

`ScreenView` applies the route's access rule (components/guards.py) once, then imports the screen named in
the route table ("module:attribute") when it is first shown, renders it inside its frame (the public
site's, the dashboard's, or none for a screen with its own, as every /staff screen has), and shows
'Unexpected Application Error!' with the message if the screen raises while rendering. Navigating
elsewhere clears the error.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable

from reactpy import component, html, use_location, use_state
from reactpy.types import Component, ComponentType, State, VdomDict

from components import browser
from components.context import use_session
from components.frame.dashboard import DashboardFrame
from components.frame.layout import SiteFrame
from components.guards import Rule, use_guard
from components.icons import icon
from components.kit import button_link, button_row, page_title

logger = logging.getLogger(__name__)
ROUTER_FALLBACK = "Unexpected Application Error!"

# The frame around a screen (the route table's `frame`).
SITE_FRAME = "site"  # the public site: banner, top nav, footer, bottom bar
DASHBOARD_FRAME = "dashboard"  # the signed-in dashboard: sidebar and its own header
OWN_FRAME = "own"  # the screen brings its own (the staff portal's StaffFrame)


def load_screen(target: str) -> Callable[[], ComponentType]:
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


@component
def ScreenView(
    target: str, title: str, rule: Rule | None = None, frame: str = SITE_FRAME
) -> VdomDict | Component:
    session = use_session()
    redirect = use_guard(rule)
    pathname = use_location().pathname
    failure_state: State[tuple[str, str] | None] = use_state(None)  # (pathname, message)
    failure, set_failure = failure_state
    body = (
        redirect
        if redirect is not None
        else error_screen(failure[1])
        if failure is not None and failure[0] == pathname
        else _LoadedScreen(target, lambda message: set_failure((pathname, message)), key=pathname)
    )
    content = [page_title(f"{title} | {session.brand_name}"), body]
    if frame == SITE_FRAME:
        return SiteFrame(*content)
    if frame == DASHBOARD_FRAME:
        return DashboardFrame(*content)
    return html.div({"class_name": "app-shell"}, *content)


@component
def _LoadedScreen(target: str, on_error: Callable[[str], None]) -> VdomDict | ComponentType | str | None:
    try:
        # Called as a plain function so its hooks live on this component: when it raises,
        # the parent swaps this whole component out and no half-run hook state survives.
        return load_screen(target)().render()
    except Exception as exc:
        logger.exception("Screen %s failed to render", target)
        on_error(str(exc) or type(exc).__name__)
        return None


def error_screen(message: str) -> VdomDict:
    return html.section(
        {"class_name": "container error-screen", "role": "alert"},
        html.span({"class_name": "error-icon"}, icon("alert", size=32)),
        html.h1(ROUTER_FALLBACK),
        html.p({"class_name": "error-message"}, message),
        button_row(
            button_link("Back to Home", "/"),
            html.button(
                {"class_name": "btn btn-outline", "type": "button", **browser.history_back()}, "Go Back"
            ),
        ),
    )
