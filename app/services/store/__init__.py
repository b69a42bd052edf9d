"""The store (issue 14 part 9): products staff manage (manage_services), bought from the cart with a US
shipping address (prefilled from the patient's last order or saved address), priced with the owners'
fee, shipping and sales-tax settings, paid on delivery or by card, followed through SPEC §4's order and
fulfilment statuses, and refunded by payments staff in full or in part (to the card or as wallet credit).

Its public surface: the names below (`__all__`).
"""

from app.services.store._images import add_product_image, open_product_image, remove_product_image
from app.services.store._orders import (
    ShippingInvalid,
    get_shipping_prefill,
    list_my_store_orders,
    list_store_orders,
    move_fulfilment,
    place_store_order,
)
from app.services.store._products import (
    ProductInvalid,
    create_product,
    get_product,
    list_products,
    list_store_products,
    update_product,
)
from app.services.store._refunds import get_store_order_money, refund_store_order
from app.services.store._rules import (
    MAX_PER_PRODUCT,
    NEXT_STEPS,
    ORDER_STATUS,
    PAGE_SIZE,
    product_problems,
    shipping_problems,
)

__all__ = [
    "MAX_PER_PRODUCT",
    "NEXT_STEPS",
    "ORDER_STATUS",
    "PAGE_SIZE",
    "ProductInvalid",
    "ShippingInvalid",
    "add_product_image",
    "create_product",
    "get_product",
    "get_shipping_prefill",
    "get_store_order_money",
    "list_my_store_orders",
    "list_products",
    "list_store_orders",
    "list_store_products",
    "move_fulfilment",
    "open_product_image",
    "place_store_order",
    "product_problems",
    "refund_store_order",
    "remove_product_image",
    "shipping_problems",
    "update_product",
]
