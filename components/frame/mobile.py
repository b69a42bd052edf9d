"""Small-screen navigation: the full-screen menu, the right-hand side drawer and the bottom bar.

The menu and the drawer are mounted only while open (`MobileOverlays`, at the root beside the cart panel,
opened through `session.mobile_nav`), so a desktop tab or a closed menu holds none of their elements on the
server. Each is a modal (`browser.modal()`): static/js/kit.js moves the focus in, keeps Tab and Shift+Tab
inside, gives the focus back to the opener when it closes and locks page scrolling (CSS `:has`); Escape
clicks its close button (app.js). A link in one closes it, then navigates after the delay of SPEC §2 (menu
items 300 ms, drawer 100 ms; static/js/app.js, `data-nav-delay`). Their look and entry animations are CSS.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import cache

from reactpy import component, html, use_location, use_state
from reactpy.types import Component, State, VdomDict

from components import browser
from components.cart import CartBadge
from components.context import use_session
from components.frame.links import (
    BECOME_PROVIDER,
    BOTTOM_BAR,
    DRAWER,
    DRAWER_SIGNED_IN,
    DRAWER_SIGNED_OUT,
    MOBILE_MENU,
    MOBILE_SIGNED_IN,
    MOBILE_SIGNED_OUT,
    NavLink,
    is_active,
)
from components.frame.nav import logo
from components.icons import icon
from components.kit import frozen

MENU_CART_DELAY_S = 0.1


def _overlay_link(link: NavLink, delay_ms: int, class_name: str) -> VdomDict:
    return html.a(
        {"class_name": class_name, "href": link.href, **browser.nav_delay(delay_ms), "key": link.label},
        icon(link.icon, size=20) if link.icon else "",
        html.span(link.label),
        icon("chevron-right", size=18, class_name="icon overlay-chevron"),
    )


def _close_button(label: str, close: Callable[[], None]) -> VdomDict:
    return html.button(
        {
            "class_name": "icon-button",
            "type": "button",
            "aria-label": label,
            **browser.modal_close(),
            **browser.initial_focus(),
            "on_click": lambda _e: close(),
        },
        icon("x", size=22),
    )


@component
def MobileOverlays() -> VdomDict | Component:
    """The open small-screen overlay ("menu" or "drawer"), or nothing."""
    session = use_session()
    which_state: State[str | None] = use_state(None)
    which, set_which = which_state
    session.mobile_nav.bind(set_which)
    if which == "menu":
        return MobileMenu(key="menu")
    if which == "drawer":
        return SideDrawer(key="drawer")
    return html._()


@component
def MobileMenu() -> VdomDict:
    session = use_session()
    actions = MOBILE_SIGNED_IN if session.user else MOBILE_SIGNED_OUT
    close = session.mobile_nav.close

    async def open_cart(_event: dict) -> None:
        # The menu closes at once; the panel opens 100 ms later (SPEC §2).
        close()
        await asyncio.sleep(MENU_CART_DELAY_S)
        session.cart.open()

    return html.div(
        {
            "class_name": "overlay mobile-menu",
            "id": "mobile-menu",
            **browser.overlay("menu"),
            **browser.modal(),
            "role": "dialog",
            "aria-modal": "true",
            "aria-label": "Menu",
        },
        html.div(
            {"class_name": "overlay-header"}, logo(session.brand_name), _close_button("Close menu", close)
        ),
        html.nav(
            {"class_name": "overlay-body", "aria-label": "Mobile"},
            *(_overlay_link(link, 300, "overlay-item") for link in MOBILE_MENU),
            html.button(
                {
                    "class_name": "overlay-item",
                    "type": "button",
                    "aria-haspopup": "dialog",
                    "on_click": open_cart,
                },
                icon("cart", size=20),
                html.span("Cart"),
                CartBadge(),
            ),
            html.div(
                {"class_name": "overlay-actions"},
                *(
                    html.a(
                        {
                            "class_name": "btn btn-primary" if i else "btn btn-outline",
                            "href": link.href,
                            **browser.nav_delay(300),
                            "key": link.label,
                        },
                        link.label,
                    )
                    for i, link in enumerate(actions)
                ),
                html.a(
                    {"class_name": "btn btn-ghost", "href": BECOME_PROVIDER.href, **browser.nav_delay(300)},
                    BECOME_PROVIDER.label,
                ),
            ),
        ),
    )


@component
def SideDrawer() -> VdomDict:
    session = use_session()
    extra = DRAWER_SIGNED_IN if session.user else DRAWER_SIGNED_OUT
    close = session.mobile_nav.close
    return html.div(
        {
            "class_name": "overlay drawer",
            **browser.overlay("drawer"),
            **browser.modal(),
            "role": "dialog",
            "aria-modal": "true",
            "aria-label": "Side menu",
        },
        html.div({"class_name": "drawer-backdrop", "on_click": lambda _e: close()}),
        html.div(
            {"class_name": "drawer-panel"},
            html.div(
                {"class_name": "overlay-header"},
                html.strong("Menu"),
                _close_button("Close side menu", close),
            ),
            html.nav(
                {"class_name": "overlay-body", "aria-label": "Side"},
                *(_overlay_link(link, 100, "overlay-item") for link in (*DRAWER, *extra)),
            ),
        ),
    )


@cache
def bottom_link(link: NavLink, active: bool) -> VdomDict:
    """One link of a bottom bar, frozen: every tab shares the two copies (on its page or not)."""
    return frozen(
        html.a(
            {
                "class_name": "bottom-bar-item" + (" active" if active else ""),
                "href": link.href,
                "aria-current": "page" if active else None,
                "key": link.label,
            },
            icon(link.icon, size=22),
            html.span(link.label),
        )
    )


@component
def BottomBar() -> VdomDict:
    session = use_session()
    pathname = use_location().pathname
    entries = [bottom_link(link, is_active(link.href, pathname)) for link in BOTTOM_BAR]
    cart = html.button(
        {
            "class_name": "bottom-bar-item",
            "type": "button",
            "aria-haspopup": "dialog",
            "on_click": lambda _e: session.cart.toggle(),
            "key": "cart",
        },
        html.span({"class_name": "bottom-bar-icon"}, icon("cart", size=22)),
        html.span("Cart"),
        # After the label, so the button reads "Cart (2 items)"; cart.css puts it on the icon.
        CartBadge(),
    )
    return html.nav({"class_name": "bottom-bar", "aria-label": "Quick navigation"}, *entries, cart)
