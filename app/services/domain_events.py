"""The typed domain events: what happened in a domain, for other domains to act on (app/events.py
publishes them; medivisit/subscribers.py says who listens).

Each is a frozen dataclass named by what happened. It carries ids and the few values its subscribers need
(amounts, times, the names and numbers a notice shows), never private text beyond what the notice it
causes already carries: a subscriber reads anything more through the services.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

MissedDue = Literal["first-response", "resolution"]  # the due time a help-desk ticket missed


@dataclass(frozen=True)
class BookedVisit:
    """One visit of an order, as the ledger records it: whose time it is, its price (what the patient pays)
    and its original price before a sale (None: the ledger reads it from the visit)."""

    appointment_id: str
    provider_id: str
    price: Decimal
    original: Decimal | None = None


@dataclass(frozen=True)
class OrderPlaced:
    """A patient booked an order whose money is settled at once: paid at the visit, or collected at
    checkout by a gateway that needs no confirmation (`paid_ahead`). An order that awaits a card payment is
    not placed in this sense until `PaymentCaptured`."""

    order_id: str
    patient_id: str
    visits: tuple[BookedVisit, ...]
    fee: Decimal
    paid_ahead: bool
    at: datetime


@dataclass(frozen=True)
class CheckedOut:
    """A patient placed an order from their cart: the booked visits' cart items (one id per visit booked, so an
    item booked twice is listed twice) and the ordered products leave the cart of the account and of the
    visitor who was signed out when they chose them (`visitor_id`)."""

    user_id: str
    visitor_id: str | None
    cart_item_ids: tuple[str, ...]
    product_ids: tuple[str, ...]


@dataclass(frozen=True)
class PaymentCaptured:
    """The card payment of an order awaiting payment came in (the processor's webhook, or the
    reconciliation job): its visits are booked and paid ahead."""

    order_id: str
    patient_id: str
    visits: tuple[BookedVisit, ...]
    fee: Decimal
    at: datetime


@dataclass(frozen=True)
class PaymentFailed:
    """The card payment of an order awaiting payment failed or expired: the order is cancelled and its
    visits released (`visit_ids`, with `provider_ids`). `confirmed_visit_ids`: those whose provider had
    already accepted them."""

    order_id: str
    order_number: str
    patient_id: str
    visit_ids: tuple[str, ...]
    provider_ids: tuple[str, ...]
    confirmed_visit_ids: tuple[str, ...]
    at: datetime


@dataclass(frozen=True)
class AppointmentConfirmed:
    """The provider (or staff) confirmed a pending visit."""

    appointment_id: str
    at: datetime


@dataclass(frozen=True)
class AppointmentRescheduled:
    """A visit moved to another time of the same provider, by `by` ("patient", or "staff" on the patient's
    behalf); it awaits the provider again."""

    appointment_id: str
    by: str
    at: datetime


@dataclass(frozen=True)
class AppointmentReassigned:
    """Staff gave a visit to another provider; it awaits the new provider's confirmation."""

    appointment_id: str
    from_provider_id: str
    to_provider_id: str
    at: datetime


@dataclass(frozen=True)
class AppointmentCancelled:
    """A visit was cancelled by `by` ("patient", "provider" or "staff"); its money is already settled."""

    appointment_id: str
    by: str
    at: datetime


@dataclass(frozen=True)
class AppointmentCompleted:
    """The provider completed a visit in progress: its money settles."""

    appointment_id: str
    at: datetime


@dataclass(frozen=True)
class VisitMoney:
    """Money of one visit that moved (in cents): what `PaymentCollected` and `RefundIssued` carry."""

    appointment_id: str
    order_id: str
    patient_id: str
    provider_id: str
    amount_cents: int
    at: datetime


@dataclass(frozen=True)
class PaymentCollected(VisitMoney):
    """A completed visit's money was collected (its price and its share of the order's fee)."""


@dataclass(frozen=True)
class RefundIssued(VisitMoney):
    """Money paid for a visit went back to the patient as wallet credit (a cancellation, or staff), or to the
    card it was paid with (`to_card`: staff, or a dispute resolved with a refund)."""

    to_card: bool = False


