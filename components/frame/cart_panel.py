"""The cart panel, sliding in from the right: the items with their prices (the original struck through
during a sale), a quantity stepper and remove button per item, Clear cart, the totals (the visits' 5 %
platform fee; store products' shipping, sales tax and retail fee as the owners set them), and the way on to
checkout. Opened by the cart buttons through the session's cart handle; Escape and
the backdrop close it (static/js/app.js handles data-modal)."""

from __future__ import annotations

from collections.abc import Callable

from reactpy import component, html, use_state
from reactpy.types import VdomDict

from app.services.cart import MAX_QUANTITY, PLATFORM_FEE_PERCENT, clear_cart, remove_from_cart, set_quantity
from components import browser
from components.cart import ESTIMATE_NOTE, use_cart, use_cart_command
from components.context import use_session
from components.format import format_currency, format_minutes
from components.icons import icon
from components.kit import error_state, loading_state
from components.store_ui import percent_text, store_money_rows
from models.cart import CartItemRead, CartRead

CHECKOUT_HREF = "/checkout"
CLOSE_ID = "cart-close"


def _visits(count: int) -> str:
    return f"{count} visit" if count == 1 else f"{count} visits"


def _unit_price(item: CartItemRead) -> VdomDict:
    """The price of one visit; "from" the lowest provider's until a provider is chosen."""
    since = "from " if item.price_is_from else ""
    if item.price >= item.original_price:
        return html.span({"class_name": "cart-price"}, html.strong(since, format_currency(item.price)))
    return html.span(
        {"class_name": "cart-price cart-price-sale"},
        html.s(
            {"class_name": "cart-price-original"},
            html.span({"class_name": "sr-only"}, "Regular price "),
            format_currency(item.original_price),
        ),
        html.strong(html.span({"class_name": "sr-only"}, "Sale price "), since, format_currency(item.price)),
    )


@component
def _CartLine(item: CartItemRead) -> VdomDict:
    change_quantity, changing = use_cart_command(set_quantity)
    remove, removing = use_cart_command(remove_from_cart)
    busy = changing or removing
    heading_id = f"cart-item-{item.id}"

    async def step(by: int) -> None:
        await change_quantity(item_id=item.id, quantity=item.quantity + by)

    async def decrease(_event: dict) -> None:
        await step(-1)

    async def increase(_event: dict) -> None:
        await step(1)

    async def drop(_event: dict) -> None:
        await remove(item_id=item.id)

    details = ["Store product · ships to you"] if item.is_product else [format_minutes(item.duration_minutes)]
    if item.provider_name:
        details.insert(0, f"with {item.provider_name}")
    return html.li(
        {"class_name": "cart-line", "aria-labelledby": heading_id, "aria-busy": "true" if busy else "false"},
        html.div(
            {"class_name": "cart-line-head"},
            html.div(
                {"class_name": "cart-line-title"},
                html.h3({"id": heading_id, "class_name": "cart-line-name"}, item.name),
                html.p({"class_name": "cart-line-meta"}, " · ".join(details)),
            ),
            _unit_price(item),
        ),
        html.div(
            {"class_name": "cart-line-foot"},
            html.div(
                {"class_name": "stepper", "role": "group", "aria-label": f"Quantity of {item.name}"},
                html.button(
                    {
                        "class_name": "stepper-button",
                        "type": "button",
                        "aria-label": f"Decrease quantity of {item.name}",
                        "disabled": busy,
                        "on_click": decrease,
                    },
                    "−",
                ),
                html.output({"class_name": "stepper-value", "aria-live": "polite"}, str(item.quantity)),
                html.button(
                    {
                        "class_name": "stepper-button",
                        "type": "button",
                        "aria-label": f"Increase quantity of {item.name}",
                        "disabled": busy or item.quantity >= MAX_QUANTITY,
                        "on_click": increase,
                    },
                    "+",
                ),
            ),
            html.span(
                {"class_name": "cart-line-total"},
                f"{'from ' if item.price_is_from else ''}{format_currency(item.price * item.quantity)} "
                f"for {item.quantity if item.is_product else _visits(item.quantity)}"
                if item.quantity > 1
                else "",
            ),
            html.button(
                {
                    "class_name": "cart-remove",
                    "type": "button",
                    "aria-label": f"Remove {item.name}",
                    "disabled": busy,
                    "on_click": drop,
                },
                icon("trash", size=16),
                html.span({"aria-hidden": "true"}, "Remove"),
            ),
        ),
    )


