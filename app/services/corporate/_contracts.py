"""Contracts: staff (manage_services) turn a lead at the proposal step into a contract — the lead is then
won, and its organization is created if it has none (the contact becomes its admin: at once when they have
an account, else by an e-mailed invitation) — and move it draft → active → ended. Who reads a contract:
staff, its organization's admins, and the providers booked on one of its event days
(`/dashboard/contracts`). Reads are batched: a page of contracts costs a fixed number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.corporate._rules import (
    PAGE_SIZE,
    clean,
    parse_price,
    require_corporate_staff,
    zip_time_zone,
)
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.organizations import clean_email
from app.services.organizations.internal import create_organization, membership_of, send_invitation
from app.services.providers import display_name
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from models.account import AccountRead
from models.audit import AuditAction
from models.booking import Appointment
from models.catalog import Service
from models.corporate import (
    MAX_SITES_TEXT,
    MAX_TITLE,
    ContractCreate,
    ContractPage,
    ContractRead,
    ContractServiceRead,
    ContractStatus,
    CorporateContract,
    CorporateContractService,
    CorporateEventDay,
    CorporateEventVisit,
    CorporateLead,
    EventDayRead,
    EventVisitRead,
    LeadStatus,
)
from models.identity import User, as_utc
from models.invoice import Invoice
from models.organization import MemberRole, Organization, OrganizationKind, OrganizationMember
from models.provider import Provider
from models.staff import Permission

C = ContractStatus
CONTRACT_STEPS: dict[ContractStatus, tuple[ContractStatus, ...]] = {
    C.draft: (C.active, C.ended),
    C.active: (C.ended,),
    C.ended: (),
}
MAX_YEARS = 5
MAX_MINE = 50

NO_CONTRACT = "No contract has this id."
NO_ACCESS = "You don't have access to this contract."
LEAD_NOT_READY = "Create the contract once the lead has reached the proposal step (it is {status})."
HAS_CONTRACT = "This lead already has its contract."
TITLE_REQUIRED = "Enter the contract's title, e.g. Flu shots, autumn."
TITLE_TOO_LONG = f"The title can be at most {MAX_TITLE} characters."
SITES_TOO_LONG = f"The sites can be at most {MAX_SITES_TEXT} characters."
BAD_PERIOD = "The contract must end on or after the day it starts, within five years."
NO_SERVICES = "Add at least one service with its agreed price."
BAD_SERVICE = "Choose services from the catalog, each once."
BAD_CONTRACT_STEP = "A {now} contract can't be marked {to}."
ENDED = "An ended contract can't be changed."
SERVICE_IN_USE = "{service} has event days booked, so it stays in the contract."
DAYS_OUTSIDE = "Event days are booked from {first} to {last}: the period must include them."


async def _is_staff(session: AsyncSession, account: AccountRead) -> bool:
    return Permission.manage_services in await permissions_of(session=session, account=account)


def _clean_fields(data: ContractCreate) -> tuple[str, str]:
    title, sites = clean(data.title), (data.sites or "").strip()
    if not title:
        raise ValidationFailed(TITLE_REQUIRED)
    if len(title) > MAX_TITLE:
        raise ValidationFailed(TITLE_TOO_LONG)
    if len(sites) > MAX_SITES_TEXT:
        raise ValidationFailed(SITES_TOO_LONG)
    if not data.starts_on <= data.ends_on <= data.starts_on + timedelta(days=366 * MAX_YEARS):
        raise ValidationFailed(BAD_PERIOD)
    return title, sites


async def _clean_services(session: AsyncSession, data: ContractCreate) -> list[tuple[str, int]]:
    if not data.services:
        raise ValidationFailed(NO_SERVICES)
    slugs = [line.service_slug for line in data.services]
    if len(set(slugs)) != len(slugs) or len(slugs) > 20:
        raise ValidationFailed(BAD_SERVICE)
    ids = dict(
        (
            await session.execute(
                select(Service.slug, Service.id).where(Service.slug.in_(slugs), Service.is_active.is_(True))
            )
        ).all()
    )
    if len(ids) != len(slugs):
        raise ValidationFailed(BAD_SERVICE)
    return [(ids[line.service_slug], parse_price(line.price)) for line in data.services]


async def _organization_for(session: AsyncSession, lead: CorporateLead, staff: AccountRead) -> Organization:
    """The lead's organization, or a new company one whose first admin is the lead's contact (their account
    joins at once; without an account, or in another organization, they are invited by e-mail)."""
    if lead.organization_id:
        found = await session.get(Organization, lead.organization_id)
        if found is not None:
            return found
    contact = await session.scalar(select(User).where(func.lower(User.email) == lead.email))
    admin = contact if contact is not None and await membership_of(session, contact.id) is None else None
    organization = await create_organization(
        session,
        name=lead.company,
        kind=OrganizationKind.company,
        admin_user_id=admin.id if admin is not None else None,
    )
    if admin is None:
        await send_invitation(
            session,
            organization=organization,
            email=clean_email(lead.email),
            role=MemberRole.admin,
            inviter_id=staff.id,
            inviter_name=staff.name,
        )
    return organization


async def create_contract(
    *, session: AsyncSession, actor: Principal, lead_id: str, data: ContractCreate
) -> ContractRead:
    """Staff turn a lead at the proposal step into a draft contract; the lead is won (both audited)."""
    staff = await require_corporate_staff(session=session, actor=actor)
    lead = await session.get(CorporateLead, (lead_id or "")[:36], with_for_update=True)
    if lead is None:
        raise NotFound("No lead has this id.")
    if await session.scalar(select(CorporateContract.id).where(CorporateContract.lead_id == lead.id)):
        raise ValidationFailed(HAS_CONTRACT)
    if lead.status is not LeadStatus.proposal:
        raise ValidationFailed(LEAD_NOT_READY.format(status=lead.status.value))
    title, sites = _clean_fields(data)
    services = await _clean_services(session, data)
    billing = clean_email(data.billing_email or lead.email)
    organization = await _organization_for(session, lead, staff)
    row = CorporateContract(
        organization_id=organization.id,
        lead_id=lead.id,
        title=title,
        sites=sites,
        billing_email=billing,
        starts_on=data.starts_on,
        ends_on=data.ends_on,
        status=C.draft,
    )
    session.add(row)
    await session.flush()
    session.add_all(
        CorporateContractService(contract_id=row.id, service_id=service_id, price_cents=cents)
        for service_id, cents in services
    )
    lead.status, lead.organization_id = LeadStatus.won, organization.id
    await session.flush()
    for action, target, details in (
        (AuditAction.lead_update, f"lead {lead.id}", {"status": {"from": "proposal", "to": "won"}}),
        (
            AuditAction.contract_create,
            f"contract {row.id}",
            {"organization_id": organization.id, "lead_id": lead.id},
        ),
    ):
        await audit.record_by(
            session=session, account=staff, actor=actor, action=action, target=target, details=details
        )
    return (await contract_reads(session, [row]))[0]


async def update_contract(
    *, session: AsyncSession, actor: Principal, contract_id: str, data: ContractCreate
) -> ContractRead:
    """Staff change a draft or active contract: title, sites, billing e-mail, period (still covering its
    event days) and services with their prices (one with event days stays). Days already booked keep the
    price they were booked at. Audited: the changed fields."""
    staff = await require_corporate_staff(session=session, actor=actor)
    row = await session.get(CorporateContract, (contract_id or "")[:36], with_for_update=True)
    if row is None:
        raise NotFound(NO_CONTRACT)
    if row.status is C.ended:
        raise ValidationFailed(ENDED)
    title, sites = _clean_fields(data)
    services = dict(await _clean_services(session, data))
    billing = clean_email(data.billing_email)
    days = (
        await session.execute(
            select(
                CorporateEventDay.service_id, CorporateEventDay.starts_at, CorporateEventDay.zip_code
            ).where(CorporateEventDay.contract_id == row.id)
        )
    ).all()
    local_days = sorted(
        as_utc(starts).astimezone(ZoneInfo(zip_time_zone(zip_code))).date() for _s, starts, zip_code in days
    )
    if local_days and not data.starts_on <= local_days[0] <= local_days[-1] <= data.ends_on:
        raise ValidationFailed(DAYS_OUTSIDE.format(first=local_days[0], last=local_days[-1]))
    lines = {
        line.service_id: line
        for line in await session.scalars(
            select(CorporateContractService).where(CorporateContractService.contract_id == row.id)
        )
    }
    for service_id in {service_id for service_id, _starts, _zip in days} - set(services):
        name = await session.scalar(select(Service.name).where(Service.id == service_id))
        raise ValidationFailed(SERVICE_IN_USE.format(service=name))
    changed: dict[str, object] = {}
    services_changed: list[dict[str, object]] = []
    for field, value in (
        ("title", title),
        ("sites", sites),
        ("billing_email", billing),
        ("starts_on", data.starts_on),
        ("ends_on", data.ends_on),
    ):
        if getattr(row, field) != value:
            changed[field] = {"from": str(getattr(row, field)), "to": str(value)}
            setattr(row, field, value)
    for service_id, line in lines.items():
        if service_id not in services:
            await session.delete(line)
            services_changed.append({"removed": service_id})
        elif line.price_cents != services[service_id]:
            services_changed.append(
                {"service": service_id, "from": line.price_cents, "to": services[service_id]}
            )
            line.price_cents = services[service_id]
    for service_id in set(services) - set(lines):
        session.add(
            CorporateContractService(
                contract_id=row.id, service_id=service_id, price_cents=services[service_id]
            )
        )
        services_changed.append({"added": service_id})
    if services_changed:
        changed["services"] = services_changed
    await session.flush()
    if changed:
        await audit.record_by(
            session=session,
            account=staff,
            actor=actor,
            action=AuditAction.contract_update,
            target=f"contract {row.id}",
            details=changed,
        )
    return (await contract_reads(session, [row]))[0]


async def set_contract_status(
    *, session: AsyncSession, actor: Principal, contract_id: str, status: str
) -> ContractRead:
    """Staff move a contract draft → active → ended (audited)."""
    staff = await require_corporate_staff(session=session, actor=actor)
    row = await session.get(CorporateContract, (contract_id or "")[:36], with_for_update=True)
    if row is None:
        raise NotFound(NO_CONTRACT)
    to = ContractStatus(status) if status in {s.value for s in C} else None
    if to is None or to not in CONTRACT_STEPS[row.status]:
        raise ValidationFailed(BAD_CONTRACT_STEP.format(now=row.status.value, to=(status or "")[:20]))
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.contract_update,
        target=f"contract {row.id}",
        details={"status": {"from": row.status.value, "to": to.value}},
    )
    row.status = to
    await session.flush()
    return (await contract_reads(session, [row]))[0]


async def contract_reads(session: AsyncSession, rows: Sequence[CorporateContract]) -> list[ContractRead]:
    """ContractReads of `rows`, in order, in five queries whatever their number."""
    if not rows:
        return []
    ids = [row.id for row in rows]
    organizations = dict(
        (
            await session.execute(
                select(Organization.id, Organization.name).where(
                    Organization.id.in_({row.organization_id for row in rows})
                )
            )
        ).all()
    )
    services: dict[str, list[ContractServiceRead]] = {contract_id: [] for contract_id in ids}
    for line, service in (
        await session.execute(
            select(CorporateContractService, Service)
            .join(Service, Service.id == CorporateContractService.service_id)
            .where(CorporateContractService.contract_id.in_(ids))
            .order_by(Service.position, Service.name)
        )
    ).tuples():
        services[line.contract_id].append(
            ContractServiceRead(
                service_id=service.id,
                service_slug=service.slug,
                service_name=service.name,
                price_cents=line.price_cents,
            )
        )
    days = (
        (
            await session.execute(
                select(CorporateEventDay, Service.name, Invoice.number)
                .join(Service, Service.id == CorporateEventDay.service_id)
                .outerjoin(Invoice, Invoice.id == CorporateEventDay.invoice_id)
                .where(CorporateEventDay.contract_id.in_(ids))
                .order_by(CorporateEventDay.starts_at, CorporateEventDay.id)
            )
        )
        .tuples()
        .all()
    )
    visits: dict[str, list[EventVisitRead]] = {day.id: [] for day, _n, _i in days}
    if days:
        for event_day_id, appointment_id, status, first, last, provider_id in (
            await session.execute(
                select(
                    CorporateEventVisit.event_day_id,
                    Appointment.id,
                    Appointment.status,
                    Provider.first_name,
                    Provider.last_name,
                    Provider.id,
                )
                .join(Appointment, Appointment.id == CorporateEventVisit.appointment_id)
                .join(Provider, Provider.id == CorporateEventVisit.provider_id)
                .where(CorporateEventVisit.event_day_id.in_(list(visits)))
                .order_by(Provider.last_name, Provider.first_name)
            )
        ).tuples():
            visits[event_day_id].append(
                EventVisitRead(
                    appointment_id=appointment_id,
                    provider_id=provider_id,
                    provider_name=display_name(first, last),
                    status=status.value,
                )
            )
    by_contract: dict[str, list[EventDayRead]] = {contract_id: [] for contract_id in ids}
    for day, service_name, invoice_number in days:
        by_contract[day.contract_id].append(
            EventDayRead(
                id=day.id,
                service_name=service_name,
                starts_at=as_utc(day.starts_at),
                ends_at=as_utc(day.ends_at),
                address_line=day.address_line,
                zip_code=day.zip_code,
                time_zone=zip_time_zone(day.zip_code),
                price_cents=day.price_cents,
                visits=visits[day.id],
                invoice_number=invoice_number,
            )
        )
    return [
        ContractRead(
            id=row.id,
            organization_id=row.organization_id,
            organization_name=organizations.get(row.organization_id, ""),
            lead_id=row.lead_id,
            title=row.title,
            sites=row.sites,
            billing_email=row.billing_email,
            starts_on=row.starts_on,
            ends_on=row.ends_on,
            status=row.status,
            services=services[row.id],
            event_days=by_contract[row.id],
        )
        for row in rows
    ]


async def list_contracts(
    *, session: AsyncSession, actor: Principal, status: str = "", page: int = 1, page_size: int = PAGE_SIZE
) -> ContractPage:
    """Staff: contracts newest first, of one status (any other value: all)."""
    await require_corporate_staff(session=session, actor=actor)
    page, page_size = max(1, page), max(1, min(page_size, 50))
    query = select(CorporateContract)
    if status in {s.value for s in C}:
        query = query.where(CorporateContract.status == status)
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = await session.scalars(
        query.order_by(CorporateContract.created_at.desc(), CorporateContract.id)
        .limit(page_size)
        .offset((page - 1) * page_size)
    )
    items = await contract_reads(session, rows.all())
    return ContractPage(items=items, total=total or 0, page=page, page_size=page_size)


def _visible_to(account_id: str) -> ColumnElement[bool]:
    """Contracts of an organization the account administers, or with an event-day visit of its provider
    profile."""
    administers = select(OrganizationMember.organization_id).where(
        OrganizationMember.user_id == account_id, OrganizationMember.role == MemberRole.admin
    )
    booked = (
        select(CorporateEventDay.contract_id)
        .join(CorporateEventVisit, CorporateEventVisit.event_day_id == CorporateEventDay.id)
        .join(Provider, Provider.id == CorporateEventVisit.provider_id)
        .where(Provider.user_id == account_id)
    )
    return CorporateContract.organization_id.in_(administers) | CorporateContract.id.in_(booked)


async def list_my_contracts(*, session: AsyncSession, actor: Principal) -> list[ContractRead]:
    """The contracts the signed-in person may read: their organization's (as its admin) and those they are
    booked on as a provider; newest first, at most MAX_MINE."""
    account = await require_account(session=session, actor=actor)
    rows = await session.scalars(
        select(CorporateContract)
        .where(_visible_to(account.id))
        .order_by(CorporateContract.created_at.desc(), CorporateContract.id)
        .limit(MAX_MINE)
    )
    return await contract_reads(session, rows.all())


async def get_contract(*, session: AsyncSession, actor: Principal, contract_id: str) -> ContractRead:
    """One contract, for staff, its organization's admins and its booked providers; PermissionDenied for
    anyone else."""
    account = await require_account(session=session, actor=actor)
    row = await session.get(CorporateContract, (contract_id or "")[:36])
    if row is None:
        raise NotFound(NO_CONTRACT)
    if not await _is_staff(session, account):
        visible = await session.scalar(
            select(CorporateContract.id).where(CorporateContract.id == row.id, _visible_to(account.id))
        )
        if visible is None:
            raise PermissionDenied(NO_ACCESS)
    return (await contract_reads(session, [row]))[0]
