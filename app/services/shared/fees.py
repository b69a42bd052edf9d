"""The platform's fee on visits (SPEC §9): 5 % of a subtotal, rounded half-up to the cent. The cart shows it,
checkout charges it, the demo books it, receipts name it. Store products carry the retail fee the owners set
instead (none by default: models/store.py `StorePricing`, issue 29 item 4)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

PLATFORM_FEE_PERCENT = 5
_CENT = Decimal("0.01")


def platform_fee(subtotal: Decimal) -> Decimal:
    """5 % of a subtotal, rounded half-up to the cent (SPEC §9)."""
    return (subtotal * PLATFORM_FEE_PERCENT / 100).quantize(_CENT, rounding=ROUND_HALF_UP)
