"""What a card order says while its payment is pending or once it failed (components/order_ui.py), and the
checkout's hand-over to Stripe's payment page (pages/checkout.py): never "booked" or "requested" before
Stripe confirms, never "paid at the visit" for a card."""

from __future__ import annotations

from components.order_ui import AWAITING_PAYMENT, PAYMENT_FAILED, REQUESTED, confirmation_copy, total_label
from models.booking import AppointmentStatus, OrderRead
from pages import checkout
from tests import factories
from tests.ui.harness import attrs, find, find_all, text


def _order(payment_status: str, payment_url: str = "") -> OrderRead:
    return factories.order_read(
        [factories.appointment_read(AppointmentStatus.pending)],
        payment_method="stripe" if payment_status else "pay_at_visit",
        payment_status=payment_status,
        payment_url=payment_url,
    )


def test_a_card_order_waiting_for_stripe_asks_for_the_payment() -> None:
    eyebrow, heading, lead = confirmation_copy(_order("awaiting", "https://checkout.stripe.com/c/pay/cs_1"))
    assert (eyebrow, heading) == (AWAITING_PAYMENT, "Complete your payment")
    assert "requested" not in lead.lower() and "booked" not in lead.lower()
    assert total_label(_order("awaiting")) == "Total, to pay by card"


def test_a_failed_card_payment_says_nothing_was_charged_and_the_visits_were_released() -> None:
    eyebrow, heading, lead = confirmation_copy(_order("failed"))
    assert (eyebrow, heading) == (PAYMENT_FAILED, "Your payment did not go through")
    assert "Nothing was charged" in lead and "released" in lead
    assert total_label(_order("failed")) == "Total (nothing was charged)"


def test_a_paid_card_order_reads_like_any_requested_order_paid_by_card() -> None:
    assert confirmation_copy(_order("paid"))[0] == REQUESTED
    assert total_label(_order("paid")) == "Total, paid by card"
    assert total_label(_order("")) == "Total, paid at the visit"


def test_checkout_hands_the_browser_to_stripes_page() -> None:
    url = "https://checkout.stripe.com/c/pay/cs_test_1"
    shown = checkout._to_payment(url)
    assert "Taking you to Stripe's secure page" in text(shown)
    followed = [a for a in find_all(shown, "a") if "data-navigate-after" in attrs(a)]
    assert [attrs(a)["href"] for a in followed] == [url]
    assert "data-native" in attrs(followed[0])  # a full page load, not the in-app router
    assert attrs(find(shown, "a", text="Continue to payment"))["href"] == url