def _fee_label(cart: CartRead) -> str | None:
    """The platform fee's name: the visits' 5 % (SPEC §9), the retail fee the owners set, or both."""
    products = cart.totals.products
    visits = any(not item.is_product for item in cart.items)
    if products is None or not products.fee_cents:
        if not visits:
            return None
        return f"Platform fee ({PLATFORM_FEE_PERCENT}%" + (" of visits)" if products else ")")
    if visits:
        return "Platform fee"
    return f"Platform fee ({percent_text(products.fee_percent)}%)"


def _totals(cart: CartRead) -> VdomDict:
    totals = cart.totals
    since = "from " if totals.is_estimate else ""
    if totals.products is None:  # visits only: their 5 % fee, as ever
        rows = [
            html.div(html.dt("Subtotal"), html.dd(since + format_currency(totals.subtotal))),
            html.div(
                html.dt(f"Platform fee ({PLATFORM_FEE_PERCENT}%)"),
                html.dd(since + format_currency(totals.platform_fee)),
            ),
            html.div(
                {"class_name": "cart-total"}, html.dt("Total"), html.dd(since + format_currency(totals.total))
            ),
        ]
    else:  # with store products: their shipping and tax too (components/store_ui)
        rows = store_money_rows(
            subtotal=totals.subtotal,
            shipping=totals.shipping,
            tax=totals.sales_tax,
            fee=totals.platform_fee,
            total=totals.total,
            tax_percent=totals.products.tax_percent,
            fee_label=_fee_label(cart),
            prefix=since,
            total_class="cart-total",
        )
    return html._(
        html.dl({"class_name": "cart-totals"}, *rows),
        html.p({"class_name": "hint cart-estimate"}, ESTIMATE_NOTE) if totals.is_estimate else "",
    )


def _empty(close: Callable[[], None]) -> VdomDict:
    return html.div(
        {"class_name": "empty-state"},
        html.span({"class_name": "empty-icon"}, icon("cart", size=28)),
        html.p({"class_name": "empty-title"}, "Your cart is empty"),
        html.p("Add a service to book a visit at your home or office."),
        html.a(
            {"class_name": "btn btn-primary", "href": "/services", "on_click": lambda _e: close()},
            "Browse services",
        ),
    )


@component
def _Contents() -> VdomDict:
    handle = use_cart()
    clear, clearing = use_cart_command(clear_cart)
    cart = handle.cart

    async def clear_all(_event: dict) -> None:
        await clear()

    if cart is None:
        if handle.error:
            return html.div({"class_name": "cart-body"}, error_state(handle.error))
        return loading_state("Loading your cart…")
    if not cart.items:
        return _empty(handle.close)
    count = cart.totals.item_count
    return html._(
        html.div(
            {"class_name": "cart-body"},
            html.div(
                {"class_name": "cart-summary"},
                html.p({"class_name": "cart-count"}, f"{count} item" if count == 1 else f"{count} items"),
                html.button(
                    {
                        "class_name": "cart-clear",
                        "type": "button",
                        "disabled": clearing,
                        "on_click": clear_all,
                    },
                    "Clear cart",
                ),
            ),
            html.ul(
                {"class_name": "cart-lines", "aria-label": "Items in your cart"},
                *(_CartLine(item, key=item.id) for item in cart.items),
            ),
        ),
        html.div(
            {"class_name": "cart-footer"},
            _totals(cart),
            html.a(
                {
                    "class_name": "btn btn-primary cart-checkout",
                    "href": CHECKOUT_HREF,
                    "on_click": lambda _e: handle.close(),
                },
                "Checkout",
                icon("arrow-right", size=18),
            ),
        ),
    )


@component
def CartPanel() -> VdomDict:
    handle = use_session().cart
    is_open, set_open = use_state(False)
    handle.panel.bind(set_open)
    if not is_open:
        return html._()
    return html.div(
        {"class_name": "sheet-root cart-sheet-root", **browser.modal()},
        html.div({"class_name": "sheet-backdrop", "on_click": lambda _e: handle.close()}),
        html.aside(
            {
                "class_name": "sheet cart-sheet",
                "role": "dialog",
                "aria-modal": "true",
                "aria-labelledby": "cart-title",
            },
            html.div(
                {"class_name": "sheet-header"},
                html.h2({"id": "cart-title"}, "Your Cart"),
                html.button(
                    {
                        "class_name": "icon-button",
                        "type": "button",
                        "aria-label": "Close cart",
                        **browser.modal_close(),
                        **browser.initial_focus(),
                        "id": CLOSE_ID,
                        "on_click": lambda _e: handle.close(),
                    },
                    icon("x", size=20),
                ),
            ),
            _Contents(),
        ),
    )
