"""The cart: persisted per user or anonymous visitor, priced by the server, live across tabs.

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.cart._cart import (
    MAX_QUANTITY,
    PLATFORM_FEE_PERCENT,
    CartChange,
    CartOwner,
    add_to_cart,
    cart_topic,
    cart_totals,
    clear_cart,
    get_cart,
    load_cart,
    merge_visitor_cart,
    remove_from_cart,
    remove_items,
    set_quantity,
    visit_totals,
)

__all__ = [
    "CartChange",
    "CartOwner",
    "MAX_QUANTITY",
    "PLATFORM_FEE_PERCENT",
    "add_to_cart",
    "cart_topic",
    "cart_totals",
    "clear_cart",
    "get_cart",
    "load_cart",
    "merge_visitor_cart",
    "remove_from_cart",
    "remove_items",
    "set_quantity",
    "visit_totals",
]
