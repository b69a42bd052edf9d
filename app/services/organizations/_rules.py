"""Organizations' words, limits and shared pieces: the invitation token's keyed hash, reading a member's
row, and the reads the team page and the staff console share."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.keys import get_key_ring
from app.services.errors import ValidationFailed
from app.services.shared.accounts import account_of
from models.identity import User
from models.organization import (
    MAX_ORG_NAME,
    MemberRead,
    Organization,
    OrganizationKind,
    OrganizationMember,
    OrganizationRead,
)

INVITATION_DAYS = 7
MAX_PENDING_INVITATIONS = 50
MAX_MEMBERS_LISTED = 200

NOT_A_MEMBER = "You're not a member of an organization."
ADMINS_ONLY = "Only your organization's admins can do that."
LAST_ADMIN = "You're the only admin: make someone else an admin before you leave."
LAST_ADMIN_REMOVE = "The organization needs at least one admin; this person is the only one."
NO_MEMBER = "This person is not a member of the organization."
BAD_EMAIL = "Enter the e-mail address of the person to invite, e.g. alex@company.com."
ALREADY_MEMBER = "{email} is already a member of {name}."
ALREADY_INVITED = "{email} already has an invitation waiting."
TOO_MANY_INVITES = f"An organization can have at most {MAX_PENDING_INVITATIONS} invitations waiting."
INVITE_GONE = "This invitation link is not valid any more. Ask your organization's admin for a new one."
INVITE_EXPIRED = "This invitation has expired. Ask your organization's admin for a new one."
WRONG_ACCOUNT = "This invitation is for {email}. Sign in with that address to accept it."
IN_ANOTHER = "You're already a member of {name}. Leave it before you join another organization."
SEND_FAILED = "The invitation e-mail could not be sent. Please try again in a few minutes."
NAME_REQUIRED = "Enter the organization's name."
NAME_TOO_LONG = f"The name can be at most {MAX_ORG_NAME} characters."
NO_ORGANIZATION = "No organization has this id."
BAD_KIND = "Choose a company client or a provider agency."
CANNOT_REMOVE_SELF = "Use Leave organization to remove yourself."

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def new_token() -> tuple[str, str]:
    """A fresh invitation token and the keyed hash stored in its place."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hmac.new(get_key_ring().secret, b"org-invite." + token.encode(), hashlib.sha256).hexdigest()


def clean_email(text: str) -> str:
    email = (text or "").strip().lower()
    if len(email) > 320 or not _EMAIL.match(email):
        raise ValidationFailed(BAD_EMAIL)
    return email


def clean_name(text: str) -> str:
    name = " ".join((text or "").split())
    if not name:
        raise ValidationFailed(NAME_REQUIRED)
    if len(name) > MAX_ORG_NAME:
        raise ValidationFailed(NAME_TOO_LONG)
    return name


async def membership_of(session: AsyncSession, user_id: str) -> OrganizationMember | None:
    return await session.scalar(select(OrganizationMember).where(OrganizationMember.user_id == user_id))


async def admin_count(session: AsyncSession, organization_id: str) -> int:
    return int(
        await session.scalar(
            select(func.count())
            .select_from(OrganizationMember)
            .where(OrganizationMember.organization_id == organization_id, OrganizationMember.role == "admin")
        )
        or 0
    )


async def stamp_organization(session: AsyncSession, user_ids: list[str], name: str) -> None:
    """Write the organization's name (or, with "", nothing) into these people's profiles: SPEC §3's
    `User.organization` follows the membership, so every screen, e-mail and token that reads the profile
    names the organization they belong to now."""
    if not user_ids:
        return
    for user in await session.scalars(select(User).where(User.id.in_(user_ids))):
        data = {key: value for key, value in (user.raw_user_meta_data or {}).items() if key != "organization"}
        user.raw_user_meta_data = {**data, "organization": name} if name else data
    await session.flush()


def organization_read(row: Organization, member_count: int = 0) -> OrganizationRead:
    return OrganizationRead(
        id=row.id, name=row.name, kind=row.kind, created_at=row.created_at, member_count=member_count
    )


async def members_of(session: AsyncSession, organization_id: str) -> list[MemberRead]:
    """The organization's members with their names, admins first, then by name (one query)."""
    rows = await session.execute(
        select(OrganizationMember, User)
        .join(User, User.id == OrganizationMember.user_id)
        .where(OrganizationMember.organization_id == organization_id)
        .limit(MAX_MEMBERS_LISTED)
    )
    members = [
        MemberRead(
            user_id=user.id,
            name=account_of(user).name,
            email=user.email or "",
            role=member.role,
            joined_at=member.joined_at,
        )
        for member, user in rows.tuples()
    ]
    return sorted(members, key=lambda m: (m.role != "admin", m.name.lower(), m.email))


async def create_organization(
    session: AsyncSession, *, name: str, kind: OrganizationKind, admin_user_id: str | None = None
) -> Organization:
    """A new organization (for the corporate desk: a won lead's company), with its first admin if given and
    that person belongs to no organization yet."""
    row = Organization(name=clean_name(name), kind=kind)
    session.add(row)
    await session.flush()
    if admin_user_id and await membership_of(session, admin_user_id) is None:
        session.add(OrganizationMember(organization_id=row.id, user_id=admin_user_id, role="admin"))
        await stamp_organization(session, [admin_user_id], row.name)
    return row
