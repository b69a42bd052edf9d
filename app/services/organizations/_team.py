"""The team page's commands (/dashboard/team): a member reads their organization; its admins invite
colleagues by e-mail, withdraw invitations and remove members; anyone may leave except the last admin;
the invited person accepts with the account of the invited address. Every change is audited."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from html import escape

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.outbox import send_email
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, Unavailable, ValidationFailed
from app.services.organizations._rules import (
    ADMINS_ONLY,
    ALREADY_INVITED,
    ALREADY_MEMBER,
    CANNOT_REMOVE_SELF,
    IN_ANOTHER,
    INVITATION_DAYS,
    INVITE_EXPIRED,
    INVITE_GONE,
    LAST_ADMIN,
    LAST_ADMIN_REMOVE,
    MAX_PENDING_INVITATIONS,
    NO_MEMBER,
    NOT_A_MEMBER,
    SEND_FAILED,
    TOO_MANY_INVITES,
    WRONG_ACCOUNT,
    admin_count,
    clean_email,
    members_of,
    membership_of,
    new_token,
    organization_read,
    stamp_organization,
    token_hash,
)
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.identity import User, as_utc
from models.mail import OutboxStatus
from models.organization import (
    InvitationPreview,
    InvitationRead,
    MemberRole,
    Organization,
    OrganizationInvitation,
    OrganizationMember,
    TeamRead,
)

JOIN_PATH = "/join-team"


def _now() -> datetime:
    return datetime.now(UTC)


async def _member(session: AsyncSession, account: AccountRead) -> OrganizationMember:
    member = await membership_of(session, account.id)
    if member is None:
        raise PermissionDenied(NOT_A_MEMBER)
    return member


async def _admin(session: AsyncSession, account: AccountRead) -> tuple[OrganizationMember, Organization]:
    """The account's admin membership and its organization, locked (PostgreSQL) so two admins leaving or
    removing each other at once queue and the last-admin rule holds."""
    member = await _member(session, account)
    if member.role != MemberRole.admin:
        raise PermissionDenied(ADMINS_ONLY)
    organization = await session.get(Organization, member.organization_id, with_for_update=True)
    assert organization is not None  # the membership's foreign key
    return member, organization


async def _pending(session: AsyncSession, organization_id: str, now: datetime) -> list[InvitationRead]:
    rows = await session.scalars(
        select(OrganizationInvitation)
        .where(
            OrganizationInvitation.organization_id == organization_id,
            OrganizationInvitation.accepted_at.is_(None),
            OrganizationInvitation.expires_at > now,
        )
        .order_by(OrganizationInvitation.created_at)
        .limit(MAX_PENDING_INVITATIONS)
    )
    return [
        InvitationRead(id=row.id, email=row.email, role=row.role, expires_at=as_utc(row.expires_at))
        for row in rows
    ]


async def get_my_team(*, session: AsyncSession, actor: Principal) -> TeamRead | None:
    """The signed-in person's organization, its members and (for admins) the invitations waiting; None
    when they belong to none."""
    account = await require_account(session=session, actor=actor)
    member = await membership_of(session, account.id)
    if member is None:
        return None
    organization = await session.get(Organization, member.organization_id)
    assert organization is not None
    members = await members_of(session, organization.id)
    invitations = await _pending(session, organization.id, _now()) if member.role == MemberRole.admin else []
    return TeamRead(
        organization=organization_read(organization, len(members)),
        my_role=member.role,
        members=members,
        invitations=invitations,
    )


def _invitation_html(*, organization: str, inviter: str, role: MemberRole, link: str) -> str:
    return (
        f"<p>{escape(inviter)} invited you to join <strong>{escape(organization)}</strong> on "
        f"{escape(get_settings().brand_name)} as {'an admin' if role == MemberRole.admin else 'a member'}.</p>"
        f'<p><a href="{escape(link)}">Accept the invitation</a></p>'
        f"<p>The link works for {INVITATION_DAYS} days. Sign in (or sign up) with this e-mail address to "
        "accept it. If you weren't expecting it, you can ignore this e-mail.</p>"
    )


async def send_invitation(
    session: AsyncSession,
    *,
    organization: Organization,
    email: str,
    role: MemberRole,
    inviter_id: str | None,
    inviter_name: str,
) -> OrganizationInvitation:
    """Keep an invitation (the hash of its link's token) and e-mail the link; Unavailable, and nothing kept
    by the caller's unit of work, when the e-mail cannot be sent. The caller checks who may invite."""
    now = _now()
    token, hashed = new_token()
    row = OrganizationInvitation(
        organization_id=organization.id,
        email=email,
        role=role,
        token_hash=hashed,
        invited_by=inviter_id,
        expires_at=now + timedelta(days=INVITATION_DAYS),
    )
    session.add(row)
    await session.flush()
    link = f"{get_settings().site_url.rstrip('/')}{JOIN_PATH}?token={token}"
    sent = await send_email(
        session=session,
        recipients=[email],
        subject=f"Join {organization.name} on {get_settings().brand_name}",
        html=_invitation_html(organization=organization.name, inviter=inviter_name, role=role, link=link),
        secret=True,  # the link signs nobody in, but it is a key to the organization: not kept after sending
    )
    if sent.status == OutboxStatus.failed:
        raise Unavailable(SEND_FAILED)
    return row


async def invite_member(
    *, session: AsyncSession, actor: Principal, email: str, role: MemberRole | str = MemberRole.member
) -> InvitationRead:
    """An admin invites `email` as `role`: the invitation is kept (as a hash of its link's token) and
    e-mailed; nothing is kept when the e-mail cannot be sent."""
    account = await require_account(session=session, actor=actor)
    _member_row, organization = await _admin(session, account)
    email, role, now = clean_email(email), MemberRole(role), _now()
    already = await session.scalar(
        select(User.id)
        .join(OrganizationMember, OrganizationMember.user_id == User.id)
        .where(OrganizationMember.organization_id == organization.id, func.lower(User.email) == email)
    )
    if already:
        raise ValidationFailed(ALREADY_MEMBER.format(email=email, name=organization.name))
    pending = await _pending(session, organization.id, now)
    if any(invitation.email == email for invitation in pending):
        raise ValidationFailed(ALREADY_INVITED.format(email=email))
    if len(pending) >= MAX_PENDING_INVITATIONS:
        raise ValidationFailed(TOO_MANY_INVITES)
    row = await send_invitation(
        session,
        organization=organization,
        email=email,
        role=role,
        inviter_id=account.id,
        inviter_name=account.name,
    )
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.organization_invite,
        target=f"organization {organization.id}",
        details={"email": email, "role": role.value},
    )
    return InvitationRead(id=row.id, email=email, role=role, expires_at=row.expires_at)


