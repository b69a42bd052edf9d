"""The notifications domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module. The `tell_*` handlers are the
subscribers of other domains' events (wired in medivisit/subscribers.py): each words and sends its notices.
"""

from app.services.notifications._ads import tell_ad_flight_decided
from app.services.notifications._careers import tell_career_application
from app.services.notifications._corporate import (
    tell_event_day_booked,
    tell_lead_assigned,
    tell_lead_received,
)
from app.services.notifications._delivery import notify, notify_each
from app.services.notifications._digest import send_daily_digests
from app.services.notifications._disputes import tell_dispute_opened, tell_dispute_resolved
from app.services.notifications._enrollment import (
    tell_applicant_of_decision,
    tell_application_status,
    tell_credentials_expiring,
    tell_credentials_lapsed,
    tell_idle_drafts,
    tell_provider_reinstated,
    tell_provider_suspended,
    tell_reviewers,
)
from app.services.notifications._forum import (
    tell_answer_accepted,
    tell_post_moderated,
    tell_watchers_of_reply,
)
from app.services.notifications._invoices import tell_invoice_sent
from app.services.notifications._payments import tell_payment_failed
from app.services.notifications._payouts import tell_payout_status
from app.services.notifications._service_requests import (
    tell_offer_accepted,
    tell_offer_received,
    tell_request_cancelled,
    tell_requests_expired,
    tell_requests_released,
)
from app.services.notifications._staff import tell_staff_access_changed
from app.services.notifications._store import tell_store_order
from app.services.notifications._support import (
    tell_red_flag,
    tell_ticket_assigned,
    tell_ticket_replied,
    tell_tickets_overdue,
)
from app.services.notifications._visits import notify_visits
from app.services.notifications._waitlist import tell_waitlist_approved
from app.services.notifications._wallet import (
    tell_card_refund_failed,
    tell_credit_granted,
    tell_refund_credited,
    tell_store_order_refunded,
)

__all__ = [
    "notify",
    "notify_each",
    "notify_visits",
    "send_daily_digests",
    "tell_ad_flight_decided",
    "tell_answer_accepted",
    "tell_applicant_of_decision",
    "tell_application_status",
    "tell_career_application",
    "tell_card_refund_failed",
    "tell_credentials_expiring",
    "tell_credentials_lapsed",
    "tell_credit_granted",
    "tell_dispute_opened",
    "tell_dispute_resolved",
    "tell_event_day_booked",
    "tell_idle_drafts",
    "tell_invoice_sent",
    "tell_lead_assigned",
    "tell_lead_received",
    "tell_offer_accepted",
    "tell_offer_received",
    "tell_payment_failed",
    "tell_payout_status",
    "tell_post_moderated",
    "tell_provider_reinstated",
    "tell_provider_suspended",
    "tell_red_flag",
    "tell_refund_credited",
    "tell_request_cancelled",
    "tell_requests_expired",
    "tell_requests_released",
    "tell_reviewers",
    "tell_staff_access_changed",
    "tell_store_order",
    "tell_store_order_refunded",
    "tell_ticket_assigned",
    "tell_ticket_replied",
    "tell_tickets_overdue",
    "tell_waitlist_approved",
    "tell_watchers_of_reply",
]
