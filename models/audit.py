"""The audit log: an append-only record of security-relevant events (sign-ins, failed sign-ins, sign-outs,
password and MFA changes, role changes, invitations) and of staff work (viewing a patient's records, ticket
assignment and status changes, staff changes).

Rows are only ever inserted. The migration adds database triggers that refuse UPDATE and DELETE, so not even
a bug (or someone with the application's credentials) can quietly rewrite history. `actor_id` is a plain
column, not a foreign key: the record outlives the account it mentions. `details` never holds secrets
(passwords, tokens, codes, links); `app.audit.record` drops such keys.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column
from models.identity import as_utc


class AuditAction(enum.StrEnum):
    sign_in = "sign_in"  # details.method: password, otp, magiclink, recovery, invite, email/signup
    sign_in_failed = "sign_in_failed"  # details.reason: invalid_credentials, user_banned, email_not_confirmed
    sign_out = "sign_out"  # details.scope: global, local, others
    password_change = "password_change"
    mfa_enroll = "mfa_enroll"
    mfa_verify = "mfa_verify"
    mfa_unenroll = "mfa_unenroll"  # details.verified: whether two-factor sign-in was on with it
    email_change_request = "email_change_request"  # a change of the account's e-mail address was asked for
    account_create = "account_create"  # details.role
    role_change = "role_change"  # details.from, details.to
    waitlist_approve = "waitlist_approve"
    # Staff portal (issue 5): who looked at or changed what.
    patient_records_view = "patient_records_view"  # target: the patient's user id
    # PHI reads by staff (issue 10, HIPAA §164.312(b)), with the client's address and browser:
    ticket_view = "ticket_view"  # target: "ticket #N"; details.customer (name), details.customer_id
    attachment_download = (
        "attachment_download"  # target: the file name; details.ticket, ticket_id, attachment_id
    )
    patient_phone_view = "patient_phone_view"  # target: "appointment <id>"; details.patient_id, details.given
    ticket_assign = "ticket_assign"  # details.from, details.to (user ids)
    ticket_status = "ticket_status"  # details.from, details.to
    staff_add = "staff_add"  # details.role, details.permissions
    staff_update = "staff_update"  # details: the changed fields
    staff_remove = "staff_remove"
    # A refused escalation (issue 27): a role, permission or change beyond what the actor holds. Target the
    # account; details.attempt ("give the hr role", "change the account's flags"), details.missing.
    privilege_refused = "privilege_refused"
    # The account's own pages (issue 12):
    session_revoke = "session_revoke"  # details.session_id, details.scope: one or others
    data_export = "data_export"
    deletion_request = "deletion_request"  # details.due
    deletion_cancel = "deletion_cancel"
    account_delete = "account_delete"  # by the periodic job: the account anonymised
    # Money (issue 14): target the visit or the payout request; details.amount_cents, details.reason
    refund_exception = "refund_exception"  # a paid visit cancelled inside the refund window, refunded
    refund_issued = "refund_issued"  # a completed visit refunded (details.earning_cents, fee_cents)
    credit_adjusted = "credit_adjusted"  # goodwill wallet credit; target: the patient's user id
    # Disputes (issue 29, item 3): target the visit; details.dispute_id, reason, outcome, amount_cents
    dispute_opened = "dispute_opened"  # by the patient (the details text stays in the dispute)
    dispute_resolved = "dispute_resolved"  # by payments staff; details.note
    payout_requested = "payout_requested"
    payout_approved = "payout_approved"  # details.step: first or final
    payout_rejected = "payout_rejected"
    payout_sent = "payout_sent"
    payout_paid = "payout_paid"
    payout_failed = "payout_failed"
    # Stripe Connect (issue 29, item 2): target "provider <id>"; details.account_id (and payouts_enabled)
    payout_account_created = "payout_account_created"  # the provider set up payouts with Stripe
    payout_account_updated = "payout_account_updated"  # Stripe's account.updated changed its status
    # Documents (issue 14 parts 3, 5, 8): target "order <number>", "statement <YYYY-MM>", "invoice <number>".
    receipt_download = (
        "receipt_download"  # details.order_id, details.patient_id (the patient's or staff's read)
    )
    statement_download = "statement_download"  # details.provider_id
    invoice_created = "invoice_created"  # details.recipient_kind, details.total_cents
    invoice_updated = "invoice_updated"  # details.total_cents
    invoice_sent = "invoice_sent"  # details.to (the billing e-mail), details.delivered
    invoice_paid = "invoice_paid"  # details.method, details.reference, details.amount_cents
    invoice_voided = "invoice_voided"  # details.reason, details.from
    invoice_download = "invoice_download"  # details.patient_id when the recipient is a patient
    # Card payments (PAYMENT_GATEWAY=stripe): target the order id; details.event (the processor's event id),
    # details.amount_cents, details.reason (why it failed). By the processor: no actor.
    card_payment_succeeded = "card_payment_succeeded"
    card_payment_failed = "card_payment_failed"
    # A signed event (or Stripe's record) that is not the payment asked for: another amount, currency,
    # Checkout Session or PaymentIntent. Nothing was changed; details.event, details.type and
    # {field: {expected, got}} for each difference.
    card_payment_mismatch = "card_payment_mismatch"
    # A refund to the card Stripe could not make (refund.updated failed): target the order id; details.refund,
    # details.refunded_cents, details.reason. Its amount was credited to the patient's wallet instead.
    card_refund_failed = "card_refund_failed"
    card_removed = (
        "card_removed"  # a patient removed a saved card; target: their user id, details.brand/last4
    )
    # Credential verification (issue 13, staff side): target "application <id>" or a document's file name.
    application_view = "application_view"  # details.applicant_id, details.status
    application_decision = "application_decision"  # details.decision, details.reasons, details.from
    credential_file_view = "credential_file_view"  # target: the file name; details.document_id
    document_review = "document_review"  # details.decision (approved/rejected), details.reason, document_id
    # The staff handbook (issue 15): target "article <slug>"; details.fields changed, details.title
    handbook_edit = "handbook_edit"  # details.created: a new article
    handbook_delete = "handbook_delete"
    # The Help Center (issue 16): target "help article <slug>"; details.fields, title, created, status
    help_article_edit = "help_article_edit"
    help_article_delete = "help_article_delete"
    # AI assistant (issue 16): the category and level only, never the words
    assistant_red_flag = "assistant_red_flag"  # details.category, details.level
    assistant_ticket_draft = "assistant_ticket_draft"  # target: "ticket #N"; details.found
    # The admin console (issue 15): target "feature <key>" or the account's e-mail.
    feature_toggle = "feature_toggle"  # details.from, details.to
    # The console's accounts (issue 15 part 3): target the account's e-mail.
    account_flags = "account_flags"  # details.is_vip / has_free_access: {from, to}
    account_disable = "account_disable"  # details.sessions_ended
    account_enable = "account_enable"
    force_sign_out = "force_sign_out"  # details.sessions_ended
    # The store (issue 14 part 9): target "product <id>" or "store order <number>".
    product_create = "product_create"  # details: the product's fields
    product_update = "product_update"  # details: the changed fields (from, to)
    product_image = "product_image"  # details.change: added or removed, details.image_id
    store_fulfilment = "store_fulfilment"  # details.from, details.to, carrier, tracking_number, reason
    # Automation (issue 15 part 4): target "automation"; secrets themselves never enter the log.
    automation_update = "automation_update"  # details: the changed settings (url host, event types, …)
    automation_test = "automation_test"  # details.outcome, details.http_status
    automation_secret_rotate = "automation_secret_rotate"  # details.previous_valid_until
    automation_secret_view = "automation_secret_view"  # the signing secret was shown to this administrator
    automation_redeliver = "automation_redeliver"  # target: the message id; details.event_type
    automation_disabled = "automation_disabled"  # by the delivery job: details.reason (410 Gone)
    # Organizations and corporate work (issue 17): target "organization <id>", "lead <id>", "contract <id>".
    organization_create = (
        "organization_create"  # by staff: details.kind, details.admin_email, details.invited
    )
    organization_invite = "organization_invite"  # details.email, details.role
    organization_join = "organization_join"  # details.role
    organization_leave = "organization_leave"
    organization_member_remove = "organization_member_remove"  # details.user_id, details.by_staff
    organization_rename = "organization_rename"  # details.from, details.to
    lead_update = "lead_update"  # details: status / assigned_to {from, to}, or details.note
    contract_create = "contract_create"  # details.organization_id, details.lead_id
    contract_update = "contract_update"  # details: the changed fields
    event_day_book = "event_day_book"  # details.providers, details.starts_at
    event_day_invoice = "event_day_invoice"  # details.invoice
    # The forum (issue 16): target "forum post <id>" or the member's user id; details.action, details.reason
    forum_moderation = "forum_moderation"
    # Careers (issue 17 part 5): target "job posting <slug>" or "job application <id>".
    career_posting_edit = "career_posting_edit"  # details.fields changed, details.created, details.status
    # details.from, details.to, details.notes_changed, details.emailed (the rejection e-mail was sent)
    career_application_update = "career_application_update"
    career_cv_download = "career_cv_download"  # target: the application; details.posting, details.filename
    # Ads (issue 17 part 4): target "ad flight <id>"; details.from, to, reason, flags, revision.
    ad_submit = "ad_submit"  # details.placements, budget_cents, flags
    ad_edit = "ad_edit"  # the advertiser changed the creative: back to review (details.fields)
    ad_review = "ad_review"  # details.decision approved/rejected, details.reason
    ad_status = "ad_status"  # paused, resumed or ended (details.from, details.to, details.reason)


class AuditEntry(Base):
    __tablename__ = "audit_log"

    id: Mapped[str] = id_column()
    actor_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    actor_email: Mapped[str] = mapped_column(String(320), default="")
    action: Mapped[str] = mapped_column(String(64), index=True)
    target: Mapped[str] = mapped_column(String(320), default="")
    ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(512), default="")
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = created_at_column()


class AuditEntryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    actor_id: str | None
    actor_email: str
    action: str
    target: str
    ip: str
    user_agent: str
    details: dict[str, Any]
    created_at: datetime
    # The people behind `actor_id` and a `target` that is an account's id or e-mail, when the reader asked
    # for them (the audit log screen): their names, "" when unknown, unnamed or gone.
    actor_name: str = ""
    target_name: str = ""

    @classmethod
    def of(cls, row: AuditEntry) -> AuditEntryRead:
        return cls(
            id=row.id,
            actor_id=row.actor_id,
            actor_email=row.actor_email or "",
            action=row.action,
            target=row.target or "",
            ip=row.ip or "",
            user_agent=row.user_agent or "",
            details=dict(row.details or {}),
            created_at=as_utc(row.created_at),
        )
