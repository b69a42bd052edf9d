"""Who hears which domain event: every subscription of the domains that act on another's events, wired once
at start-up (`create_app`, the CLI, the tests' setup). The publishing domains import only app/events.py and
app/services/domain_events.py, never their subscribers, so the domains do not import each other for it."""

from __future__ import annotations

from app import events
from app.services.ads import internal as ads_internal
from app.services.appointments import internal as appointments_internal
from app.services.automation import internal as automation_internal
from app.services.cart import internal as cart_internal
from app.services.domain_events import (
    AdFlightDecided,
    AdPaymentSettled,
    ApplicationDecided,
    ApplicationStatusChanged,
    ApplicationSubmitted,
    AppointmentCancelled,
    AppointmentCompleted,
    AppointmentConfirmed,
    AppointmentReassigned,
    AppointmentRescheduled,
    CardRefundFailed,
    CareerApplicationReceived,
    CheckedOut,
    ConnectedPayoutSettled,
    CorporateEventDayBooked,
    CorporateLeadAssigned,
    CorporateLeadReceived,
    CredentialsExpiring,
    CredentialsLapsed,
    DisputeOpened,
    DisputeResolved,
    ForumAnswerAccepted,
    ForumPostModerated,
    ForumReplyPublished,
    IdleDraftsNudged,
    InvoiceSent,
    LatePaymentRefunded,
    OrderPlaced,
    PaymentCaptured,
    PaymentCollected,
    PaymentFailed,
    PayoutStatusChanged,
    ProviderReinstated,
    ProviderSuspended,
    RefundIssued,
    ServiceRequestCancelled,
    ServiceRequestOfferAccepted,
    ServiceRequestOffered,
    ServiceRequestsExpired,
    ServiceRequestsReleased,
    StaffAccessChanged,
    StoreOrderProgressed,
    StoreOrderRefunded,
    StorePaymentCaptured,
    StorePaymentFailed,
    TicketAssigned,
    TicketRedFlagged,
    TicketReplied,
    TicketsOverdue,
    WaitlistApproved,
    WalletCreditGranted,
)
from app.services.ledger import internal as ledger_internal
from app.services.notifications import internal as notifications_internal
from app.services.service_requests import internal as service_requests_internal
from app.services.store import internal as store_internal


