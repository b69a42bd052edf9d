"""Organizations in the staff portal (/staff/organizations, manage_services): the list (searched by name,
paginated, member counts aggregated in SQL), one organization's members, renaming it and removing a
member (never its last admin). Every change is audited."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.organizations._rules import (
    BAD_KIND,
    NO_ORGANIZATION,
    clean_email,
    clean_name,
    create_organization,
    members_of,
    membership_of,
    organization_read,
    stamp_organization,
)
from app.services.organizations._team import drop_member, send_invitation
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.audit import AuditAction
from models.identity import User
from models.organization import (
    MemberRole,
    Organization,
    OrganizationKind,
    OrganizationMember,
    OrganizationPage,
    TeamRead,
)
from models.staff import Permission

PAGE_SIZE = 25
MAX_SEARCH = 80


async def _staff(session: AsyncSession, actor: Principal) -> AccountRead:
    return await require_permission(session=session, actor=actor, permission=Permission.manage_services)


async def list_organizations(
    *, session: AsyncSession, actor: Principal, search: str = "", page: int = 1, page_size: int = PAGE_SIZE
) -> OrganizationPage:
    """Staff: organizations by name with their member counts, `search` a part of the name."""
    await _staff(session, actor)
    page, page_size = max(1, page), max(1, min(page_size, 100))
    query = select(Organization)
    words = " ".join((search or "").split())[:MAX_SEARCH].lower()
    if words:
        pattern = "%" + words.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        query = query.where(func.lower(Organization.name).like(pattern, escape="\\"))
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    counts = (
        select(OrganizationMember.organization_id, func.count().label("n"))
        .group_by(OrganizationMember.organization_id)
        .subquery()
    )
    rows = await session.execute(
        query.add_columns(func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.organization_id == Organization.id)
        .order_by(func.lower(Organization.name), Organization.id)
        .limit(page_size)
        .offset((page - 1) * page_size)
    )
    return OrganizationPage(
        items=[organization_read(row, int(n)) for row, n in rows.tuples()],
        total=total or 0,
        page=page,
        page_size=page_size,
    )


async def create_organization_for(
    *, session: AsyncSession, actor: Principal, name: str, kind: str, admin_email: str
) -> TeamRead:
    """Staff set up an organization (a company client or a provider agency) with its first admin: the
    person of that e-mail joins at once when they have an account and no organization; otherwise they are
    invited by e-mail (audited)."""
    staff = await _staff(session, actor)
    kind_value = OrganizationKind(kind) if kind in {k.value for k in OrganizationKind} else None
    if kind_value is None:
        raise ValidationFailed(BAD_KIND)
    email = clean_email(admin_email)
    name = clean_name(name)
    person = await session.scalar(select(User).where(func.lower(User.email) == email))
    admin = person if person is not None and await membership_of(session, person.id) is None else None
    row = await create_organization(
        session, name=name, kind=kind_value, admin_user_id=admin.id if admin is not None else None
    )
    if admin is None:
        await send_invitation(
            session,
            organization=row,
            email=email,
            role=MemberRole.admin,
            inviter_id=staff.id,
            inviter_name=staff.name,
        )
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.organization_create,
        target=f"organization {row.id}",
        details={"kind": kind_value.value, "admin_email": email, "invited": admin is None},
    )
    return await get_organization(session=session, actor=actor, organization_id=row.id)


async def get_organization(*, session: AsyncSession, actor: Principal, organization_id: str) -> TeamRead:
    """Staff: one organization and its members (the admin's view, without invitations)."""
    await _staff(session, actor)
    row = await session.get(Organization, organization_id[:36])
    if row is None:
        raise NotFound(NO_ORGANIZATION)
    members = await members_of(session, row.id)
    return TeamRead(
        organization=organization_read(row, len(members)), my_role="member", members=members, invitations=[]
    )


async def rename_organization(
    *, session: AsyncSession, actor: Principal, organization_id: str, name: str
) -> TeamRead:
    """Staff rename an organization (audited: from, to)."""
    staff = await _staff(session, actor)
    row = await session.get(Organization, organization_id[:36], with_for_update=True)
    if row is None:
        raise NotFound(NO_ORGANIZATION)
    name = clean_name(name)
    if name != row.name:
        await audit.record_by(
            session=session,
            account=staff,
            actor=actor,
            action=AuditAction.organization_rename,
            target=f"organization {row.id}",
            details={"from": row.name, "to": name},
        )
        row.name = name
        await session.flush()
        members = await session.scalars(
            select(OrganizationMember.user_id).where(OrganizationMember.organization_id == row.id)
        )
        await stamp_organization(session, list(members), name)
    return await get_organization(session=session, actor=actor, organization_id=row.id)


async def staff_remove_member(
    *, session: AsyncSession, actor: Principal, organization_id: str, user_id: str
) -> TeamRead:
    """Staff remove a member from an organization (never its last admin; audited)."""
    staff = await _staff(session, actor)
    row = await session.get(Organization, organization_id[:36], with_for_update=True)
    if row is None:
        raise NotFound(NO_ORGANIZATION)
    await drop_member(session, row.id, user_id)
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.organization_member_remove,
        target=f"organization {row.id}",
        details={"user_id": user_id, "by_staff": True},
    )
    return await get_organization(session=session, actor=actor, organization_id=row.id)
