"""The cart panel, sliding in from the right; opened by the cart buttons through the session's handle."""

from __future__ import annotations

from reactpy import component, html, use_state

from components.context import use_session
from components.icons import icon


@component
def CartPanel() -> dict:
    session = use_session()
    is_open, set_open = use_state(False)
    session.cart.bind(set_open)
    if not is_open:
        return html._()
    close = session.cart.close
    return html.div(
        {"class_name": "sheet-root", "data-modal": ""},
        html.div({"class_name": "sheet-backdrop", "on_click": lambda _e: close()}),
        html.aside(
            {"class_name": "sheet", "role": "dialog", "aria-modal": "true", "aria-labelledby": "cart-title"},
            html.div(
                {"class_name": "sheet-header"},
                html.h2({"id": "cart-title"}, "Your Cart"),
                html.button(
                    {
                        "class_name": "icon-button",
                        "type": "button",
                        "aria-label": "Close cart",
                        "data-modal-close": "",
                        "on_click": lambda _e: close(),
                    },
                    icon("x", size=20),
                ),
            ),
            html.div(
                {"class_name": "empty-state"},
                html.span({"class_name": "empty-icon"}, icon("cart", size=28)),
                html.p({"class_name": "empty-title"}, "Your cart is empty"),
                html.p("Add a service to book a visit at your home or office."),
                html.a(
                    {"class_name": "btn btn-primary", "href": "/services", "on_click": lambda _e: close()},
                    "Browse services",
                ),
            ),
        ),
    )
