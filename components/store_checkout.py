"""Checkout's products (issue 14 part 9): the cart's store products, a US shipping address (a draft, so a
reload keeps what was typed; it starts from the patient's last store order or saved address), the products'
figures as their order will record them (Subtotal, Shipping, Sales tax, Platform fee, Total: the owners'
settings) and Place order: by card on Stripe's page when the card gateway is configured, else paid on
delivery. The address is checked by the store service (`shipping_problems`: a real ZIP code in the state
typed); each mistake shows beside its field and in the error summary at the top, and what was typed stays.
Shown by /checkout when the cart holds only products (`StoreCheckout`).

A cart with visits too is one checkout (issue 29 item 4, pages/checkout.py): the page places it with one
Place order, and takes from here the shipping address part (`ShippingFields`, which hands its form to the
page through a ref), the products' summary lines (`product_lines`) and figures (`product_totals`).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from reactpy import Ref, component, html, use_state
from reactpy.types import State, VdomDict

from app.services.cart import cart_totals
from app.services.payments import get_payment_options
from app.services.store import get_shipping_prefill, place_store_order, shipping_problems
from components.browser import follow, native_link
from components.cart import use_cart
from components.format import format_currency
from components.forms import Form, use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    ErrorLine,
    ErrorSummary,
    Field,
    UserText,
    band,
    button_link,
    hint,
    loading_state,
)
from components.store_ui import SHIPPING_FIELDS, percent_text, stock_line, store_money_rows
from models.cart import CartItemRead, CartRead
from models.store import ShippingAddress, StoreOrderRead, StoreTotals

ORDERS_HREF = "/dashboard/store?tab=orders"
CARD_NOTE = "After Place order you pay on Stripe's secure page; your card number never reaches us."


def store_orders_href(number: str) -> str:
    """The patient's store orders, saying that order `number` was placed."""
    return f"{ORDERS_HREF}&placed={number}"


def shipping_id(name: str) -> str:
    return f"shipping-{name}"


def shipping_address(form: Form) -> ShippingAddress:
    """The address typed into a shipping form (each value cut to a sane length; the service checks it)."""
    return ShippingAddress(**{name: str(form.values.get(name, ""))[:500] for name, *_ in SHIPPING_FIELDS})


