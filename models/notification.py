"""Notifications: one row per recipient and event (the in-app inbox, and the record of what was e-mailed),
and each person's preferences per category and channel.

What the kinds mean, which category each belongs to, which are critical (cannot be turned off) and which may
wait for the daily digest is the catalogue of `app.services.notifications`; the table stores the kind and its
category (so the badge can leave out muted categories in SQL). Titles and previews are PHI-free by
construction: they are worded by the catalogue from dates and numbers, never from services, notes or
messages; the detail is behind `link`.

Indexes follow the inbox's queries: the All tab (not archived, newest first), the Archived tab, the Unread
tab and the badge (unread, not archived, by category), and the digest sender's pending rows. Each is partial,
so it holds only the rows its query reads.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow

MAX_TITLE = 200
MAX_BODY = 300
MAX_LINK = 300
PAGE_SIZE = 20
MAX_PAGE_SIZE = 50


class NotificationKind(enum.StrEnum):
    visit_booked = "visit_booked"
    visit_confirmed = "visit_confirmed"
    visit_changed = "visit_changed"
    visit_cancelled = "visit_cancelled"
    visit_reminder = "visit_reminder"
    visit_reassigned = "visit_reassigned"  # staff gave the visit to another provider (patient, new provider)
    visit_unassigned = "visit_unassigned"  # ... and the provider who had it
    review_request = "review_request"
    ticket_reply = "ticket_reply"
    ticket_assigned = "ticket_assigned"
    ticket_overdue = "ticket_overdue"
    ticket_red_flag = "ticket_red_flag"  # a customer wrote of an emergency or a crisis (issue 27)
    verification_waiting = "verification_waiting"
    staff_access_changed = "staff_access_changed"
    waitlist_approved = "waitlist_approved"
    enrollment_decision = "enrollment_decision"
    enrollment_reminder = "enrollment_reminder"
    credential_expiring = "credential_expiring"
    credentials_lapsed = "credentials_lapsed"
    provider_standing = "provider_standing"
    visit_at_risk = "visit_at_risk"
    payout_status = "payout_status"
    wallet_credit = "wallet_credit"
    payment_failed = "payment_failed"
    new_sign_in = "new_sign_in"
    password_changed = "password_changed"
    mfa_changed = "mfa_changed"
    email_change_requested = "email_change_requested"
    invoice_sent = "invoice_sent"
    store_order = "store_order"
    corporate_lead = "corporate_lead"  # a new corporate enquiry, or one assigned to you (issue 17)
    event_day_booked = "event_day_booked"  # a provider is booked on a corporate on-site event day
    service_request_offer = "service_request_offer"  # a provider offered on the patient's request
    service_request_decision = "service_request_decision"  # the provider's offer was accepted or not
    service_request_closed = "service_request_closed"  # the patient's request expired unbooked
    forum_reply = "forum_reply"  # a reply on a topic the member watches
    forum_answer_accepted = "forum_answer_accepted"
    forum_post_moderated = "forum_post_moderated"  # the member's post was rejected or hidden (with why)
    career_application = "career_application"  # a job application arrived (staff with manage_staff)
    ad_flight = "ad_flight"  # an advertiser's flight was approved, rejected, paused or ended (issue 17)


class NotificationCategory(enum.StrEnum):
    """The unit of preferences: one row of the settings matrix."""

    visits = "visits"
    cancellations = "cancellations"
    reminders = "reminders"
    reviews = "reviews"
    support = "support"
    staff_work = "staff_work"
    account = "account"
    payouts = "payouts"
    wallet = "wallet"
    security = "security"
    store = "store"
    service_requests = "service_requests"
    forum = "forum"
    safety_alerts = "safety_alerts"  # help-desk staff: a customer may be in danger (issue 27)


class InboxTab(enum.StrEnum):
    unread = "unread"
    all = "all"
    archived = "archived"


_UNREAD = "read_at IS NULL AND archived_at IS NULL"


class Notification(Base):
    __tablename__ = "notifications"
    __table_args__ = (
        Index(
            "ix_notifications_inbox",
            "recipient_id",
            "created_at",
            "id",
            postgresql_where=text("archived_at IS NULL"),
            sqlite_where=text("archived_at IS NULL"),
        ),
        Index(
            "ix_notifications_archived",
            "recipient_id",
            "created_at",
            "id",
            postgresql_where=text("archived_at IS NOT NULL"),
            sqlite_where=text("archived_at IS NOT NULL"),
        ),
        Index(
            "ix_notifications_unread",
            "recipient_id",
            "category",
            "created_at",
            postgresql_where=text(_UNREAD),
            sqlite_where=text(_UNREAD),
        ),
        Index(
            "ix_notifications_digest",
            "recipient_id",
            "created_at",
            postgresql_where=text("digest_pending"),
            sqlite_where=text("digest_pending = 1"),
        ),
    )

    id: Mapped[str] = id_column()
    recipient_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    category: Mapped[str] = mapped_column(String(24))
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    body: Mapped[str] = mapped_column(String(MAX_BODY), default="")
    link: Mapped[str] = mapped_column(String(MAX_LINK), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(default=None)
    archived_at: Mapped[datetime | None] = mapped_column(default=None)
    # Waiting for the recipient's daily digest e-mail (its category's e-mail is set to "daily digest").
    digest_pending: Mapped[bool] = mapped_column(Boolean, default=False)
    emailed_at: Mapped[datetime | None] = mapped_column(default=None)


class NotificationPreference(Base):
    """One person's choice for one category; no row means the defaults (in-app and e-mail on, no digest)."""

    __tablename__ = "notification_preferences"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    category: Mapped[str] = mapped_column(String(24), primary_key=True)
    in_app: Mapped[bool] = mapped_column(Boolean, default=True)
    email: Mapped[bool] = mapped_column(Boolean, default=True)
    digest: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


# ---- schemas --------------------------------------------------------------------------------------
class NotificationRead(BaseModel):
    model_config = ConfigDict(frozen=True, from_attributes=True)

    id: str
    kind: NotificationKind
    category: NotificationCategory
    title: str
    body: str
    link: str
    created_at: datetime
    read_at: datetime | None
    archived_at: datetime | None

    @property
    def read(self) -> bool:
        return self.read_at is not None

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


class NotificationPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    tab: InboxTab
    page: int
    page_size: int
    items: tuple[NotificationRead, ...]
    has_more: bool
    unread: int  # the badge's count, read with the page


class PreferenceRead(BaseModel):
    """One row of the settings matrix: a category, its channels, and what may be changed."""

    model_config = ConfigDict(frozen=True)

    category: NotificationCategory
    label: str
    description: str
    in_app: bool
    email: bool
    digest: bool
    critical: bool  # cannot be turned off
    digest_eligible: bool
    locked_reason: str = ""


class PreferenceUpdate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    category: NotificationCategory
    in_app: bool = True
    email: bool = True
    digest: bool = False


class PreferencesUpdate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rows: tuple[PreferenceUpdate, ...] = Field(max_length=len(NotificationCategory))
