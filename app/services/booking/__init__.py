"""Booking: checkout options (places, days, providers, open times: `_options`), 10-minute holds (`_holds`),
orders placed through the payment gateway (`_orders`, `_payments`), and the rules they share (`_rules`).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_holds": ("hold_slot", "list_my_holds", "release_hold"),
    "_options": ("checkout_open_days", "checkout_options"),
    "_orders": ("CheckoutLine", "get_order", "get_order_by_number", "place_order"),
    "_rules": (
        "ADDRESSED",
        "EXPIRED",
        "HOLD_MINUTES",
        "NOT_HELD",
        "NOT_OPEN",
        "ORDER_ALPHABET",
        "SAME_TIME",
        "TAKEN",
        "address_problems",
    ),
    "_venue": ("VenueBooking", "book_venue_visits"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