@dataclass(frozen=True)
class WalletCreditGranted:
    """Staff granted the patient wallet credit that refunds no visit (goodwill)."""

    patient_id: str
    amount_cents: int
    at: datetime


# ---- what people are told: the notifications domain words and sends each (medivisit/subscribers.py) ----
@dataclass(frozen=True)
class ServiceRequestOffered:
    """A provider sent an offer on a patient's service request."""

    request_id: str
    offer_id: str
    patient_id: str
    at: datetime


@dataclass(frozen=True)
class ServiceRequestCancelled:
    """The patient withdrew a live request; the pending offers of `declined_user_ids`' providers closed."""

    request_id: str
    declined_user_ids: tuple[str, ...]
    at: datetime


@dataclass(frozen=True)
class ServiceRequestOfferAccepted:
    """The patient accepted one offer (its visit is booked); the other pending offers were declined."""

    request_id: str
    offer_id: str
    provider_user_id: str | None
    declined_user_ids: tuple[str, ...]
    at: datetime


@dataclass(frozen=True)
class ServiceRequestsExpired:
    """The expiry job closed live requests whose time had passed (`patient_ids`: whose they were)."""

    request_ids: tuple[str, ...]
    patient_ids: tuple[str, ...]
    at: datetime


@dataclass(frozen=True)
class ReleasedRequest:
    """A booked request whose visit was released unpaid: open again (`reopened`), or closed as expired."""

    request_id: str
    patient_id: str
    provider_user_id: str | None
    reopened: bool


@dataclass(frozen=True)
class ServiceRequestsReleased:
    """Booked requests lost their visit to a failed or expired payment."""

    requests: tuple[ReleasedRequest, ...]
    at: datetime


@dataclass(frozen=True)
class InvoiceSent:
    """Staff e-mailed an invoice to a patient: its number, total and due date (what the notice names)."""

    invoice_id: str
    number: str
    patient_id: str
    total_cents: int
    due_on: date
    at: datetime


@dataclass(frozen=True)
class CorporateLeadReceived:
    """A company sent a corporate enquiry (the desk hears its company name and size)."""

    lead_id: str
    company: str
    headcount: int
    site_count: int


@dataclass(frozen=True)
class CorporateLeadAssigned:
    """Staff (`by_name`) assigned a corporate lead to another member."""

    lead_id: str
    assignee_id: str
    company: str
    status: str
    by_name: str


@dataclass(frozen=True)
class CorporateEventDayBooked:
    """Staff booked an on-site event day of a contract: its providers' visits await their confirmation."""

    event_day_id: str
    provider_user_ids: tuple[str | None, ...]
    service_name: str
    address_line: str
    zip_code: str
    local_day: date


@dataclass(frozen=True)
class ForumReplyPublished:
    """A reply in a forum topic was published for the first time (`watcher_ids`: who watches the topic,
    never its author)."""

    topic_id: str
    topic_slug: str
    post_id: str
    watcher_ids: tuple[str, ...]


@dataclass(frozen=True)
class ForumPostModerated:
    """A moderator hid a post, or rejected it (`hidden` False), with a reason its author is shown."""

    topic_id: str
    topic_slug: str
    post_id: str
    author_id: str
    hidden: bool
    reason: str


@dataclass(frozen=True)
class ForumAnswerAccepted:
    """A topic's author accepted someone else's reply as the answer."""

    topic_id: str
    topic_slug: str
    post_id: str
    author_id: str


@dataclass(frozen=True)
class PayoutStatusChanged:
    """A provider's payout request was received or moved on (`status`: a PayoutStatus value)."""

    payout_id: str
    provider_user_id: str | None
    status: str
    amount: Decimal
    at: datetime


@dataclass(frozen=True)
class ConnectedPayoutSettled:
    """Stripe said how a payout sent by transfer to a provider's connected account ended (`transfer.reversed`,
    or the connected account's `payout.paid` / `payout.failed`): `outcome` paid or failed. The payout is
    named by the transfer's id or the payout id in its metadata when Stripe gives them, else it is the
    provider's payout in transit."""

    provider_id: str
    account_id: str
    outcome: Literal["paid", "failed"]
    reason: str
    transfer_id: str | None
    payout_id: str | None
    event_id: str
    at: datetime


