"""Top navigation: logo, Services and Providers menus, plain links, theme, cart and account actions.

Menus open and close in the browser (static/js/app.js: 200 ms hover delay, 300 ms skip window, 150 ms
close delay; the WAI-ARIA menu-button keys: Enter, Space and the arrows open it, the arrows, Home and End
move between the items, Escape closes it and gives the focus back to its button); the server only renders
the markup. The items are out of the Tab order (`tabindex=-1`): the arrow keys reach them. The logo and
the main navigation never change: each is one frozen element (components/kit/static.py), shared by every tab.
"""

from __future__ import annotations

from functools import cache

from reactpy import component, html
from reactpy.types import VdomDict

from components import browser
from components.account import logout_form
from components.cart import CartBadge
from components.context import CurrentUser, use_session
from components.format import initials
from components.frame.links import PLAIN_LINKS, PROVIDERS_MENU, SERVICES_MENU, NavLink
from components.icons import icon
from components.kit import UserText, frozen
from components.notification_bell import NotificationBell

LEGAL_SUFFIX = "Medical Services, LLC"


@cache
def logo(brand: str) -> VdomDict:
    return frozen(_logo(brand))


def _logo(brand: str) -> VdomDict:
    return html.a(
        {"class_name": "logo", "href": "/", "aria-label": f"{brand} {LEGAL_SUFFIX} home"},
        html.span({"class_name": "logo-mark", "aria-hidden": "true"}, icon("heart", size=20)),
        html.span(
            {"class_name": "logo-text"},
            html.span({"class_name": "logo-wordmark"}, brand),
            html.span({"class_name": "logo-legal"}, LEGAL_SUFFIX),
        ),
    )


def _dropdown(label: str, links: tuple[NavLink, ...], menu_id: str) -> VdomDict:
    return html.div(
        {"class_name": "nav-menu", **browser.menu()},
        html.button(
            {
                "class_name": "nav-trigger",
                "type": "button",
                "aria-haspopup": "menu",
                "aria-expanded": "false",
                "aria-controls": menu_id,
            },
            label,
            icon("chevron-down", size=16, class_name="icon nav-chevron"),
        ),
        html.div(
            {"class_name": "nav-dropdown", "id": menu_id, "role": "menu"},
            *(
                html.a(
                    {
                        "class_name": "nav-dropdown-item",
                        "href": link.href,
                        "role": "menuitem",
                        "tab_index": -1,
                        "key": link.href,
                    },
                    html.span({"class_name": "nav-dropdown-icon"}, icon(link.icon, size=18)),
                    html.span(
                        html.span({"class_name": "nav-dropdown-label"}, link.label),
                        html.span({"class_name": "nav-dropdown-desc"}, link.description),
                    ),
                )
                for link in links
            ),
        ),
    )


def avatar(user: CurrentUser, *, class_name: str = "avatar") -> VdomDict:
    """The profile image, or the initials of the name (SPEC §2)."""
    # The initials stay underneath the image: if the image fails to load, the browser hides it (app.js).
    image = (
        html.img({"src": user.profile_image, "alt": "", "referrer_policy": "no-referrer"})
        if user.profile_image
        else ""
    )
    return html.span({"class_name": class_name}, initials(user.name), image)


def avatar_menu(user: CurrentUser, csrf_token: str) -> VdomDict:
    return html.div(
        {"class_name": "nav-menu avatar-menu", **browser.menu()},
        html.button(
            {
                "class_name": "avatar-button",
                "type": "button",
                "aria-label": "Account menu",
                "aria-haspopup": "menu",
                "aria-expanded": "false",
            },
            avatar(user),
        ),
        html.div(
            {"class_name": "nav-dropdown nav-dropdown-right", "id": "account-menu", "role": "menu"},
            html.div(
                {"class_name": "avatar-summary"}, UserText(user.name, tag="strong"), html.span(user.email)
            ),
            html.a(
                {
                    "class_name": "nav-dropdown-item",
                    "href": "/dashboard/profile",
                    "role": "menuitem",
                    "tab_index": -1,
                },
                "Profile",
            ),
            html.a(
                {
                    "class_name": "nav-dropdown-item",
                    "href": "/dashboard/settings",
                    "role": "menuitem",
                    "tab_index": -1,
                },
                "Settings",
            ),
            logout_form(csrf_token),
        ),
    )


@cache
def _primary_nav() -> VdomDict:
    return frozen(
        html.nav(
            {"class_name": "primary-nav", "aria-label": "Main"},
            _dropdown("Services", SERVICES_MENU, "services-menu"),
            _dropdown("Providers", PROVIDERS_MENU, "providers-menu"),
            *(
                html.a({"class_name": "nav-link", "href": link.href, "key": link.href}, link.label)
                for link in PLAIN_LINKS
            ),
        )
    )


@cache
def theme_toggle_button() -> VdomDict:
    """The theme button: the browser alone acts on it (app.js), so it is frozen, one copy for every tab."""
    return frozen(
        html.button(
            {
                "class_name": "icon-button",
                "type": "button",
                **browser.theme_toggle(),
                "aria-label": "Change theme",
            },
            icon("sun", size=20, class_name="icon theme-icon-light"),
            icon("moon", size=20, class_name="icon theme-icon-dark"),
            icon("monitor", size=20, class_name="icon theme-icon-system"),
        )
    )


@component
def TopNav() -> VdomDict:
    session = use_session()
    user = session.user
    account = (
        avatar_menu(user, session.csrf_token)
        if user
        else html._(
            html.a({"class_name": "btn btn-ghost desktop-only", "href": "/login"}, "Sign In"),
            html.a({"class_name": "btn btn-primary desktop-only", "href": "/register"}, "Sign Up"),
        )
    )
    return html.header(
        {"class_name": "site-header"},
        html.div(
            {"class_name": "container header-inner"},
            logo(session.brand_name),
            _primary_nav(),
            html.div(
                {"class_name": "header-actions"},
                theme_toggle_button(),
                html.button(
                    {
                        "class_name": "icon-button cart-button desktop-only",
                        "type": "button",
                        "aria-haspopup": "dialog",
                        "on_click": lambda _e: session.cart.toggle(),
                    },
                    icon("cart", size=20),
                    html.span({"class_name": "sr-only"}, "Cart"),
                    CartBadge(),
                ),
                NotificationBell() if user else "",
                account,
                html.button(
                    {
                        "class_name": "icon-button mobile-only",
                        "type": "button",
                        "aria-label": "Open side menu",
                        "aria-haspopup": "dialog",
                        "on_click": lambda _e: session.mobile_nav.open("drawer"),
                    },
                    icon("user", size=22),
                ),
                html.button(
                    {
                        "class_name": "icon-button mobile-only",
                        "type": "button",
                        "aria-label": "Open menu",
                        "aria-haspopup": "dialog",
                        "on_click": lambda _e: session.mobile_nav.open("menu"),
                    },
                    icon("menu", size=22),
                ),
            ),
        ),
    )
