"""The product's view of a signed-in person (SPEC §3 "User"), mapped from the identity record, and the
account's own lifecycle: its saved visit address, the welcome overlays it has seen, a scheduled deletion.

Role and the privilege flags live only in the identity's server-controlled `app_metadata`; profile fields
(names, image, organization, phone) in the user-writable `user_metadata`. The saved address is kept in its
own table, never in the metadata every access token and cookie carries.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow


class Role(enum.StrEnum):
    patient = "patient"
    provider = "provider"
    owner = "owner"
    admin = "admin"
    management = "management"
    hr = "hr"
    support = "support"


STAFF_ROLES = frozenset({Role.management, Role.hr, Role.support, Role.owner})
ADMIN_ROLES = frozenset({Role.owner, Role.admin})


class AccountRead(BaseModel):
    id: str
    email: str
    name: str = "User"
    first_name: str = ""
    last_name: str = ""
    role: Role = Role.patient
    profile_image: str = ""
    is_master_admin: bool = False
    is_vip: bool = False
    has_free_access: bool = False
    organization: str = ""
    phone_number: str = ""
    exclusive_service_regions: list[str] = Field(default_factory=list)
    exclusive_services: list[str] = Field(default_factory=list)
    public_metadata: dict = Field(default_factory=dict)
    enrollment_complete: bool = False
    # An open application to become a provider (app_metadata, set by the enrollment domain): sign-in lands on
    # /provider-enrollment until a reviewer decides.
    provider_applicant: bool = False


class TwoFactorStatus(BaseModel):
    enabled: bool
    factor_id: str | None = None


class TotpSetup(BaseModel):
    factor_id: str
    qr_code: str  # raw SVG
    secret: str
    uri: str


# ---- the account's lifecycle (migration 0020) -----------------------------------------------------
class AccountState(Base):
    """What the account has seen and asked for: the VIP welcome (shown once, on any browser), the
    onboarding checklist dismissed, and a deletion scheduled for `deletion_due_at` (None: not scheduled)."""

    __tablename__ = "account_states"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    vip_welcome_seen_at: Mapped[datetime | None] = mapped_column(default=None)
    onboarding_dismissed_at: Mapped[datetime | None] = mapped_column(default=None)
    deletion_requested_at: Mapped[datetime | None] = mapped_column(default=None)
    deletion_due_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class SavedAddress(Base):
    """The patient's saved visit address (one per account; checkout may start from it)."""

    __tablename__ = "account_addresses"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    address_line: Mapped[str] = mapped_column(String(200))
    city: Mapped[str] = mapped_column(String(100))
    state: Mapped[str] = mapped_column(String(2))
    zip_code: Mapped[str] = mapped_column(String(5))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class AddressRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    address_line: str
    city: str
    state: str
    zip_code: str


class ActiveSession(BaseModel):
    """One signed-in device of the account, as the settings page lists it."""

    model_config = ConfigDict(frozen=True)

    id: str
    device: str  # "Chrome on Windows"
    ip: str
    signed_in_at: datetime
    last_seen_at: datetime
    current: bool


class AccountStatus(BaseModel):
    """The account page's state: the address, an e-mail change waiting for its confirmations, and a
    scheduled deletion."""

    model_config = ConfigDict(frozen=True)

    email: str
    pending_email: str = ""
    deletion_due_at: datetime | None = None


class ChecklistItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    title: str
    href: str
    done: bool


class Welcome(BaseModel):
    """What the signed-in home greets the account with: the VIP overlay (once), and the onboarding
    checklist while something on it is left and it was not dismissed (empty `checklist`: nothing to show)."""

    model_config = ConfigDict(frozen=True)

    show_vip: bool = False
    checklist: tuple[ChecklistItem, ...] = ()