@dataclass(frozen=True)
class StaffAccessChanged:
    """A manager changed a confirmed member's staff access, or removed it (`removed`)."""

    user_id: str
    removed: bool


@dataclass(frozen=True)
class CareerApplicationReceived:
    """Someone applied for a job posting (HR hears the posting's title)."""

    application_id: str
    posting_slug: str
    posting_title: str


@dataclass(frozen=True)
class TicketRedFlagged:
    """What a customer wrote on a ticket has a red flag (`level`: "emergency" or "crisis"); `written_by`
    is who wrote it."""

    ticket_id: str
    number: int
    level: str
    assignee_id: str | None
    written_by: str


@dataclass(frozen=True)
class TicketBreach:
    """A ticket that missed a due time (`breach`)."""

    ticket_id: str
    number: int
    breach: MissedDue
    assignee_id: str | None


@dataclass(frozen=True)
class TicketsOverdue:
    """The overdue job claimed breaches not announced yet."""

    breaches: tuple[TicketBreach, ...]
    at: datetime


@dataclass(frozen=True)
class TicketReplied:
    """Support replied to a customer on their ticket (not an internal note)."""

    ticket_id: str
    number: int
    customer_id: str


@dataclass(frozen=True)
class TicketAssigned:
    """A ticket was assigned to a member other than the one who assigned it."""

    ticket_id: str
    number: int
    assignee_id: str


@dataclass(frozen=True)
class StoreOrderProgressed:
    """A store order was placed, or moved to its next fulfilment step (`step`: a FulfilmentStatus value)."""

    order_id: str
    number: str
    patient_id: str
    step: str
    carrier: str
    tracking_number: str
    at: datetime


@dataclass(frozen=True)
class StoreOrderRefunded:
    """A paid store order was refunded in part or in full: to the card it was paid with, or as wallet credit."""

    store_order_id: str
    number: str
    patient_id: str
    amount_cents: int
    to_card: bool
    at: datetime
    with_step: bool = False  # the order's return or cancellation: the patient hears of it with that step


@dataclass(frozen=True)
class WaitlistApproved:
    """An admin approved a waitlist entry: its person (`user_id`, invited or already joined) may come in."""

    entry_id: str
    user_id: str


@dataclass(frozen=True)
class AdFlightDecided:
    """Staff approved, rejected, paused or ended an ad flight (`status`), with the reason its advertiser is
    shown."""

    flight_id: str
    advertiser_id: str
    name: str
    status: str
    reason: str


@dataclass(frozen=True)
class ApplicationStatusChanged:
    """A provider application moved to `status` (an ApplicationStatus value); its applicant is told."""

    application_id: str
    user_id: str
    status: str
    at: datetime


@dataclass(frozen=True)
class ApplicationSubmitted:
    """A provider application reached the verification queue, first sent or sent again (`resubmitted`)."""

    application_id: str
    resubmitted: bool
    at: datetime


@dataclass(frozen=True)
class DecisionPoint:
    """One reason of a review decision, as the applicant's e-mail lists it (catalogue words)."""

    label: str
    advice: str


@dataclass(frozen=True)
class ApplicationDecided:
    """A reviewer decided on an application or one of its documents (`decision`: "in_review", an
    ApplicationStatus value, or "document_rejected"), with the reasons, the reviewer's message and the
    date the applicant may apply again, which the applicant's e-mail carries."""

    application_id: str
    user_id: str
    decision: str
    reasons: tuple[DecisionPoint, ...]
    message: str
    reapply_after: datetime | None
    at: datetime


@dataclass(frozen=True)
class IdleDraft:
    """A draft application left unchanged, at wizard step `step`."""

    application_id: str
    user_id: str
    step: int


@dataclass(frozen=True)
class IdleDraftsNudged:
    """The nudge job claimed idle drafts (their timelines say so); their applicants are reminded."""

    drafts: tuple[IdleDraft, ...]
    at: datetime


