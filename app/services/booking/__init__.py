"""Booking: checkout options (places, days, providers, open times: `_options`), 10-minute holds (`_holds`),
orders placed through the payment gateway (`_orders`, publishing `OrderPlaced`), corporate venue days
(`_venue`), and the rules they share (`_rules`).

Its public surface: the names below (`__all__`).
"""

from app.services.booking._holds import hold_slot, list_my_holds, release_hold
from app.services.booking._options import checkout_open_days, checkout_options
from app.services.booking._orders import get_order, get_order_by_number, place_order
from app.services.booking._payment_choice import credit_to_apply, get_checkout_money
from app.services.booking._rules import (
    EXPIRED,
    HOLD_MINUTES,
    NOT_HELD,
    NOT_OPEN,
    ORDER_ALPHABET,
    SAME_TIME,
    TAKEN,
)
from app.services.booking._venue import VenueBooking
from app.services.shared.addresses import ADDRESSED, address_problems
from models.booking import CheckoutLine

__all__ = [
    "ADDRESSED",
    "CheckoutLine",
    "EXPIRED",
    "HOLD_MINUTES",
    "NOT_HELD",
    "NOT_OPEN",
    "ORDER_ALPHABET",
    "SAME_TIME",
    "TAKEN",
    "VenueBooking",
    "address_problems",
    "checkout_open_days",
    "checkout_options",
    "credit_to_apply",
    "get_checkout_money",
    "get_order",
    "get_order_by_number",
    "hold_slot",
    "list_my_holds",
    "place_order",
    "release_hold",
]
