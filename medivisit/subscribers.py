"""Who hears which domain event: every subscription of the domains that act on another's events, wired once
at start-up (`create_app`, the CLI, the tests' setup). The publishing domains import only app/events.py and
app/services/domain_events.py, never their subscribers, so the domains do not import each other for it."""

from __future__ import annotations

from app import events
from app.services.appointments import internal as appointments_internal
from app.services.automation import internal as automation_internal
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
from app.services.ledger import internal as ledger_internal
from app.services.notifications import internal as notifications_internal
from app.services.service_requests import internal as service_requests_internal


def wire_subscribers() -> None:
    """Subscribe every handler (wiring twice is wiring once)."""
    # In the command's transaction: the money, what must change with it, the open screens' topics.
    events.subscribe_event(OrderPlaced, ledger_internal.post_booked_order)
    events.subscribe_event(PaymentCaptured, ledger_internal.post_booked_order)
    events.subscribe_event(AppointmentCompleted, ledger_internal.settle_visit_completed)
    events.subscribe_event(AppointmentReassigned, ledger_internal.follow_reassigned_visit)
    events.subscribe_event(PaymentCaptured, appointments_internal.refresh_order_screens)
    events.subscribe_event(PaymentFailed, service_requests_internal.reopen_requests_of_failed_payment)
    events.subscribe_event(PaymentFailed, appointments_internal.refresh_order_screens)
    # In the ledger's transaction: automation's outbox (the job delivers the webhooks later).
    events.subscribe_event(PaymentCollected, automation_internal.queue_payment_succeeded)
    events.subscribe_event(RefundIssued, automation_internal.queue_payment_refunded)
    # After the commit: what people are told.
    events.subscribe_event(OrderPlaced, appointments_internal.announce_placed_order, after_commit=True)
    events.subscribe_event(PaymentCaptured, appointments_internal.announce_paid_order, after_commit=True)
    events.subscribe_event(PaymentFailed, notifications_internal.tell_payment_failed, after_commit=True)
    events.subscribe_event(
        PaymentFailed, appointments_internal.tell_providers_of_released_visits, after_commit=True
    )
    events.subscribe_event(AppointmentConfirmed, appointments_internal.tell_confirmed, after_commit=True)
    events.subscribe_event(AppointmentRescheduled, appointments_internal.tell_rescheduled, after_commit=True)
    events.subscribe_event(AppointmentReassigned, appointments_internal.tell_reassigned, after_commit=True)
    events.subscribe_event(AppointmentCancelled, appointments_internal.tell_cancelled, after_commit=True)
    events.subscribe_event(AppointmentCompleted, appointments_internal.ask_for_review, after_commit=True)
    events.subscribe_event(RefundIssued, notifications_internal.tell_refund_credited, after_commit=True)
    events.subscribe_event(WalletCreditGranted, notifications_internal.tell_credit_granted, after_commit=True)