@dataclass(frozen=True)
class ExpiringCredential:
    """A licence or approved credential document (`label`) of a provider with an account, expiring soon."""

    provider_id: str
    user_id: str
    label: str
    expires_on: date
    days_left: int


@dataclass(frozen=True)
class CredentialsExpiring:
    """The standing job claimed reminders of credentials expiring within 90, 30 or 7 days."""

    credentials: tuple[ExpiringCredential, ...]
    at: datetime


@dataclass(frozen=True)
class LapsedProvider:
    """A provider whose credentials lapsed (unlisted, closed to new bookings)."""

    provider_id: str
    user_id: str | None
    name: str


@dataclass(frozen=True)
class CredentialsLapsed:
    """The standing job lapsed providers no longer in good standing."""

    providers: tuple[LapsedProvider, ...]
    at: datetime


@dataclass(frozen=True)
class VisitAtRisk:
    """A visit ahead of a suspended provider, to rearrange."""

    appointment_id: str
    patient_id: str
    starts_at: datetime


@dataclass(frozen=True)
class ProviderSuspended:
    """Staff (`by`) suspended a provider; its visits ahead (`visits`, in its `time_zone`) need another time
    or provider."""

    provider_id: str
    user_id: str | None
    name: str
    time_zone: str
    visits: tuple[VisitAtRisk, ...]
    by: str
    at: datetime


@dataclass(frozen=True)
class ProviderReinstated:
    """Staff lifted a provider's suspension; `credentials_lapsed`: it still waits for renewed credentials."""

    provider_id: str
    user_id: str | None
    credentials_lapsed: bool
    at: datetime


@dataclass(frozen=True)
class LatePaymentRefunded:
    """A card payment came in for an order already given up (failed or expired first): the payments webhook
    refunded it in full on the card (`payment_intent_id`, `amount_cents`). Published once per refund."""

    order_id: str
    order_number: str
    patient_id: str
    payment_intent_id: str
    amount_cents: int
    at: datetime


@dataclass(frozen=True)
class CardRefundFailed:
    """Stripe could not return a refund to the card (refund.updated: failed): the money is back with the
    platform, and the ledger credits it to the patient's wallet instead. Published once per refund."""

    refund_row_id: str
    order_id: str | None  # the visit order (none: a store order paid on its own)
    appointment_id: str | None
    patient_id: str
    amount_cents: int
    reason: str
    at: datetime
    store_order_id: str | None = None  # a store order's refund


@dataclass(frozen=True)
class DisputeOpened:
    """A patient reported a problem with a completed visit (app.services.disputes): its earning stays pending
    until payments staff resolve it. It carries the reason's label only: the patient's details text is never
    sent to the provider."""

    dispute_id: str
    appointment_id: str
    patient_id: str
    provider_id: str
    service_name: str
    reason_label: str
    at: datetime


@dataclass(frozen=True)
class DisputeResolved:
    """Payments staff resolved a dispute: `outcome` is refund, partial_refund or reject, `refunded_cents` what
    went back to the patient, `note` staff's words to the patient (required for a rejection)."""

    dispute_id: str
    appointment_id: str
    patient_id: str
    provider_id: str
    service_name: str
    outcome: str
    refunded_cents: int
    note: str
    at: datetime


@dataclass(frozen=True)
class StorePaymentCaptured:
    """The card payment of a store order placed on its own came in (Stripe's webhook): the store marks the
    order paid and the ledger records the sale (issue 29 item 4)."""

    store_order_id: str
    patient_id: str
    at: datetime


@dataclass(frozen=True)
class StorePaymentFailed:
    """The card payment of a store order placed on its own failed or expired: the store cancels the order
    and puts its stock back."""

    store_order_id: str
    patient_id: str
    reason: str
    at: datetime


@dataclass(frozen=True)
class AdPaymentSettled:
    """The card payment of an ad flight's budget came in (`paid`) or failed or expired (Stripe's webhook,
    once): the ads domain starts the flight and the ledger books its prepaid budget (issue 29 item 5)."""

    flight_id: str
    payment_id: str
    paid: bool
    amount_cents: int
    at: datetime
