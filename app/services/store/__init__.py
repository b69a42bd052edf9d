"""The store (issue 14 part 9): products staff manage (manage_services), bought from the cart with a US
shipping address, paid on delivery, and followed through SPEC §4's order and fulfilment statuses.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_rules": (
        "MAX_PER_PRODUCT",
        "NEXT_STEPS",
        "ORDER_STATUS",
        "PAGE_SIZE",
        "product_problems",
        "shipping_problems",
    ),
    "_products": (
        "ProductInvalid",
        "create_product",
        "get_product",
        "list_products",
        "list_store_products",
        "update_product",
    ),
    "_images": ("add_product_image", "open_product_image", "remove_product_image"),
    "_orders": (
        "ShippingInvalid",
        "list_my_store_orders",
        "list_store_orders",
        "move_fulfilment",
        "place_store_order",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
