"""Who hears which domain event: every subscription of the domains that act on another's events, wired once
at start-up (`create_app`, the CLI, the tests' setup). The publishing domains import only app/events.py and
app/services/domain_events.py, never their subscribers, so the domains do not import each other for it."""

from __future__ import annotations

from app import events
from app.services import appointments, automation, ledger, notifications, service_requests
from app.services.domain_events import (
    AppointmentCancelled,
    AppointmentCompleted,
    AppointmentConfirmed,
    AppointmentReassigned,
    AppointmentRescheduled,
    OrderPlaced,
    PaymentCaptured,
    PaymentCollected,
    PaymentFailed,
    RefundIssued,
    WalletCreditGranted,
)


def wire_subscribers() -> None:
    """Subscribe every handler (wiring twice is wiring once)."""
    # In the command's transaction: the money, what must change with it, the open screens' topics.
    events.subscribe_event(OrderPlaced, ledger.post_booked_order)
    events.subscribe_event(PaymentCaptured, ledger.post_booked_order)
    events.subscribe_event(AppointmentCompleted, ledger.settle_visit_completed)
    events.subscribe_event(AppointmentReassigned, ledger.follow_reassigned_visit)
    events.subscribe_event(PaymentCaptured, appointments.refresh_order_screens)
    events.subscribe_event(PaymentFailed, service_requests.reopen_requests_of_failed_payment)
    events.subscribe_event(PaymentFailed, appointments.refresh_order_screens)
    # In the ledger's transaction: automation's outbox (the job delivers the webhooks later).
    events.subscribe_event(PaymentCollected, automation.queue_payment_succeeded)
    events.subscribe_event(RefundIssued, automation.queue_payment_refunded)
    # After the commit: what people are told.
    events.subscribe_event(OrderPlaced, appointments.announce_placed_order, after_commit=True)
    events.subscribe_event(PaymentCaptured, appointments.announce_paid_order, after_commit=True)
    events.subscribe_event(PaymentFailed, notifications.tell_payment_failed, after_commit=True)
    events.subscribe_event(PaymentFailed, appointments.tell_providers_of_released_visits, after_commit=True)
    events.subscribe_event(AppointmentConfirmed, appointments.tell_confirmed, after_commit=True)
    events.subscribe_event(AppointmentRescheduled, appointments.tell_rescheduled, after_commit=True)
    events.subscribe_event(AppointmentReassigned, appointments.tell_reassigned, after_commit=True)
    events.subscribe_event(AppointmentCancelled, appointments.tell_cancelled, after_commit=True)
    events.subscribe_event(AppointmentCompleted, appointments.ask_for_review, after_commit=True)
    events.subscribe_event(RefundIssued, notifications.tell_refund_credited, after_commit=True)
    events.subscribe_event(WalletCreditGranted, notifications.tell_credit_granted, after_commit=True)
