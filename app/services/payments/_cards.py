"""Cards on file (PAYMENT_GATEWAY=stripe): the signed-in patient's saved cards, read from their Stripe
Customer (brand, last four digits, expiry: never a number), and removing one (detached from the customer,
after checking it is theirs; audited). With pay at visit there are none, and nothing is asked of Stripe.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, Unavailable, ValidationFailed
from app.services.payments._stripe import NAME, customer_id_of, stripe_client
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.audit import AuditAction
from models.payment import SavedCardRead

if TYPE_CHECKING:
    import stripe

MAX_CARDS = 20
CARD_ID = re.compile(r"^(pm|card)_[A-Za-z0-9]{1,200}$")
CARDS_UNREACHABLE = "Your saved cards can't be reached right now. Please try again in a moment."
NO_CARD = "This card is not saved in your account."
NO_GATEWAY = "Card payments are not enabled on this site."


def _card(method: stripe.PaymentMethod) -> SavedCardRead | None:
    card = getattr(method, "card", None)
    if card is None:
        return None
    return SavedCardRead(
        id=method.id,
        brand=str(getattr(card, "brand", "") or "card")[:20],
        last4=str(getattr(card, "last4", "") or "")[:4],
        exp_month=int(getattr(card, "exp_month", 0) or 0),
        exp_year=int(getattr(card, "exp_year", 0) or 0),
    )


async def list_my_cards(*, session: AsyncSession, actor: Principal) -> list[SavedCardRead]:
    """The signed-in patient's saved cards (at most MAX_CARDS), newest first as Stripe lists them."""
    import stripe  # imported when used: see _stripe.py

    account = await require_account(session=session, actor=actor)
    if get_settings().payment_gateway != NAME:
        return []
    customer = await customer_id_of(session, account.id)
    if customer is None:
        return []
    try:
        async with stripe_client() as client:
            found = await client.v1.customers.payment_methods.list_async(
                customer, params={"type": "card", "limit": MAX_CARDS}
            )
    except stripe.StripeError:
        raise Unavailable(CARDS_UNREACHABLE) from None
    return [card for card in (_card(m) for m in found.data) if card is not None]


async def remove_my_card(*, session: AsyncSession, actor: Principal, card_id: str) -> None:
    """Remove one of the signed-in patient's saved cards (Stripe detaches it from their customer)."""
    import stripe  # imported when used: see _stripe.py

    account = await require_account(session=session, actor=actor)
    if get_settings().payment_gateway != NAME:
        raise NotFound(NO_GATEWAY)
    card_id = (card_id or "").strip()
    if not CARD_ID.match(card_id):
        raise ValidationFailed(NO_CARD)
    customer = await customer_id_of(session, account.id)
    if customer is None:
        raise NotFound(NO_CARD)
    try:
        async with stripe_client() as client:
            try:
                # Found only if attached to this customer: nobody removes someone else's card.
                method = await client.v1.customers.payment_methods.retrieve_async(customer, card_id)
            except stripe.InvalidRequestError:
                raise NotFound(NO_CARD) from None
            await client.v1.payment_methods.detach_async(card_id)
    except stripe.StripeError:
        raise Unavailable(CARDS_UNREACHABLE) from None
    card = _card(method)
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.card_removed,
        target=account.id,
        details={"brand": card.brand if card else "", "last4": card.last4 if card else ""},
    )
