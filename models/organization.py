"""Organizations (issue 17 part 2): a company client or a provider agency, its members with their role
(admin or member) and the e-mail invitations that bring colleagues in.

A person belongs to at most one organization (the unique index on `organization_members.user_id`): it is
SPEC §3's `User.organization`. An invitation keeps only a keyed hash of its link's token, never the token,
and expires; accepting it needs the invited address's own account.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Enum, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column

MAX_ORG_NAME = 120
MAX_EMAIL = 320


class OrganizationKind(enum.StrEnum):
    company = "company"  # a corporate client
    agency = "agency"  # a provider agency

    @property
    def label(self) -> str:
        return "Company client" if self is OrganizationKind.company else "Provider agency"


class MemberRole(enum.StrEnum):
    admin = "admin"
    member = "member"

    @property
    def label(self) -> str:
        return self.value.capitalize()


def _enum(kind: type[enum.Enum]) -> Enum:
    return Enum(kind, native_enum=False, length=16)


class Organization(Base):
    __tablename__ = "organizations"
    __table_args__ = (Index("ix_organizations_name_lower", text("lower(name)")),)

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(MAX_ORG_NAME))
    kind: Mapped[OrganizationKind] = mapped_column(_enum(OrganizationKind))
    created_at: Mapped[datetime] = created_at_column()


class OrganizationMember(Base):
    __tablename__ = "organization_members"
    __table_args__ = (Index("ix_organization_members_org_role", "organization_id", "role"),)

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), unique=True)
    role: Mapped[MemberRole] = mapped_column(_enum(MemberRole))
    joined_at: Mapped[datetime] = created_at_column()


class OrganizationInvitation(Base):
    __tablename__ = "organization_invitations"
    __table_args__ = (Index("ix_organization_invitations_org_accepted", "organization_id", "accepted_at"),)

    id: Mapped[str] = id_column()
    organization_id: Mapped[str] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    email: Mapped[str] = mapped_column(String(MAX_EMAIL))
    role: Mapped[MemberRole] = mapped_column(_enum(MemberRole))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    invited_by: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="SET NULL"))
    expires_at: Mapped[datetime] = mapped_column()
    accepted_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()


# ---- schemas ------------------------------------------------------------------------------------
class MemberRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    user_id: str
    name: str
    email: str
    role: MemberRole
    joined_at: datetime


class InvitationRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    email: str
    role: MemberRole
    expires_at: datetime


class OrganizationRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    kind: OrganizationKind
    created_at: datetime
    member_count: int = 0


class TeamRead(BaseModel):
    """The signed-in person's organization as its team page shows it."""

    model_config = ConfigDict(frozen=True)

    organization: OrganizationRead
    my_role: MemberRole
    members: list[MemberRead]
    invitations: list[InvitationRead]  # pending ones; admins only (empty for members)


class OrganizationPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[OrganizationRead]
    total: int
    page: int
    page_size: int


class InvitationPreview(BaseModel):
    """What an invitation link offers, as its accept page shows it."""

    model_config = ConfigDict(frozen=True)

    organization_name: str
    email: str
    role: MemberRole
    for_me: bool  # the signed-in account has the invited address
