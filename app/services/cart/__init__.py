"""The cart: persisted per user or anonymous visitor, priced by the server, live across tabs.

Its public surface: the names below (`__all__`).
"""

from app.services.cart._cart import (
    MAX_QUANTITY,
    STORE_CLOSED,
    CartOwner,
    add_product_to_cart,
    add_to_cart,
    cart_topic,
    cart_totals,
    clear_cart,
    load_cart,
    merge_visitor_cart,
    remove_from_cart,
    set_quantity,
    visit_totals,
)
from app.services.shared.fees import PLATFORM_FEE_PERCENT, platform_fee

__all__ = [
    "CartOwner",
    "MAX_QUANTITY",
    "PLATFORM_FEE_PERCENT",
    "STORE_CLOSED",
    "add_product_to_cart",
    "add_to_cart",
    "cart_topic",
    "cart_totals",
    "clear_cart",
    "load_cart",
    "merge_visitor_cart",
    "platform_fee",
    "remove_from_cart",
    "set_quantity",
    "visit_totals",
]
