"""Card payments (issue 14, PAYMENT_GATEWAY=stripe): the `StripeCard` gateway booking places orders through
(`_stripe`: Stripe Checkout, a Stripe Customer per patient), Stripe's webhook that confirms or fails each
order's payment once (`_webhook`), a periodic check of payments whose webhook never came (`_reconcile`), the
patient's cards on file (`_cards`) and what screens need to know of
the configured gateway (`_options`). Pay at visit, the embedded default, needs none of it.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_cards": ("list_my_cards", "remove_my_card"),
    "_gateways": ("GATEWAYS", "PayAtVisit", "PaymentGateway", "gateway_of", "get_gateway"),
    "_options": ("get_payment_options",),
    "_reconcile": ("reconcile_card_payments",),
    "_webhook": (
        "MAX_EVENT_BYTES",
        "EventTooLarge",
        "WebhookOutcome",
        "WebhookRejected",
        "handle_stripe_webhook",
        "order_topic",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
