"""/orders/<number>: an order's confirmation, at an address of its own (issue 11, flow 4).

Checkout goes here after Place order, so a reload, a bookmark or the link in the e-mail shows the same
order instead of "Your cart is empty". Only its patient (or an owner or admin) can open it; anyone else is
told it is not in their account.
"""

from __future__ import annotations

from reactpy import component
from reactpy_router import use_params

from app.services.booking import get_order_by_number
from components.context import use_session
from components.hooks import use_query
from components.kit import QueryView
from components.order_ui import OrderConfirmation


@component
def OrderPage() -> dict:
    session = use_session()
    number = use_params().get("number", "")
    order = use_query(get_order_by_number, actor=session.actor, number=number)
    return QueryView(
        order,
        OrderConfirmation,
        is_empty=lambda found: found is None,
        loading_label="Loading your order…",
    )
