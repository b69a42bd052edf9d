"""How the patient pays an order (issue 29, items 1 and 3): the payment modes the owners allow (business
setting "Payment modes at checkout", app/services/features) that work on this server, and the wallet credit
the patient may apply.

`get_checkout_money` is what checkout offers; `choose_payment` is what `place_order` enforces, in the order's
unit of work: a mode the setting does not allow (or the server cannot take: card without the card gateway)
is refused with a clear message, whatever the screen sent; applied credit is read with its balance locked (a
second checkout of the same patient waits, then sees what is left), at most the order's total, and an order
it covers in full is placed with the wallet-credit gateway: no card, nothing due at the visit.

Credit that covers part of a card order: the card pays the rest (the Checkout Session's lines are the order's
less the credit, app/services/payments `_checkout_lines`). Stripe charges at least CARD_MINIMUM cents, so the
credit applied leaves the card at least that much (`credit_to_apply`: what checkout shows is what is spent).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.features.internal import allowed_payment_modes
from app.services.ledger import dollars
from app.services.ledger.internal import credit_available, wallet_credit
from app.services.payments import GATEWAYS, PaymentGateway
from app.services.shared.signed_in import require_account
from models.checkout_credit import CheckoutMoneyRead, PaymentMode, PaymentModeRead

MODE_NOT_ALLOWED = "{mode} is not offered here. Choose {allowed}."
UNKNOWN_MODE = "Choose how you will pay: {allowed}."
WALLET = "wallet_credit"  # the gateway of an order paid in full with credit (app/services/payments `_wallet`)
CARD_MINIMUM = 50  # cents: the least a Stripe Checkout Session in US dollars may charge
LABELS = {PaymentMode.card: "Pay by card", PaymentMode.visit: "Pay at the visit"}
DESCRIPTIONS = {
    PaymentMode.card: "You pay on Stripe's secure page after Place order; your card number never reaches us.",
    PaymentMode.visit: "Nothing is charged now: you pay the provider at the visit.",
}


def _mode_read(mode: PaymentMode, recommended: bool) -> PaymentModeRead:
    return PaymentModeRead(
        mode=mode, label=LABELS[mode], description=DESCRIPTIONS[mode], recommended=recommended
    )


async def get_checkout_money(*, session: AsyncSession, actor: Principal) -> CheckoutMoneyRead:
    """The payment modes checkout offers the signed-in patient (the recommended first: card, when it is
    allowed and works here) and their wallet credit."""
    account = await require_account(session=session, actor=actor)
    modes = await allowed_payment_modes(session=session)
    both = len(modes) > 1
    return CheckoutMoneyRead(
        modes=[_mode_read(mode, both and mode is PaymentMode.card) for mode in modes],
        credit=dollars(await credit_available(session, account.id)),
    )


def credit_to_apply(credit: int, total: int, *, by_card: bool) -> int:
    """Cents of `credit` an order of `total` cents takes: all of it up to the total; paid by card with some
    left to pay, at most what leaves the card CARD_MINIMUM (0 when the total is under that)."""
    applied = max(min(credit, total), 0)
    if by_card and applied < total:
        applied = min(applied, max(total - CARD_MINIMUM, 0))
    return applied


@dataclass(frozen=True)
class PaymentChoice:
    """How an order is paid: its gateway, and the cents of its total paid from wallet credit."""

    gateway: PaymentGateway
    credit: int


async def choose_payment(
    *, session: AsyncSession, patient_id: str, mode: str, use_credit: bool, total: int
) -> PaymentChoice:
    """The gateway of an order of `total` cents paid in `mode` ("" for the recommended one), and the credit
    applied when `use_credit`; ValidationFailed for a mode that is not allowed."""
    allowed = await allowed_payment_modes(session=session)
    names = " or ".join(LABELS[m].lower() for m in allowed)
    if not mode:
        chosen = allowed[0]
    else:
        try:
            chosen = PaymentMode(mode[:32])
        except ValueError:
            raise ValidationFailed(UNKNOWN_MODE.format(allowed=names)) from None
        if chosen not in allowed:
            raise ValidationFailed(MODE_NOT_ALLOWED.format(mode=LABELS[chosen], allowed=names))
    credit = 0
    if use_credit and total > 0:
        by_card = chosen is PaymentMode.card
        credit = credit_to_apply(await wallet_credit(session, patient_id), total, by_card=by_card)
    if credit and credit == total:
        return PaymentChoice(gateway=GATEWAYS[WALLET](), credit=credit)
    return PaymentChoice(gateway=GATEWAYS[chosen.value](), credit=credit)
