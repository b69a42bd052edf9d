"""Booking: checkout options (places, days, providers, open times), 10-minute holds, and orders placed
through the payment gateway.

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.booking._orders import (
    ADDRESSED,
    EXPIRED,
    HOLD_MINUTES,
    NOT_HELD,
    NOT_OPEN,
    SAME_TIME,
    TAKEN,
    CheckoutLine,
    checkout_options,
    get_order,
    hold_slot,
    place_order,
    release_hold,
)

__all__ = [
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
]
