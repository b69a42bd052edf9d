"""The cart: persisted per user or anonymous visitor, priced by the server, live across tabs.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_cart": (
        "CartOwner",
        "MAX_QUANTITY",
        "PLATFORM_FEE_PERCENT",
        "add_product_to_cart",
        "add_to_cart",
        "cart_topic",
        "cart_totals",
        "clear_cart",
        "get_cart",
        "load_cart",
        "merge_visitor_cart",
        "remove_from_cart",
        "remove_items",
        "remove_products",
        "set_quantity",
        "visit_totals",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
