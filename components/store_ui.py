"""Store pieces shared by the patient's store, checkout and the staff screens: prices in cents, the stock
line ("Only 3 left", "Out of stock"), order and fulfilment badges, the Add to cart button of a product,
the shipping-address fields, the money lines every store total shows (`store_money_rows`: Subtotal,
Shipping or "Free", Sales tax and Platform fee when there are any, Total) and an order's summary card with
its "Download receipt" link (the PDF of api/documents.py, app/services/receipts)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.cart import add_product_to_cart
from components.cart import use_cart_command
from components.format import format_currency, format_date
from components.icons import icon
from components.kit import Badge, Tone, UserText, button_link, hint
from models.store import FulfilmentStatus, ProductRead, StoreOrderRead

LOW_STOCK = 5  # at or below: "Only N left"
SHIPPING_FIELDS = (
    ("name", "Full name", "name", 100),
    ("line1", "Street address", "address-line1", 200),
    ("line2", "Apartment, suite, unit (optional)", "address-line2", 200),
    ("city", "City", "address-level2", 100),
    ("state", "State", "address-level1", 2),
    ("zip_code", "ZIP code", "postal-code", 10),
)
FULFILMENT_TONES: dict[FulfilmentStatus, Tone] = {
    FulfilmentStatus.pending: "neutral",
    FulfilmentStatus.processed: "info",
    FulfilmentStatus.shipped: "info",
    FulfilmentStatus.delivered: "success",
    FulfilmentStatus.returned: "warning",
    FulfilmentStatus.canceled: "danger",
}
ORDER_LABELS = {
    "pending": "Pending",
    "processing": "Processing",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Cancelled",
    "paid": "Paid",
    "refunded": "Refunded",
}


def money(cents: int) -> str:
    return format_currency(Decimal(cents) / 100)


def percent_text(percent: Decimal) -> str:
    """'2.5', '8.875', '5' (no trailing zeros)."""
    text = f"{percent:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def store_money_rows(
    *,
    subtotal: Decimal,
    shipping: Decimal,
    tax: Decimal,
    fee: Decimal,
    total: Decimal,
    tax_percent: Decimal | None = None,
    fee_label: str | None = None,
    prefix: str = "",
    total_class: str = "is-total",
) -> list[VdomDict]:
    """The rows of a `dl` with a store order's (or a cart's) figures in dollars. Sales tax shows when its rate
    is above 0 (`tax_percent`; without a rate, when there is tax), the platform fee when there is one (or
    `fee_label` names it: visits always carry theirs); shipping says "Free" when nothing is charged."""
    rows = [html.div({"key": "subtotal"}, html.dt("Subtotal"), html.dd(prefix + format_currency(subtotal)))]
    rows.append(
        html.div(
            {"key": "shipping"},
            html.dt("Shipping"),
            html.dd(format_currency(shipping) if shipping > 0 else "Free"),
        )
    )
    if (tax_percent is not None and tax_percent > 0) or (tax_percent is None and tax > 0):
        label = f"Sales tax ({percent_text(tax_percent)}%)" if tax_percent else "Sales tax"
        rows.append(html.div({"key": "tax"}, html.dt(label), html.dd(format_currency(tax))))
    if fee > 0 or fee_label:
        rows.append(
            html.div(
                {"key": "fee"}, html.dt(fee_label or "Platform fee"), html.dd(prefix + format_currency(fee))
            )
        )
    rows.append(
        html.div(
            {"key": "total", "class_name": total_class},
            html.dt("Total"),
            html.dd(prefix + format_currency(total)),
        )
    )
    return rows


def order_money(order: StoreOrderRead) -> VdomDict:
    """A placed store order's figures, as it recorded them."""
    cents = Decimal(100)
    return html.dl(
        {"class_name": "store-order-totals"},
        *store_money_rows(
            subtotal=order.subtotal_cents / cents,
            shipping=order.shipping_cents / cents,
            tax=order.tax_cents / cents,
            fee=order.fee_cents / cents,
            total=order.total_cents / cents,
        ),
    )


def stock_line(stock: int) -> VdomDict:
    if stock <= 0:
        return html.p({"class_name": "store-stock is-out"}, icon("alert", size=14), "Out of stock")
    if stock <= LOW_STOCK:
        return html.p({"class_name": "store-stock is-low"}, icon("clock", size=14), f"Only {stock} left")
    return html.p({"class_name": "store-stock"}, icon("check", size=14), "In stock")


