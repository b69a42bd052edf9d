"""Leads: the public /corporate enquiry (anyone; rate-limited per visitor or account and per address like
the other public forms), and staff's work on them (manage_services): the list by status, newest first and
paginated; status steps, assignment and notes, each audited."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.corporate._rules import (
    BAD_STEP,
    LEAD_STEPS,
    NO_LEAD,
    NOT_ASSIGNABLE,
    NOTE_REQUIRED,
    NOTE_TOO_LONG,
    PAGE_SIZE,
    TOO_MANY,
    WON_BY_CONTRACT,
    clean,
    enquiry_problems,
    offered_services,
    require_corporate_staff,
)
from app.services.domain_events import CorporateLeadAssigned, CorporateLeadReceived
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.accounts import account_of
from app.services.shared.rate_limits import limit
from app.services.shared.staff_access import members_with
from app.services.validation import e164_phone
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.catalog import Service
from models.corporate import (
    MAX_NOTE,
    CorporateContract,
    CorporateLead,
    CorporateLeadNote,
    EnquiryCreate,
    LeadNoteRead,
    LeadPage,
    LeadRead,
    LeadStatus,
)
from models.identity import User, as_utc
from models.staff import Permission

MAX_NOTES_SHOWN = 10  # the latest notes of each lead
MAX_NOTES_READ = 500  # of a page of leads at once


class EnquiryInvalid(ValidationFailed):
    """An enquiry as typed has problems: `errors` maps each field to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())))
        self.errors = errors


async def submit_enquiry(*, session: AsyncSession, actor: Principal, data: EnquiryCreate) -> LeadRead:
    """Anyone (a visitor or a signed-in person) asks about corporate services: a new lead for staff."""
    offered = dict(await offered_services(session=session))
    problems = enquiry_problems(data, set(offered))
    if problems:
        raise EnquiryInvalid(problems)
    settings = get_settings()
    for scope, keys, per_window in (
        ("corporate_enquiries", [actor.user_id or actor.visitor_id], settings.rate_limit_bug_reports),
        ("corporate_enquiries_ip", [actor.ip], settings.rate_limit_bug_reports_per_ip),
    ):
        await limit(scope, keys, per_window=per_window, window=settings.abuse_limit_window, message=TOO_MANY)
    row = CorporateLead(
        company=clean(data.company),
        contact_name=clean(data.contact_name),
        email=data.email.strip().lower(),
        phone=e164_phone(data.phone),
        site_count=int(data.site_count.strip().replace(",", "")),
        site_location=clean(data.site_location),
        headcount=int(data.headcount.strip().replace(",", "")),
        services=list(dict.fromkeys(data.services)),
        dates_wanted=clean(data.dates_wanted),
        message=data.message.strip(),
        status=LeadStatus.new,
    )
    session.add(row)
    await session.flush()
    await events.publish_event(
        session,
        CorporateLeadReceived(
            lead_id=row.id, company=row.company, headcount=row.headcount, site_count=row.site_count
        ),
    )
    return (await _reads(session, [row]))[0]


async def _reads(
    session: AsyncSession, rows: Sequence[CorporateLead], *, with_notes: bool = False
) -> list[LeadRead]:
    """LeadReads of `rows` in four queries at most (service names, assignees, contracts, notes)."""
    if not rows:
        return []
    slugs = {slug for row in rows for slug in row.services}
    names = dict(
        (await session.execute(select(Service.slug, Service.name).where(Service.slug.in_(slugs)))).all()
    )
    assignee_ids = {row.assigned_to for row in rows if row.assigned_to}
    assignees = (
        {
            user.id: account_of(user).name
            for user in await session.scalars(select(User).where(User.id.in_(assignee_ids)))
        }
        if assignee_ids
        else {}
    )
    ids = [row.id for row in rows]
    contracts = dict(
        (
            await session.execute(
                select(CorporateContract.lead_id, CorporateContract.id).where(
                    CorporateContract.lead_id.in_(ids)
                )
            )
        ).all()
    )
    notes: dict[str, list[LeadNoteRead]] = {lead_id: [] for lead_id in ids}
    if with_notes:
        found = await session.scalars(
            select(CorporateLeadNote)
            .where(CorporateLeadNote.lead_id.in_(ids))
            .order_by(CorporateLeadNote.created_at.desc())
            .limit(MAX_NOTES_READ)
        )
        for note in found:
            if len(notes[note.lead_id]) < MAX_NOTES_SHOWN:
                notes[note.lead_id].append(
                    LeadNoteRead(
                        author_name=note.author_name, body=note.body, created_at=as_utc(note.created_at)
                    )
                )
    return [
        LeadRead(
            id=row.id,
            company=row.company,
            contact_name=row.contact_name,
            email=row.email,
            phone=row.phone,
            site_count=row.site_count,
            site_location=row.site_location,
            headcount=row.headcount,
            services=[names.get(slug, slug) for slug in row.services],
            service_slugs=list(row.services),
            dates_wanted=row.dates_wanted,
            message=row.message,
            status=row.status,
            assigned_to=row.assigned_to,
            assigned_name=assignees.get(row.assigned_to or "", ""),
            organization_id=row.organization_id,
            contract_id=contracts.get(row.id),
            created_at=as_utc(row.created_at),
            notes=notes[row.id],
        )
        for row in rows
    ]


