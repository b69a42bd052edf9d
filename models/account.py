"""The product's view of a signed-in person (SPEC §3 "User"), mapped from the identity record.

Role and the privilege flags live only in the identity's server-controlled `app_metadata`; profile fields
(names, image, organization, phone) in the user-writable `user_metadata`.
"""

from __future__ import annotations

import enum

from pydantic import BaseModel, Field


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


class TwoFactorStatus(BaseModel):
    enabled: bool
    factor_id: str | None = None


class TotpSetup(BaseModel):
    factor_id: str
    qr_code: str  # raw SVG
    secret: str
    uri: str
