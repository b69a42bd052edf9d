"""The ReactPy root: reads the connection once, provides the UI session, mounts the router.

The toaster, cart panel and bug-report dialog live outside the router so they survive navigation.
"""

from __future__ import annotations

from http.cookies import SimpleCookie

from reactpy import component, use_connection, use_memo
from reactpy_router import browser_router, route

from app.settings import get_settings
from components.context import Disclosure, SessionContext, Toaster, UiSession
from components.frame.bug_report import BugReportDialog
from components.frame.cart_panel import CartPanel
from components.frame.toaster import Toaster as ToasterView
from components.screen import ScreenView
from pages.routes import NOT_FOUND, screens

VISITOR_COOKIE = "mv_visitor"


def _header(scope: dict, name: bytes) -> str:
    return next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == name), "")


def _routes() -> tuple:
    known = screens(with_test_screens=get_settings().medivisit_test_broken_screen)
    return tuple(
        route(screen.path, ScreenView(screen.target, screen.title)) for screen in (*known, NOT_FOUND)
    )


@component
def Root():  # noqa: ANN201
    connection = use_connection()
    scope = connection.scope

    def build_session() -> UiSession:
        cookies = SimpleCookie(_header(scope, b"cookie"))
        visitor = cookies.get(VISITOR_COOKIE)
        return UiSession(
            user=None,
            toaster=Toaster(),
            cart=Disclosure(),
            bug_report=Disclosure(),
            visitor_id=visitor.value if visitor else "",
            initial_path=connection.location.pathname,
            user_agent=_header(scope, b"user-agent"),
            brand_name=get_settings().brand_name,
        )

    session = use_memo(build_session, [])
    routes = use_memo(_routes, [])
    return SessionContext(
        browser_router(*routes),
        CartPanel(),
        BugReportDialog(),
        ToasterView(),
        value=session,
    )
