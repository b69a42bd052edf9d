"""Which payment modes patients may choose at checkout (business setting `payment_modes`, issue 29 item 1),
read in the caller's unit of work like the other business settings: an order is judged by the setting of its
own transaction.

A marketplace always keeps a usable mode: card at booking needs the card gateway (PAYMENT_GATEWAY=stripe),
so without it "card only" cannot be chosen (`usable_choice`) and a stored "card only" left from a time the
gateway was on counts as pay at visit. A stored value that is not a choice counts as the default (both).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import ValidationFailed
from app.settings import get_settings
from models.checkout_credit import PaymentMode
from models.feature import FeatureSetting

KEY = "payment_modes"
CHOICES = {
    "both": (PaymentMode.card, PaymentMode.visit),
    "card": (PaymentMode.card,),
    "visit": (PaymentMode.visit,),
}
NO_CARD_GATEWAY = (
    "Card at booking needs the card gateway (PAYMENT_GATEWAY=stripe), which this server does not have: "
    "patients would have no way to pay. Choose pay at visit, or both."
)


def card_configured() -> bool:
    return get_settings().payment_gateway == PaymentMode.card.value


def usable_choice(value: object) -> None:
    """Refuse a choice that would leave patients no usable payment mode (ValidationFailed)."""
    if value == "card" and not card_configured():
        raise ValidationFailed(NO_CARD_GATEWAY)


def modes_of(value: object) -> tuple[PaymentMode, ...]:
    """The usable modes a stored value allows, card first (the recommended one); never none."""
    allowed = CHOICES.get(str(value), CHOICES["both"])
    usable = tuple(mode for mode in allowed if mode is not PaymentMode.card or card_configured())
    return usable or (PaymentMode.visit,)


async def allowed_payment_modes(*, session: AsyncSession) -> tuple[PaymentMode, ...]:
    """The payment modes a patient may choose now, the recommended first."""
    stored = await session.scalar(select(FeatureSetting.value).where(FeatureSetting.key == KEY))
    return modes_of("both" if stored is None else stored)
