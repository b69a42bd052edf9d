"""Checkout's products (issue 14 part 9): the cart's store products, a US shipping address (a draft, so a
reload keeps what was typed; it starts from the patient's last store order or saved address), the products'
figures as their order will record them (Subtotal, Shipping, Sales tax, Platform fee, Total: the owners'
settings) and Place order, paid on delivery. The address is checked by the store
service (`shipping_problems`: a real ZIP code in the state typed); each mistake shows beside its field and
in the error summary at the top, and what was typed stays. Shown by /checkout when the cart holds products.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from reactpy import component, html, use_state
from reactpy.types import State, VdomDict

from app.services.cart import cart_totals
from app.services.store import get_shipping_prefill, place_store_order, shipping_problems
from components.cart import use_cart
from components.format import format_currency
from components.forms import use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import Button, ErrorLine, ErrorSummary, Field, UserText, hint, loading_state
from components.store_ui import SHIPPING_FIELDS, percent_text, stock_line, store_money_rows
from models.cart import CartItemRead
from models.store import ShippingAddress, StoreTotals

ORDERS_HREF = "/dashboard/store?tab=orders"


def store_orders_href(number: str) -> str:
    """The patient's store orders, saying that order `number` was placed."""
    return f"{ORDERS_HREF}&placed={number}"


def shipping_id(name: str) -> str:
    return f"shipping-{name}"


@component
def StoreCheckout(
    products: list[CartItemRead], on_placed: Callable[[str], None], *, beside_visits: bool = False
) -> VdomDict:
    """`on_placed(number)` once the order is placed (the page above navigates: this part may be gone with
    the cart's products). `beside_visits`: the cart also holds visits, booked above with their own button.
    The address starts from the patient's last store order or saved address (a draft typed before wins)."""
    prefill = use_query(get_shipping_prefill)
    if prefill.data is None and prefill.error is None:
        return loading_state("Loading your shipping address…")
    start = prefill.data or ShippingAddress()  # no prefill when it failed: the patient types the address
    return html._(_StoreCheckout(products, on_placed, beside_visits=beside_visits, start=start))


@component
def _StoreCheckout(
    products: list[CartItemRead],
    on_placed: Callable[[str], None],
    *,
    beside_visits: bool,
    start: ShippingAddress,
) -> VdomDict:
    form = use_form(draft="checkout:shipping", **start.model_dump())
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    problem_state: State[str | None] = use_state(None)
    problem, set_problem = problem_state
    attempt, set_attempt = use_state(0)

    def refused(message: str) -> None:
        set_problem(message)
        set_attempt(lambda n: n + 1)

    def done(order: Any) -> None:
        form.discard_draft()
        on_placed(order.number)

    order = use_action(place_store_order, on_success=done, on_error=refused)

    async def submit(_event: Any = None) -> None:
        set_problem(None)
        address = ShippingAddress(
            **{name: str(form.values.get(name, ""))[:500] for name, *_ in SHIPPING_FIELDS}
        )
        found = shipping_problems(address)
        set_errors(found)
        if found:
            set_attempt(lambda n: n + 1)
            return
        await order.run(address=address)

    cart = use_cart().cart
    # The cart's products priced by the server with the owners' settings (shipping, tax, retail fee).
    totals: StoreTotals | None = cart.totals.products if cart is not None else None
    if totals is None:
        totals = cart_totals(products).products or StoreTotals(
            subtotal_cents=0, shipping_cents=0, tax_cents=0, fee_cents=0
        )
    total = Decimal(totals.total_cents) / 100
    summary: list[ErrorLine] = [(shipping_id(name), message) for name, message in errors.items()]
    if problem:
        summary.append((None, problem))
    return html.section(
        {"class_name": "section checkout store-checkout", "aria-labelledby": "store-checkout-title"},
        html.div(
            {"class_name": "container checkout-errors"},
            ErrorSummary(summary, attempt=attempt, id="store-checkout-errors"),
        )
        if summary
        else "",
        html.div(
            {"class_name": "container checkout-grid"},
            html.div(
                {"class_name": "checkout-main"},
                html.section(
                    {"class_name": "checkout-card", "aria-labelledby": "shipping-title"},
                    html.h2(
                        {"id": "shipping-title", "class_name": "checkout-card-title"},
                        html.span({"class_name": "checkout-card-icon"}, icon("truck", size=18)),
                        "Shipping address",
                    ),
                    hint("We ship store products within the United States."),
                    html.div(
                        {"class_name": "store-shipping"},
                        *[
                            Field(
                                label,
                                name,
                                form=form,
                                id=shipping_id(name),
                                id_prefix="shipping",
                                autocomplete=autocomplete,
                                max_length=limit,
                                error=errors.get(name),
                                class_name=f"field-{name}",
                                input_mode="numeric" if name == "zip_code" else None,
                                placeholder="NY" if name == "state" else None,
                            )
                            for name, label, autocomplete, limit in SHIPPING_FIELDS
                        ],
                    ),
                ),
            ),
            html.aside(
                {"class_name": "checkout-summary", "aria-labelledby": "store-checkout-title"},
                html.h2(
                    {"id": "store-checkout-title", "class_name": "checkout-card-title"},
                    "Store products" if beside_visits else "Products",
                ),
                html.ul(
                    {"class_name": "summary-lines"},
                    *[
                        html.li(
                            {"key": item.id},
                            html.div(
                                {"class_name": "summary-line-text"},
                                html.strong(UserText(item.name)),
                                html.span({"class_name": "hint"}, f"Quantity {item.quantity}"),
                                stock_line(item.stock or 0) if (item.stock or 0) < item.quantity else "",
                            ),
                            html.span(
                                {"class_name": "summary-price"},
                                html.strong(format_currency(item.price * item.quantity)),
                            ),
                        )
                        for item in products
                    ],
                ),
                html.dl(
                    {"class_name": "summary-totals store-checkout-totals"},
                    *store_money_rows(
                        subtotal=Decimal(totals.subtotal_cents) / 100,
                        shipping=Decimal(totals.shipping_cents) / 100,
                        tax=Decimal(totals.tax_cents) / 100,
                        fee=Decimal(totals.fee_cents) / 100,
                        total=total,
                        tax_percent=totals.tax_percent,
                        fee_label=(
                            f"Platform fee ({percent_text(totals.fee_percent)}%)"
                            if totals.fee_cents
                            else None
                        ),
                        total_class="summary-total",
                    ),
                ),
                html.p(
                    {"class_name": "summary-pay"},
                    icon("shield", size=18),
                    html.span(html.strong("Pay on delivery."), " Nothing is charged now."),
                ),
                Button(
                    f"Place {'store ' if beside_visits else ''}order · {format_currency(total)}",
                    on_click=submit,
                    pending=order.pending,
                    pending_label="Placing order…",
                    class_name="btn-block",
                ),
            ),
        ),
    )