def shipping_card(form: Form, errors: dict[str, str], *, lead: str) -> VdomDict:
    """The "Shipping address" card: a field per line of a US address, each with its error beside it."""
    return html.section(
        {"class_name": "checkout-card", "aria-labelledby": "shipping-title"},
        html.h2(
            {"id": "shipping-title", "class_name": "checkout-card-title"},
            html.span({"class_name": "checkout-card-icon"}, icon("truck", size=18)),
            "Shipping address",
        ),
        hint(lead),
        html.div(
            {"class_name": "store-shipping", "key": f"shipping-{form.version}"},
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
    )


def product_totals(cart: CartRead | None, products: list[CartItemRead]) -> StoreTotals:
    """The cart's products priced by the server with the owners' settings (shipping, tax, retail fee)."""
    totals = cart.totals.products if cart is not None else None
    if totals is None:
        totals = cart_totals(products).products or StoreTotals(
            subtotal_cents=0, shipping_cents=0, tax_cents=0, fee_cents=0
        )
    return totals


def product_lines(products: list[CartItemRead]) -> list[VdomDict]:
    """A summary line (`li`) per product: its name, quantity, a low-stock warning and its price."""
    return [
        html.li(
            {"key": item.id, "class_name": "summary-product"},
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
    ]


def product_money_rows(totals: StoreTotals) -> list[VdomDict]:
    """The products' figures as `dl` rows: subtotal, shipping, sales tax, a retail fee, total."""
    return store_money_rows(
        subtotal=Decimal(totals.subtotal_cents) / 100,
        shipping=Decimal(totals.shipping_cents) / 100,
        tax=Decimal(totals.tax_cents) / 100,
        fee=Decimal(totals.fee_cents) / 100,
        total=Decimal(totals.total_cents) / 100,
        tax_percent=totals.tax_percent,
        fee_label=_fee_label(totals),
        total_class="summary-total",
    )


def products_beside_visits(totals: StoreTotals) -> list[VdomDict]:
    """The products' part of a checkout with visits, as `dl` rows: "Products" (their subtotal), shipping,
    sales tax and a retail fee; the page adds the one total."""
    rows = [html.div({"key": "products"}, html.dt("Products"), html.dd(_money(totals.subtotal_cents)))]
    rows.append(
        html.div(
            {"key": "shipping"},
            html.dt("Shipping"),
            html.dd(_money(totals.shipping_cents) if totals.shipping_cents else "Free"),
        )
    )
    if totals.tax_cents or (totals.tax_percent or 0) > 0:
        rate = f" ({percent_text(totals.tax_percent)}%)" if totals.tax_percent else ""
        rows.append(html.div({"key": "tax"}, html.dt(f"Sales tax{rate}"), html.dd(_money(totals.tax_cents))))
    if totals.fee_cents:
        rows.append(
            html.div(
                {"key": "store-fee"},
                html.dt(_fee_label(totals, "Store platform fee")),
                html.dd(_money(totals.fee_cents)),
            )
        )
    return rows


def _fee_label(totals: StoreTotals, what: str = "Platform fee") -> str | None:
    return f"{what} ({percent_text(totals.fee_percent)}%)" if totals.fee_cents else None


def _money(amount_cents: int) -> str:
    return format_currency(Decimal(amount_cents) / 100)


@component
def ShippingFields(keep: Ref[Form | None], errors: dict[str, str]) -> VdomDict:
    """The shipping address of a checkout that also books visits: the form (a draft, starting from the
    patient's last store order or saved address) is handed to the page in `keep.current`, which reads it
    at Place order."""
    prefill = use_query(get_shipping_prefill)
    if prefill.data is None and prefill.error is None:
        return loading_state("Loading your shipping address…")
    return html._(_ShippingForm(keep, errors, prefill.data or ShippingAddress()))


@component
def _ShippingForm(keep: Ref[Form | None], errors: dict[str, str], start: ShippingAddress) -> VdomDict:
    form = use_form(draft="checkout:shipping", **start.model_dump())
    keep.current = form
    return shipping_card(
        form, errors, lead="Your store products ship here, within the United States, with your visits' order."
    )


@component
def StoreCheckout(products: list[CartItemRead], on_placed: Callable[[str], None]) -> VdomDict:
    """`on_placed(number)` once the order is placed (the page above navigates: this part may be gone with
    the cart's products); with the card gateway, the browser goes to Stripe's page instead. The address
    starts from the patient's last store order or saved address (a draft typed before wins)."""
    prefill = use_query(get_shipping_prefill)
    if prefill.data is None and prefill.error is None:
        return loading_state("Loading your shipping address…")
    start = prefill.data or ShippingAddress()  # no prefill when it failed: the patient types the address
    return html._(_StoreCheckout(products, on_placed, start=start))


def to_card_payment(url: str, what: str = "Your order is placed") -> VdomDict:
    """Placed, awaiting its card payment: the browser goes to Stripe's page at once (the link is there for a
    browser that does not follow by itself)."""
    return band(
        html.p(f"{what}. Taking you to Stripe's secure page to pay by card…"),
        button_link("Continue to payment", url, **native_link()),
        follow(url, full_load=True),
        container_class="checkout-loading",
        container_role="status",
    )


@component
def _StoreCheckout(
    products: list[CartItemRead], on_placed: Callable[[str], None], *, start: ShippingAddress
) -> VdomDict:
    form = use_form(draft="checkout:shipping", **start.model_dump())
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    problem_state: State[str | None] = use_state(None)
    problem, set_problem = problem_state
    attempt, set_attempt = use_state(0)
    paying_state: State[str] = use_state("")
    paying, set_paying = paying_state

    def refused(message: str) -> None:
        set_problem(message)
        set_attempt(lambda n: n + 1)

    def done(order: StoreOrderRead) -> None:
        form.discard_draft()
        if order.payment_url:
            set_paying(order.payment_url)
        else:
            on_placed(order.number)

    order = use_action(place_store_order, on_success=done, on_error=refused)
    by_card = get_payment_options().pays_online

    async def submit(_event: Any = None) -> None:
        set_problem(None)
        address = shipping_address(form)
        found = shipping_problems(address)
        set_errors(found)
        if found:
            set_attempt(lambda n: n + 1)
            return
        await order.run(address=address)

    cart = use_cart().cart
    if paying:
        return to_card_payment(paying)
    totals = product_totals(cart, products)
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
                shipping_card(form, errors, lead="We ship store products within the United States."),
            ),
            html.aside(
                {"class_name": "checkout-summary", "aria-labelledby": "store-checkout-title"},
                html.h2({"id": "store-checkout-title", "class_name": "checkout-card-title"}, "Products"),
                html.ul({"class_name": "summary-lines"}, *product_lines(products)),
                html.dl({"class_name": "summary-totals store-checkout-totals"}, *product_money_rows(totals)),
                html.p(
                    {"class_name": "summary-pay"},
                    icon("shield", size=18),
                    html.span(html.strong("Pay by card."), " " + CARD_NOTE)
                    if by_card
                    else html.span(html.strong("Pay on delivery."), " Nothing is charged now."),
                ),
                Button(
                    f"Place order · {format_currency(total)}",
                    on_click=submit,
                    pending=order.pending,
                    pending_label="Placing order…",
                    class_name="btn-block",
                ),
            ),
        ),
    )
