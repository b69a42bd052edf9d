"""Booking: checkout options (places, days, providers, open times), 10-minute holds, and orders placed
through the payment gateway.

The public surface of the domain: screens, HTTP routes and the assembly import these names from here only;
the `_*` modules are private. Names load on first use (PEP 562), so domains that call each other (a visit
confirmed from the staff dashboard, a hold checked against appointments) never meet a half-imported package.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_orders": (
        "ADDRESSED",
        "CheckoutLine",
        "EXPIRED",
        "HOLD_MINUTES",
        "NOT_HELD",
        "NOT_OPEN",
        "SAME_TIME",
        "TAKEN",
        "checkout_options",
        "get_order",
        "hold_slot",
        "place_order",
        "release_hold",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
