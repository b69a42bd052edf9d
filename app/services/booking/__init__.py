"""Booking: checkout options (places, days, providers, open times: `_options`), 10-minute holds (`_holds`),
orders placed through the payment gateway (`_orders`, `_payments`), and the rules they share (`_rules`).

The public surface of the domain: screens, HTTP routes and the assembly import these names from here only;
the `_*` modules are private. Names load on first use (PEP 562), so domains that call each other (a visit
confirmed from the staff dashboard, a hold checked against appointments) never meet a half-imported package.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_holds": (
        "hold_slot",
        "release_hold",
    ),
    "_options": ("checkout_options",),
    "_orders": (
        "CheckoutLine",
        "get_order",
        "place_order",
    ),
    "_rules": (
        "ADDRESSED",
        "EXPIRED",
        "HOLD_MINUTES",
        "NOT_HELD",
        "NOT_OPEN",
        "SAME_TIME",
        "TAKEN",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
