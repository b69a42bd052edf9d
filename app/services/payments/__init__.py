"""Card payments (issue 14, PAYMENT_GATEWAY=stripe): the `StripeCard` gateway booking places orders through
(`_stripe`: Stripe Checkout, a Stripe Customer per patient), Stripe's webhook that confirms or fails each
order's payment once (`_webhook`), a periodic check of payments whose webhook never came (`_reconcile`), the
patient's cards on file (`_cards`), what screens need to know of the configured gateway (`_options`),
and Stripe Connect for provider payouts (`_connect`; its webhook events: `_connect_webhook`). Pay at visit,
the embedded default, needs none of it.

Its public surface: the names below (`__all__`).
"""

from app.services.payments._cards import list_my_cards, remove_my_card
from app.services.payments._connect import get_my_payout_account, start_payout_onboarding
from app.services.payments._gateways import GATEWAYS, PayAtVisit, PaymentGateway, gateway_of, get_gateway
from app.services.payments._options import get_payment_options
from app.services.payments._store_payments import start_store_payment
from app.services.payments._webhook import (
    MAX_EVENT_BYTES,
    EventTooLarge,
    WebhookOutcome,
    WebhookRejected,
    handle_stripe_webhook,
    order_topic,
)

__all__ = [
    "EventTooLarge",
    "GATEWAYS",
    "MAX_EVENT_BYTES",
    "PayAtVisit",
    "PaymentGateway",
    "WebhookOutcome",
    "WebhookRejected",
    "gateway_of",
    "get_gateway",
    "get_my_payout_account",
    "get_payment_options",
    "handle_stripe_webhook",
    "list_my_cards",
    "order_topic",
    "remove_my_card",
    "start_payout_onboarding",
    "start_store_payment",
]
