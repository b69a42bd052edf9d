"""The platform's fee (SPEC §9): 5 % of a subtotal, rounded half-up to the cent. The cart shows it, checkout and
the store charge it, the demo books it, receipts name it."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

PLATFORM_FEE_PERCENT = 5
_CENT = Decimal("0.01")


def platform_fee(subtotal: Decimal) -> Decimal:
    """5 % of a subtotal, rounded half-up to the cent (SPEC §9)."""
    return (subtotal * PLATFORM_FEE_PERCENT / 100).quantize(_CENT, rounding=ROUND_HALF_UP)
