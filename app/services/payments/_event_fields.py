"""What the card-payment webhooks read from a Stripe event's object, the same for a visit order's payment
(`_webhook`), a store order's (`_store_payments`) and an ad flight's (`_ad_payments`): its metadata, the
PaymentIntent it names, and whether what it says was paid matches what this site asked for."""

from __future__ import annotations

from typing import Any, Protocol

PAID_EVENTS = frozenset(
    {"checkout.session.completed", "checkout.session.async_payment_succeeded", "payment_intent.succeeded"}
)
EXPIRED_REASON = "The payment page expired before the payment was made."
DECLINED_REASON = "The card payment was declined."


class AskedPayment(Protocol):
    """A card payment row as this site asked Stripe for it."""

    payment_intent_id: str | None
    amount: int
    currency: str


def metadata_of(obj: dict[str, Any]) -> dict[str, Any]:
    found = obj.get("metadata")
    return found if isinstance(found, dict) else {}


def intent_of(kind: str, obj: dict[str, Any]) -> str | None:
    """The PaymentIntent an event's object is, or names (a Checkout Session's, expanded or not)."""
    if kind.startswith("payment_intent."):
        return str(obj.get("id") or "")[:255] or None
    intent = obj.get("payment_intent")
    if isinstance(intent, dict):
        intent = intent.get("id")
    return str(intent)[:255] if intent else None


def failure_reason(kind: str, obj: dict[str, Any]) -> str:
    """Why a payment failed, as its payer may read it: the page expired, or Stripe's decline message."""
    if kind == "checkout.session.expired":
        return EXPIRED_REASON
    error = obj.get("last_payment_error")
    message = error.get("message") if isinstance(error, dict) else None
    return str(message or DECLINED_REASON)[:200]


def payment_mismatch(
    payment: AskedPayment, *, intent: str | None, amount: object = None, currency: object = None, paid: bool
) -> dict[str, Any]:
    """What in Stripe's answer about `payment` differs from what this site asked for, as {field: {expected,
    got}} (empty when it matches): the PaymentIntent, once one is recorded; for a "paid" answer also the
    amount (in cents: what was asked, e.g. an order's total less wallet credit spent on it) and the
    currency. The Checkout Session's id is matched by the callers (they found the payment by it, or asked
    Stripe for it)."""
    found: dict[str, Any] = {}
    if intent and payment.payment_intent_id and intent != payment.payment_intent_id:
        found["payment_intent"] = {"expected": payment.payment_intent_id, "got": intent}
    if paid:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount != payment.amount:
            found["amount_cents"] = {"expected": payment.amount, "got": amount}
        if not isinstance(currency, str) or currency.lower() != payment.currency.lower():
            found["currency"] = {"expected": payment.currency, "got": currency}
    return found


def event_mismatch(
    kind: str, obj: dict[str, Any], payment: AskedPayment, intent: str | None
) -> dict[str, Any]:
    """`payment_mismatch` of one event: a Checkout Session's amount_total, a PaymentIntent's
    amount_received."""
    amount = obj.get("amount_received" if kind.startswith("payment_intent.") else "amount_total")
    return payment_mismatch(
        payment, intent=intent, amount=amount, currency=obj.get("currency"), paid=kind in PAID_EVENTS
    )
