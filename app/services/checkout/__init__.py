"""One checkout (issue 29 item 4): a cart with visits and products placed with one action, as one payment.

`place_checkout` books the held visits (app/services/booking `place_order`) and, in the same unit of work,
orders the cart's products (app/services/store `place_store_order`) linked to the visit order
(`StoreOrder.visit_order_id`). The products are paid as the visits are:
- by card (PAYMENT_GATEWAY=stripe, the visits paid by card): one Stripe Checkout Session with a line per
  visit, the fee, a line per product, shipping and tax (app/services/payments `_checkout_lines`); Stripe's
  webhook confirms it once and both orders are paid (the store follows `PaymentCaptured`), or both are
  released when it fails or expires;
- at the visit (the embedded default): the products are paid on delivery, as a store order placed alone is.
Wallet credit (`use_credit`) pays the visits' part (app/services/booking `_payment_choice`): by card, the
session charges the visits less the credit and the products in full; credit covering the visits places
them with no card at all, and the products are then paid on delivery.
Nothing is written unless both parts pass (the address, every hold, every product's stock).

Its public surface: the names below (`__all__`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.booking import CheckoutLine, place_order
from app.services.errors import ValidationFailed
from app.services.store import ShippingInvalid, place_store_order, shipping_problems
from models.checkout import CheckoutRead
from models.store import ShippingAddress, StoreOrderRead

NO_VISITS = "Choose a time for a visit, or order the products on their own."


async def place_checkout(
    *,
    session: AsyncSession,
    actor: Principal,
    lines: Sequence[CheckoutLine],
    address: ShippingAddress,
    visitor_id: str = "",
    payment_mode: str = "",
    use_credit: bool = False,
    now: datetime | None = None,
) -> CheckoutRead:
    """Place the signed-in patient's cart, its held visits (`lines`) and its products shipped to `address`,
    as one checkout with one payment (see the module's notes). `payment_mode` and `use_credit` are the
    visits' (`place_order`)."""
    if not lines:
        raise ValidationFailed(NO_VISITS)
    problems = shipping_problems(address)
    if problems:
        raise ShippingInvalid(problems)
    placed: list[StoreOrderRead] = []

    async def order_products(order_id: str) -> None:
        placed.append(
            await place_store_order(
                session=session, actor=actor, address=address, visit_order_id=order_id, now=now
            )
        )

    order = await place_order(
        session=session,
        actor=actor,
        lines=lines,
        visitor_id=visitor_id,
        payment_mode=payment_mode,
        use_credit=use_credit,
        with_order=order_products,
        now=now,
    )
    return CheckoutRead(order=order, store_order=placed[0] if placed else None, payment_url=order.payment_url)


__all__ = ["NO_VISITS", "CheckoutRead", "place_checkout"]