async def revoke_invitation(*, session: AsyncSession, actor: Principal, invitation_id: str) -> None:
    """An admin withdraws an invitation still waiting (its link stops working)."""
    account = await require_account(session=session, actor=actor)
    _member_row, organization = await _admin(session, account)
    row = await session.get(OrganizationInvitation, invitation_id[:36])
    if row is None or row.organization_id != organization.id or row.accepted_at is not None:
        raise NotFound(INVITE_GONE)
    await session.delete(row)
    await session.flush()


async def _invitation(session: AsyncSession, token: str) -> OrganizationInvitation:
    row = await session.scalar(
        select(OrganizationInvitation).where(OrganizationInvitation.token_hash == token_hash(token[:100]))
    )
    if row is None or row.accepted_at is not None:
        raise NotFound(INVITE_GONE)
    if as_utc(row.expires_at) <= _now():
        raise ValidationFailed(INVITE_EXPIRED)
    return row


async def get_invitation(*, session: AsyncSession, actor: Principal, token: str) -> InvitationPreview:
    """What the invitation behind a link offers, for the signed-in person to accept."""
    account = await require_account(session=session, actor=actor)
    row = await _invitation(session, token)
    organization = await session.get(Organization, row.organization_id)
    assert organization is not None
    return InvitationPreview(
        organization_name=organization.name,
        email=row.email,
        role=row.role,
        for_me=row.email == account.email.lower(),
    )


async def accept_invitation(*, session: AsyncSession, actor: Principal, token: str) -> TeamRead:
    """The signed-in person, whose account has the invited address, joins the organization."""
    account = await require_account(session=session, actor=actor)
    row = await _invitation(session, token)
    if row.email != account.email.lower():
        raise PermissionDenied(WRONG_ACCOUNT.format(email=row.email))
    current = await membership_of(session, account.id)
    if current is not None and current.organization_id != row.organization_id:
        other = await session.get(Organization, current.organization_id)
        raise ValidationFailed(IN_ANOTHER.format(name=other.name if other else "an organization"))
    if current is None:
        session.add(
            OrganizationMember(organization_id=row.organization_id, user_id=account.id, role=row.role)
        )
        organization = await session.get(Organization, row.organization_id)
        await stamp_organization(session, [account.id], organization.name if organization else "")
    row.accepted_at = _now()
    await session.flush()
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.organization_join,
        target=f"organization {row.organization_id}",
        details={"role": row.role.value},
    )
    team = await get_my_team(session=session, actor=actor)
    assert team is not None
    return team


async def leave_organization(*, session: AsyncSession, actor: Principal) -> None:
    """The signed-in member leaves their organization; the last admin cannot."""
    account = await require_account(session=session, actor=actor)
    member = await _member(session, account)
    await session.get(Organization, member.organization_id, with_for_update=True)
    if member.role == MemberRole.admin and await admin_count(session, member.organization_id) <= 1:
        raise ValidationFailed(LAST_ADMIN)
    organization_id = member.organization_id
    await session.delete(member)
    await stamp_organization(session, [account.id], "")
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.organization_leave,
        target=f"organization {organization_id}",
    )


async def drop_member(session: AsyncSession, organization_id: str, user_id: str) -> None:
    """Remove `user_id` from the (locked) organization, keeping at least one admin."""
    target = await session.scalar(
        select(OrganizationMember).where(
            OrganizationMember.organization_id == organization_id, OrganizationMember.user_id == user_id[:36]
        )
    )
    if target is None:
        raise NotFound(NO_MEMBER)
    if target.role == MemberRole.admin and await admin_count(session, organization_id) <= 1:
        raise ValidationFailed(LAST_ADMIN_REMOVE)
    await session.delete(target)
    await stamp_organization(session, [target.user_id], "")


async def remove_member(*, session: AsyncSession, actor: Principal, user_id: str) -> None:
    """An admin removes another member of their organization."""
    account = await require_account(session=session, actor=actor)
    _member_row, organization = await _admin(session, account)
    if user_id == account.id:
        raise ValidationFailed(CANNOT_REMOVE_SELF)
    await drop_member(session, organization.id, user_id)
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.organization_member_remove,
        target=f"organization {organization.id}",
        details={"user_id": user_id, "by_staff": False},
    )