def fulfilment_badge(status: FulfilmentStatus) -> VdomDict:
    return Badge(status.label, tone=FULFILMENT_TONES[status])


def order_badge(status: str) -> VdomDict:
    return Badge(ORDER_LABELS.get(status, status.capitalize()), tone="neutral")


@component
def AddProductButton(product: ProductRead) -> VdomDict:
    """Adds one unit of the product to the signed-in patient's cart; a product out of stock can't be added."""
    add, pending = use_cart_command(add_product_to_cart)

    async def click(_event: dict) -> None:
        await add(product_id=product.id)

    if product.stock <= 0:
        return html.button(
            {"class_name": "btn btn-outline btn-block", "type": "button", "disabled": True},
            "Out of stock",
        )
    return html.button(
        {
            "class_name": "btn btn-primary btn-block",
            "type": "button",
            "disabled": pending,
            "aria-busy": "true" if pending else "false",
            "aria-label": f"Add {product.name} to cart",
            "on_click": click,
        },
        icon("cart", size=18),
        html.span("Adding…" if pending else "Add to cart"),
    )


def product_image(product: ProductRead) -> VdomDict:
    if product.image_url:
        return html.img(
            {"class_name": "store-image", "src": product.image_url, "alt": product.name, "loading": "lazy"}
        )
    return html.div(
        {"class_name": "store-image store-image-none", "aria-hidden": "true"}, icon("package", size=32)
    )


def shipped_line(order: StoreOrderRead) -> Any:
    if not order.tracking_number:
        return ""
    return html.p(
        {"class_name": "store-tracking"},
        icon("truck", size=16),
        html.span(
            f"{order.carrier} tracking number ",
            html.strong(UserText(order.tracking_number)),
        ),
    )


def store_receipt_href(number: str) -> str:
    """Where a store order's receipt downloads (api/documents.py)."""
    return f"/api/store-orders/{number}/receipt.pdf"


def store_receipt_link(number: str) -> VdomDict:
    """The download link to a store order's receipt; its accessible name says which order and that it is a
    PDF."""
    return html.div(
        {"class_name": "store-order-actions"},
        button_link(
            "Download receipt",
            store_receipt_href(number),
            variant="outline",
            size="sm",
            icon_name="receipt",
            download="",
            **{"aria-label": f"Download receipt for order {number} (PDF)"},
        ),
    )


def order_card(
    order: StoreOrderRead, *, heading_level: str = "h3", extra: Any = "", receipt: bool = True
) -> VdomDict:
    """One store order: number and date, its order and fulfilment statuses, lines, totals, where it ships,
    once shipped its tracking number, and (`receipt`: for readers who may download it) its receipt link."""
    heading = getattr(html, heading_level)
    title_id = f"store-order-{order.number}"
    return html.article(
        {"class_name": "staff-card store-order", "aria-labelledby": title_id, "key": order.id},
        html.div(
            {"class_name": "store-order-head"},
            html.div(
                heading({"id": title_id, "class_name": "store-order-title"}, f"Order {order.number}"),
                hint(f"Placed {format_date(order.created_at)}"),
            ),
            html.dl(
                {"class_name": "store-order-statuses"},
                html.div(html.dt("Order status"), html.dd(order_badge(order.status))),
                html.div(html.dt("Fulfilment"), html.dd(fulfilment_badge(order.fulfilment))),
            ),
        ),
        html.ul(
            {"class_name": "store-order-lines"},
            *[
                html.li(
                    {"key": f"{line.name}-{index}"},
                    html.span(UserText(line.name), f" × {line.quantity}"),
                    html.span(money(line.unit_price_cents * line.quantity)),
                )
                for index, line in enumerate(order.lines)
            ],
        ),
        order_money(order),
        html.p(
            {"class_name": "hint store-ship-to"},
            icon("map-pin", size=14),
            html.span(
                "Ships to ",
                UserText(
                    f"{order.ship_name}, {order.ship_line1}"
                    + (f", {order.ship_line2}" if order.ship_line2 else "")
                    + f", {order.ship_city}, {order.ship_state} {order.ship_zip}"
                ),
                " · Pay on delivery",
            ),
        ),
        shipped_line(order),
        store_receipt_link(order.number) if receipt else "",
        extra,
    )
