"""Small-screen navigation: the full-screen menu, the right-hand side drawer and the bottom bar.

Opening, closing, scroll locking and the delayed navigation of SPEC §2 (menu items 300 ms, drawer 100 ms)
happen in the browser (static/js/app.js) via the data-* attributes rendered here.
"""

from __future__ import annotations

import asyncio

from reactpy import component, html, use_location

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

MENU_CART_DELAY_S = 0.1


def _overlay_link(link: NavLink, delay_ms: int, class_name: str) -> dict:
    return html.a(
        {"class_name": class_name, "href": link.href, **browser.nav_delay(delay_ms), "key": link.label},
        icon(link.icon, size=20) if link.icon else "",
        html.span(link.label),
        icon("chevron-right", size=18, class_name="icon overlay-chevron"),
    )


def _close_button(label: str) -> dict:
    return html.button(
        {"class_name": "icon-button", "type": "button", "aria-label": label, **browser.close_overlay()},
        icon("x", size=22),
    )


@component
def MobileMenu() -> dict:
    session = use_session()
    actions = MOBILE_SIGNED_IN if session.user else MOBILE_SIGNED_OUT

    async def open_cart(_event: dict) -> None:
        # The browser closes the menu on click; the panel opens 100 ms later (SPEC §2).
        await asyncio.sleep(MENU_CART_DELAY_S)
        session.cart.open()

    return html.div(
        {
            "class_name": "overlay mobile-menu",
            "id": "mobile-menu",
            **browser.overlay("menu"),
            "role": "dialog",
            "aria-modal": "true",
            "aria-label": "Menu",
        },
        html.div({"class_name": "overlay-header"}, logo(session.brand_name), _close_button("Close menu")),
        html.nav(
            {"class_name": "overlay-body", "aria-label": "Mobile"},
            *(_overlay_link(link, 300, "overlay-item") for link in MOBILE_MENU),
            html.button(
                {
                    "class_name": "overlay-item",
                    "type": "button",
                    **browser.close_overlay(),
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
def SideDrawer() -> dict:
    session = use_session()
    extra = DRAWER_SIGNED_IN if session.user else DRAWER_SIGNED_OUT
    return html.div(
        {
            "class_name": "overlay drawer",
            **browser.overlay("drawer"),
            "role": "dialog",
            "aria-modal": "true",
            "aria-label": "Side menu",
        },
        html.div({"class_name": "drawer-backdrop", **browser.close_overlay()}),
        html.div(
            {"class_name": "drawer-panel"},
            html.div({"class_name": "overlay-header"}, html.strong("Menu"), _close_button("Close side menu")),
            html.nav(
                {"class_name": "overlay-body", "aria-label": "Side"},
                *(_overlay_link(link, 100, "overlay-item") for link in (*DRAWER, *extra)),
            ),
        ),
    )


@component
def BottomBar() -> dict:
    session = use_session()
    pathname = use_location().pathname
    entries = [
        html.a(
            {
                "class_name": "bottom-bar-item" + (" active" if is_active(link.href, pathname) else ""),
                "href": link.href,
                "aria-current": "page" if is_active(link.href, pathname) else None,
                "key": link.label,
            },
            icon(link.icon, size=22),
            html.span(link.label),
        )
        for link in BOTTOM_BAR
    ]
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