def wire_subscribers() -> None:
    """Subscribe every handler (wiring twice is wiring once)."""
    # In the command's transaction: the money, what must change with it, the open screens' topics.
    events.subscribe_event(OrderPlaced, ledger_internal.post_booked_order)
    events.subscribe_event(CheckedOut, cart_internal.empty_checked_out)
    events.subscribe_event(PaymentCaptured, ledger_internal.post_booked_order)
    events.subscribe_event(AppointmentCompleted, ledger_internal.settle_visit_completed)
    events.subscribe_event(AppointmentReassigned, ledger_internal.follow_reassigned_visit)
    events.subscribe_event(ConnectedPayoutSettled, ledger_internal.settle_connected_payout)
    events.subscribe_event(CardRefundFailed, ledger_internal.credit_failed_card_refund)
    events.subscribe_event(PaymentCaptured, appointments_internal.refresh_order_screens)
    events.subscribe_event(PaymentFailed, service_requests_internal.reopen_requests_of_failed_payment)
    events.subscribe_event(PaymentFailed, appointments_internal.refresh_order_screens)
    events.subscribe_event(PaymentFailed, ledger_internal.return_order_credit)
    # One checkout (issue 29 item 4): a store order paid by card, on its own or with the visits' payment.
    events.subscribe_event(PaymentCaptured, store_internal.settle_linked_store_order)
    events.subscribe_event(PaymentFailed, store_internal.release_linked_store_order)
    events.subscribe_event(StorePaymentCaptured, store_internal.settle_store_payment)
    events.subscribe_event(StorePaymentFailed, store_internal.release_store_order)
    # Ads paid by card (issue 29 item 5): the flight starts and the ledger books its prepaid budget.
    events.subscribe_event(AdPaymentSettled, ads_internal.settle_ad_payment)
    # In the ledger's or the payments webhook's transaction: automation's outbox (the job delivers later).
    events.subscribe_event(PaymentCollected, automation_internal.queue_payment_succeeded)
    events.subscribe_event(RefundIssued, automation_internal.queue_payment_refunded)
    events.subscribe_event(PaymentCaptured, automation_internal.queue_card_payment_succeeded)
    events.subscribe_event(PaymentFailed, automation_internal.queue_card_payment_failed)
    events.subscribe_event(LatePaymentRefunded, automation_internal.queue_late_payment_refunded)
    events.subscribe_event(StorePaymentCaptured, automation_internal.queue_store_payment_succeeded)
    events.subscribe_event(StorePaymentFailed, automation_internal.queue_store_payment_failed)
    events.subscribe_event(StoreOrderRefunded, automation_internal.queue_store_order_refunded)
    events.subscribe_event(AdPaymentSettled, automation_internal.queue_ad_payment_settled)
    # In the job's or the command's transaction: notices a batch claimed (a notice never lost after its
    # claim committed: a failure rolls the claim back for the next run), and the help desk's safety alerts.
    tell = notifications_internal
    events.subscribe_event(ServiceRequestsExpired, tell.tell_requests_expired)
    events.subscribe_event(ServiceRequestsReleased, tell.tell_requests_released)
    events.subscribe_event(TicketsOverdue, tell.tell_tickets_overdue)
    events.subscribe_event(IdleDraftsNudged, tell.tell_idle_drafts)
    events.subscribe_event(CredentialsExpiring, tell.tell_credentials_expiring)
    events.subscribe_event(CredentialsLapsed, tell.tell_credentials_lapsed)
    events.subscribe_event(TicketRedFlagged, tell.tell_red_flag)
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
    events.subscribe_event(CardRefundFailed, tell.tell_card_refund_failed, after_commit=True)
    events.subscribe_event(StoreOrderRefunded, tell.tell_store_order_refunded, after_commit=True)
    events.subscribe_event(WalletCreditGranted, notifications_internal.tell_credit_granted, after_commit=True)
    events.subscribe_event(DisputeOpened, tell.tell_dispute_opened, after_commit=True)
    events.subscribe_event(DisputeResolved, tell.tell_dispute_resolved, after_commit=True)
    # After the commit (before the command's unit of work is left: the notice is there when it returns).
    events.subscribe_event(ServiceRequestOffered, tell.tell_offer_received, after_commit=True)
    events.subscribe_event(ServiceRequestCancelled, tell.tell_request_cancelled, after_commit=True)
    events.subscribe_event(ServiceRequestOfferAccepted, tell.tell_offer_accepted, after_commit=True)
    events.subscribe_event(InvoiceSent, tell.tell_invoice_sent, after_commit=True)
    events.subscribe_event(CorporateLeadReceived, tell.tell_lead_received, after_commit=True)
    events.subscribe_event(CorporateLeadAssigned, tell.tell_lead_assigned, after_commit=True)
    events.subscribe_event(CorporateEventDayBooked, tell.tell_event_day_booked, after_commit=True)
    events.subscribe_event(ForumReplyPublished, tell.tell_watchers_of_reply, after_commit=True)
    events.subscribe_event(ForumPostModerated, tell.tell_post_moderated, after_commit=True)
    events.subscribe_event(ForumAnswerAccepted, tell.tell_answer_accepted, after_commit=True)
    events.subscribe_event(PayoutStatusChanged, tell.tell_payout_status, after_commit=True)
    events.subscribe_event(StaffAccessChanged, tell.tell_staff_access_changed, after_commit=True)
    events.subscribe_event(CareerApplicationReceived, tell.tell_career_application, after_commit=True)
    events.subscribe_event(TicketReplied, tell.tell_ticket_replied, after_commit=True)
    events.subscribe_event(TicketAssigned, tell.tell_ticket_assigned, after_commit=True)
    events.subscribe_event(StoreOrderProgressed, tell.tell_store_order, after_commit=True)
    events.subscribe_event(WaitlistApproved, tell.tell_waitlist_approved, after_commit=True)
    events.subscribe_event(AdFlightDecided, tell.tell_ad_flight_decided, after_commit=True)
    events.subscribe_event(ApplicationStatusChanged, tell.tell_application_status, after_commit=True)
    events.subscribe_event(ApplicationSubmitted, tell.tell_reviewers, after_commit=True)
    events.subscribe_event(ApplicationDecided, tell.tell_applicant_of_decision, after_commit=True)
    events.subscribe_event(ProviderSuspended, tell.tell_provider_suspended, after_commit=True)
    events.subscribe_event(ProviderReinstated, tell.tell_provider_reinstated, after_commit=True)
