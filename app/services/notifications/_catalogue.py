"""The kinds of notification: each one's category (the unit of preferences), whether it is critical (it
cannot be turned off, and the settings screen shows it locked), whether it may wait for the daily digest
(non-urgent), and who sends its e-mail.

E-mail ownership, one path per message (never two e-mails for one event):
- `notify`: the notification e-mail (PHI-free title, preview and a link) is sent by `notify` itself;
- `caller`: the calling domain keeps its own, richer e-mail (the visit e-mails of booking and the visit
  lifecycle) and sends it only to the recipients `notify` returns in `Delivery.email_now`, so preferences
  and the digest govern it all the same;
- `elsewhere`: another path always sends the only e-mail (the identity service's e-mail-change confirmation
  links, the waitlist invitation), so the notification is in-app only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.account import ADMIN_ROLES, STAFF_ROLES, Role
from models.notification import NotificationCategory, NotificationKind

EmailOwner = Literal["notify", "caller", "elsewhere"]
K = NotificationKind
C = NotificationCategory


@dataclass(frozen=True)
class KindInfo:
    kind: NotificationKind
    category: NotificationCategory
    label: str
    critical: bool = False
    digest_eligible: bool = False
    email: EmailOwner = "notify"


@dataclass(frozen=True)
class CategoryInfo:
    category: NotificationCategory
    label: str
    description: str
    roles: frozenset[Role] | None = None  # who it concerns (None: everybody)
    locked_reason: str = ""  # critical categories: why they cannot be turned off


KINDS: dict[NotificationKind, KindInfo] = {
    info.kind: info
    for info in (
        KindInfo(K.visit_booked, C.visits, "Visit booked", digest_eligible=True, email="caller"),
        KindInfo(K.visit_confirmed, C.visits, "Visit confirmed", digest_eligible=True, email="caller"),
        KindInfo(K.visit_changed, C.visits, "Visit moved", digest_eligible=True, email="caller"),
        KindInfo(K.visit_reassigned, C.visits, "Visit reassigned", digest_eligible=True, email="caller"),
        KindInfo(K.visit_unassigned, C.visits, "Visit handed over", digest_eligible=True, email="caller"),
        KindInfo(K.visit_cancelled, C.cancellations, "Visit cancelled", critical=True, email="caller"),
        KindInfo(K.visit_reminder, C.reminders, "Visit reminder", email="caller"),
        KindInfo(K.review_request, C.reviews, "Review request", digest_eligible=True),
        KindInfo(K.ticket_reply, C.support, "Reply to your request", digest_eligible=True),
        KindInfo(K.ticket_assigned, C.staff_work, "Ticket assigned to you"),
        KindInfo(K.ticket_overdue, C.staff_work, "Ticket overdue"),
        # A red flag in a customer's ticket or reply: the desk is told at once, never in a digest.
        KindInfo(K.ticket_red_flag, C.safety_alerts, "Customer may be in danger", critical=True),
        KindInfo(K.verification_waiting, C.staff_work, "Provider application waiting for review"),
        KindInfo(K.staff_access_changed, C.staff_work, "Staff access changed"),
        KindInfo(K.waitlist_approved, C.account, "Access approved", email="elsewhere"),
        # Its e-mail carries the reasons, their advice and the reviewer's message (enrollment's own).
        KindInfo(K.enrollment_decision, C.account, "Enrollment decision", email="caller"),
        KindInfo(K.enrollment_reminder, C.account, "Unfinished application", digest_eligible=True),
        KindInfo(K.credential_expiring, C.account, "Licence or document expiring"),
        KindInfo(K.credentials_lapsed, C.account, "Credentials expired"),
        KindInfo(K.provider_standing, C.staff_work, "Provider standing changed"),
        KindInfo(K.visit_at_risk, C.cancellations, "Visit may need a new provider", critical=True),
        KindInfo(K.payout_status, C.payouts, "Payout status", digest_eligible=True),
        KindInfo(K.wallet_credit, C.wallet, "Wallet credit", digest_eligible=True),
        # The invoices domain always e-mails the invoice itself, with its PDF: the notice is in-app only.
        KindInfo(K.invoice_sent, C.wallet, "Invoice", digest_eligible=True, email="elsewhere"),
        # A card payment failed: the order is cancelled and its visits released (always sent, at once).
        KindInfo(K.payment_failed, C.cancellations, "Payment failed", critical=True),
        KindInfo(K.store_order, C.store, "Store order update"),
        # The corporate desk (issue 17): enquiries for staff; on-site event days for the providers booked.
        KindInfo(K.corporate_lead, C.staff_work, "Corporate enquiry"),
        KindInfo(K.event_day_booked, C.visits, "On-site event day booked", digest_eligible=True),
        KindInfo(K.service_request_offer, C.service_requests, "Offer on your service request"),
        KindInfo(K.service_request_decision, C.service_requests, "Decision on your offer"),
        KindInfo(K.service_request_closed, C.service_requests, "Service request closed"),
        KindInfo(K.forum_reply, C.forum, "Reply on a watched topic", digest_eligible=True),
        KindInfo(K.forum_answer_accepted, C.forum, "Your reply accepted", digest_eligible=True),
        KindInfo(K.forum_post_moderated, C.forum, "Your post moderated", digest_eligible=True),
        KindInfo(K.career_application, C.staff_work, "New job application", digest_eligible=True),
        KindInfo(K.ad_flight, C.account, "Ad review and status", digest_eligible=True),
        KindInfo(K.new_sign_in, C.security, "New sign-in", critical=True),
        KindInfo(K.password_changed, C.security, "Password changed", critical=True),
        KindInfo(K.mfa_changed, C.security, "Two-factor sign-in changed", critical=True),
        KindInfo(
            K.email_change_requested, C.security, "E-mail change requested", critical=True, email="elsewhere"
        ),
    )
}

WORKERS = frozenset(STAFF_ROLES | ADMIN_ROLES)
CATEGORIES: dict[NotificationCategory, CategoryInfo] = {
    info.category: info
    for info in (
        CategoryInfo(C.visits, "Visit updates", "A visit is booked, confirmed or moved."),
        CategoryInfo(
            C.cancellations,
            "Visit cancellations",
            "A visit is cancelled, its provider can no longer come, or its card payment failed.",
            locked_reason="Always sent: a cancelled visit changes your plans.",
        ),
        CategoryInfo(C.reminders, "Visit reminders", "A visit starts within 24 hours."),
        CategoryInfo(C.reviews, "Review requests", "A completed visit is waiting for your review."),
        CategoryInfo(C.support, "Help-desk replies", "Support answered one of your requests."),
        CategoryInfo(
            C.staff_work,
            "Staff work",
            "A ticket is assigned to you or is overdue; your staff access changes; a provider is suspended or "
            "their credentials lapse; a corporate enquiry arrives or is assigned to you.",
            WORKERS,
        ),
        CategoryInfo(
            C.account,
            "Account and enrollment",
            "Your access is approved; an enrollment decision; a licence or document about to expire.",
        ),
        CategoryInfo(C.payouts, "Payouts", "A payout changes status.", frozenset({Role.provider})),
        CategoryInfo(
            C.wallet,
            "Wallet credit",
            "A refund or credit is added to your wallet, or an invoice is sent to you.",
        ),
        CategoryInfo(
            C.store, "Store orders", "A store order is processed, shipped, delivered, returned or canceled."
        ),
        CategoryInfo(
            C.service_requests,
            "Service requests",
            "A provider offers a visit on your service request, or it closes unbooked; a patient accepts or "
            "declines your offer.",
        ),
        CategoryInfo(
            C.forum,
            "Forum",
            "A reply on a topic you watch, your reply accepted as the answer, a moderator's decision on your post.",
        ),
        CategoryInfo(
            C.security,
            "Security alerts",
            "A new sign-in, a changed password or two-factor sign-in, a requested e-mail change.",
            locked_reason="Always sent: you need to know if someone else is using your account.",
        ),
        CategoryInfo(
            C.safety_alerts,
            "Safety alerts",
            "A customer's help request or reply mentions a medical emergency or a mental-health crisis.",
            WORKERS,
            locked_reason="Always sent: someone may be in danger and needs a person to answer now.",
        ),
    )
}


def kinds_of(category: NotificationCategory) -> tuple[KindInfo, ...]:
    return tuple(info for info in KINDS.values() if info.category == category)


def is_critical(category: NotificationCategory) -> bool:
    """Critical categories hold critical kinds only (a test checks): none of their channels can be off."""
    return any(info.critical for info in kinds_of(category))


def digest_eligible(category: NotificationCategory) -> bool:
    """Whether the category may wait for the daily digest: every kind in it is non-urgent."""
    kinds = kinds_of(category)
    return bool(kinds) and all(info.digest_eligible for info in kinds)


def concerns(category: NotificationCategory, role: Role) -> bool:
    roles = CATEGORIES[category].roles
    return roles is None or role in roles
