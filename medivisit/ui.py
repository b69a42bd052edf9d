"""The ReactPy root: reads the connection once, provides the UI session, mounts the router.

Who is signed in comes from the access-token cookie the websocket handshake carries, checked once by the
identity service (signature, expiry, that its session still exists); until that answer is in, the root
shows the loading state (SPEC §4) so no screen guard decides on a half-known user. The page route renews an
expiring session before the page loads, and static/js/auth.js keeps it fresh afterwards.

The toaster, cart panel, bug-report dialog and small-screen overlays live outside the router so they survive
navigation.
"""

from __future__ import annotations

import functools
from http.cookies import CookieError, SimpleCookie
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reactpy import component, html, use_connection, use_memo
from reactpy_router import route

from app.auth.web import ACCESS_COOKIE, CSRF_COOKIE, FLASH_COOKIE, decode_flash, origin_allowed
from app.principal import Principal
from app.settings import get_settings
from components.account import flash_toast
from components.cart import CartSync
from components.context import (
    CartHandle,
    Disclosure,
    FlashBox,
    SessionContext,
    Switch,
    Toaster,
    UiSession,
    use_session,
)
from components.effects import use_effect
from components.frame.bug_report import BugReportDialog
from components.frame.cart_panel import CartPanel
from components.frame.mobile import MobileOverlays
from components.frame.toaster import Toaster as ToasterView
from components.hooks import use_viewer
from components.screen import ScreenView
from medivisit.router import site_router
from pages.routes import NOT_FOUND, screens

VISITOR_COOKIE = "mv_visitor"
TZ_COOKIE = "tz"  # the browser's IANA time zone, set by static/js/tz.js before the websocket connects


def _header(scope: dict, name: bytes) -> str:
    return next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == name), "")


def _client_ip(scope: dict) -> str:
    """The websocket's client address (uvicorn puts a trusted proxy's X-Forwarded-For there)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def _cookies(scope: dict) -> dict[str, str]:
    jar = SimpleCookie()
    try:
        jar.load(_header(scope, b"cookie"))
    except CookieError:
        return {}
    return {name: morsel.value for name, morsel in jar.items()}


def visitor_time_zone(value: str | None) -> str:
    """The visitor's time zone from the cookie if it names a real zone, else the default."""
    if value and len(value) <= 64:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            pass
        else:
            return value
    return get_settings().default_time_zone


def _same_origin(scope: dict) -> bool:
    """A websocket opened by a page of another site must not act with this site's session."""
    return origin_allowed(_header(scope, b"origin") or None, _header(scope, b"host"))


def _routes() -> tuple:
    return _route_table(get_settings().medivisit_test_broken_screen)


@functools.cache
def _route_table(with_test_screens: bool) -> tuple:
    """Built once and shared by every tab (a tab holding its own copy cost 100 objects)."""
    known = screens(with_test_screens=with_test_screens)
    return tuple(
        route(screen.path, ScreenView(screen.target, screen.title, screen.rule, frame=screen.frame))
        for screen in (*known, NOT_FOUND)
    )


@component
def Root():  # noqa: ANN201
    connection = use_connection()
    scope = connection.scope
    cookies = use_memo(lambda: _cookies(scope) if _same_origin(scope) else {}, [])
    signed_in = use_viewer(cookies.get(ACCESS_COOKIE, ""))
    handles = use_memo(
        lambda: {
            "toaster": Toaster(),
            "cart": CartHandle(),
            "bug_report": Disclosure(),
            "mobile_nav": Switch(),
            "flash": FlashBox(decode_flash(cookies.get(FLASH_COOKIE))),
        },
        [],
    )

    def build_session() -> UiSession:
        viewer = signed_in.viewer
        actor = viewer.actor if viewer else Principal.visitor(cookies.get(VISITOR_COOKIE, ""))
        return UiSession(
            user=viewer.account if viewer else None,
            returning=viewer.returning if viewer else False,
            # Audit entries of this tab's commands name the connection's address and browser.
            actor=actor.from_client(ip=_client_ip(scope), user_agent=_header(scope, b"user-agent")),
            toaster=handles["toaster"],
            cart=handles["cart"],
            bug_report=handles["bug_report"],
            mobile_nav=handles["mobile_nav"],
            flash=handles["flash"],
            csrf_token=cookies.get(CSRF_COOKIE, ""),
            reload_user=signed_in.reload,
            visitor_id=cookies.get(VISITOR_COOKIE, ""),
            initial_path=connection.location.pathname,
            user_agent=_header(scope, b"user-agent"),
            brand_name=get_settings().brand_name,
            time_zone=visitor_time_zone(cookies.get(TZ_COOKIE)),
        )

    session = use_memo(build_session, [signed_in.loading, signed_in.viewer])
    routes = use_memo(_routes, [])
    if signed_in.loading:
        return SessionContext(
            html.div(
                {"class_name": "boot", "role": "status", "aria-live": "polite", "key": "boot"}, "Loading…"
            ),
            ToasterView(key="toaster"),
            value=session,
        )
    return SessionContext(
        site_router(*routes),
        CartSync(key="cart-sync"),
        CartPanel(key="cart"),
        MobileOverlays(key="mobile-overlays"),
        BugReportDialog(key="bug-report"),
        ToasterView(key="toaster"),
        FlashToast(key="flash"),
        value=session,
    )


@component
def FlashToast():  # noqa: ANN201
    """Shows the toast a form post left for this page ('Logged out successfully', ...), once."""
    session = use_session()

    @use_effect(dependencies=[])
    def show() -> None:
        toast = flash_toast(session.flash.take("toast"))
        if toast is not None:
            title, variant = toast
            session.toaster.show(title, variant=variant)

    return html._()
