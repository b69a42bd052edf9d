"""/orders/<number>: an order's confirmation, at an address of its own (issue 11, flow 4).

Checkout goes here after Place order (with the card gateway, Stripe's payment page comes back here), so a reload, a bookmark or the link in the e-mail shows the same
order instead of "Your cart is empty". Intake notes with a red flag (an emergency, a crisis) put the 911 / 988
message above the confirmation (the visit is booked all the same). Only its patient (or an owner or admin) can open it; anyone else is
told it is not in their account, on a page that leads on to their own visits. Its totals are the receipt's
(app/services/receipts), so the page and the PDF agree after a cancellation or a refund. A cart of visits and
products placed as one checkout shows here as one order: the visits, the products of the store order placed
with them (`StoreOrder.visit_order_id`, on the same receipt) and one total (components/order_ui.py).
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import use_params

from app.services.booking import get_order_by_number
from app.services.payments import order_topic
from app.services.receipts import get_receipt
from components.hooks import use_query, use_topic
from components.kit import QueryView, band, button_link, empty_state, public_page
from components.order_ui import OrderConfirmation
from components.safety_ui import emergency_banner
from models.booking import OrderRead
from models.receipt import ReceiptRead


@component
def OrderPage() -> VdomDict:
    number = use_params().get("number", "")
    order = use_query(get_order_by_number, number=number)
    # The receipt's figures (the page shows the order once both are loaded, so no other total ever shows).
    receipt = use_query(get_receipt, number=number)
    # While a card payment awaits Stripe's confirmation, the webhook's change reloads the page's order.
    awaiting = order.data if order.data is not None and order.data.payment_status == "awaiting" else None
    use_topic(*([order_topic(awaiting.id)] if awaiting else []), refetch=[order, receipt])
    if order.error:
        return public_page(
            "Your order",
            band(
                empty_state(
                    order.error,
                    "Orders you placed, and their visits, are listed under My Appointments.",
                    icon_name="search",
                    action=button_link("My Appointments", "/appointments"),
                    class_name="card",
                )
            ),
        )
    return QueryView(
        order,
        lambda found: QueryView(
            receipt,
            lambda figures: _confirmation(found, figures),
            is_empty=lambda figures: figures is None,
            loading_label="Loading your order…",
        ),
        is_empty=lambda found: found is None,
        loading_label="Loading your order…",
    )


def _confirmation(order: OrderRead, receipt: ReceiptRead) -> VdomDict | Component:
    """The confirmation, after the 911 / 988 message when the intake notes have a red flag (issue 27)."""
    if not order.safety_message:
        return OrderConfirmation(order, receipt)
    return html._(
        html.div({"class_name": "container order-safety"}, emergency_banner(order.safety_message)),
        OrderConfirmation(order, receipt),
    )