async def list_leads(
    *,
    session: AsyncSession,
    actor: Principal,
    status: str = "",
    mine: bool = False,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> LeadPage:
    """Staff: leads newest first, of one status (any other value: all) and, with `mine`, assigned to the
    signed-in member."""
    staff = await require_corporate_staff(session=session, actor=actor)
    page, page_size = max(1, page), max(1, min(page_size, 100))
    query = select(CorporateLead)
    if status in {s.value for s in LeadStatus}:
        query = query.where(CorporateLead.status == status)
    if mine:
        query = query.where(CorporateLead.assigned_to == staff.id)
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = await session.scalars(
        query.order_by(CorporateLead.created_at.desc(), CorporateLead.id)
        .limit(page_size)
        .offset((page - 1) * page_size)
    )
    items = await _reads(session, rows.all(), with_notes=True)
    return LeadPage(items=items, total=total or 0, page=page, page_size=page_size)


async def _lead(session: AsyncSession, lead_id: str, *, lock: bool = False) -> CorporateLead:
    row = await session.get(CorporateLead, (lead_id or "")[:36], with_for_update=lock)
    if row is None:
        raise NotFound(NO_LEAD)
    return row


async def get_lead(*, session: AsyncSession, actor: Principal, lead_id: str) -> LeadRead:
    """Staff: one lead with its notes, newest first."""
    await require_corporate_staff(session=session, actor=actor)
    return (await _reads(session, [await _lead(session, lead_id)], with_notes=True))[0]


async def list_lead_assignees(*, session: AsyncSession, actor: Principal) -> list[AccountRead]:
    """Staff: who a lead may be assigned to (the members holding manage_services)."""
    await require_corporate_staff(session=session, actor=actor)
    return await members_with(session=session, permission=Permission.manage_services)


async def update_lead(
    *,
    session: AsyncSession,
    actor: Principal,
    lead_id: str,
    status: str | None = None,
    assigned_to: str | None = None,
) -> LeadRead:
    """Staff move a lead to its next status (won only through its contract) and/or assign it ('' to
    unassign); each change audited with from and to."""
    staff = await require_corporate_staff(session=session, actor=actor)
    row = await _lead(session, lead_id, lock=True)
    changed: dict[str, dict[str, str | None]] = {}
    if status is not None and status != row.status.value:
        to = LeadStatus(status) if status in {s.value for s in LeadStatus} else None
        if to is LeadStatus.won:
            raise ValidationFailed(WON_BY_CONTRACT)
        if to is None or to not in LEAD_STEPS[row.status]:
            raise ValidationFailed(BAD_STEP.format(now=row.status.value, to=status[:20]))
        changed["status"] = {"from": row.status.value, "to": to.value}
        row.status = to
    if assigned_to is not None and (assigned_to or None) != row.assigned_to:
        if assigned_to:
            allowed = await members_with(session=session, permission=Permission.manage_services)
            if assigned_to not in {account.id for account in allowed}:
                raise ValidationFailed(NOT_ASSIGNABLE)
        changed["assigned_to"] = {"from": row.assigned_to, "to": assigned_to or None}
        row.assigned_to = assigned_to or None
        if assigned_to and assigned_to != staff.id:
            await events.publish_event(
                session,
                CorporateLeadAssigned(
                    lead_id=row.id,
                    assignee_id=assigned_to,
                    company=row.company,
                    status=row.status.value,
                    by_name=staff.name,
                ),
            )
    if changed:
        await session.flush()
        await audit.record_by(
            session=session,
            account=staff,
            actor=actor,
            action=AuditAction.lead_update,
            target=f"lead {row.id}",
            details=changed,
        )
    return (await _reads(session, [row], with_notes=True))[0]


async def add_lead_note(*, session: AsyncSession, actor: Principal, lead_id: str, body: str) -> LeadRead:
    """Staff add a note to a lead (audited; the note's text stays on the lead, not in the log)."""
    staff = await require_corporate_staff(session=session, actor=actor)
    row = await _lead(session, lead_id)
    text = (body or "").strip()
    if not text:
        raise ValidationFailed(NOTE_REQUIRED)
    if len(text) > MAX_NOTE:
        raise ValidationFailed(NOTE_TOO_LONG.format(limit=MAX_NOTE))
    session.add(CorporateLeadNote(lead_id=row.id, author_id=staff.id, author_name=staff.name, body=text))
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.lead_update,
        target=f"lead {row.id}",
        details={"note": "added"},
    )
    return (await _reads(session, [row], with_notes=True))[0]
