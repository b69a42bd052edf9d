"""Job postings: HR writes them (title, team, location, employment type, a Markdown description) and moves
them between draft, open and closed, every change audited; anyone reads the open ones. HR's list carries
each posting's application counts from one grouped query."""

from __future__ import annotations

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.careers._access import can_manage_careers, require_hr
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.addresses import STATE_CODES
from app.services.shared.articles import apply_changes, free_slug, one_line
from app.services.shared.markdown import render_markdown
from models.audit import AuditAction
from models.base import utcnow
from models.careers import (
    MAX_CITY,
    MAX_DESCRIPTION,
    MAX_POSTINGS,
    MAX_SLUG,
    MAX_TEAM,
    MAX_TITLE,
    PAGE_SIZE,
    ApplicationStatus,
    CareerApplication,
    CareerPosting,
    EmploymentType,
    PostingDetailRead,
    PostingListRead,
    PostingRead,
    PostingStatus,
    PostingWrite,
)
from models.identity import as_utc

NOT_FOUND = "This job is not open any more, or it does not exist."
TITLE_NEEDED = "Give the job a title."
TITLE_TOO_LONG = f"Keep the title under {MAX_TITLE} characters."
TEAM_NEEDED = "Name the team this job is in."
TEAM_TOO_LONG = f"Keep the team under {MAX_TEAM} characters."
CITY_NEEDED = "Give the job's city, or tick Remote."
CITY_TOO_LONG = f"Keep the city under {MAX_CITY} characters."
STATE_NEEDED = "Choose the job's state, or tick Remote."
TYPE_NEEDED = "Choose the employment type."
DESCRIPTION_NEEDED = "Describe the job."
DESCRIPTION_TOO_LONG = f"Keep the description under {MAX_DESCRIPTION:,} characters."
STATUS_NEEDED = "Choose whether the job is a draft, open or closed."
FULL = f"At most {MAX_POSTINGS} job postings can be kept: delete an old one first."
PUBLIC_LIMIT = 100  # open jobs on /careers: far more than a company this size posts at once


def posting_read(row: CareerPosting, counts: dict[str, tuple[int, int]] | None = None) -> PostingRead:
    total, new = (counts or {}).get(row.id, (0, 0))
    return PostingRead(
        id=row.id,
        slug=row.slug,
        title=row.title,
        team=row.team,
        remote=row.remote,
        city=row.city,
        state=row.state,
        employment_type=row.employment_type,
        status=row.status,
        opened_at=as_utc(row.opened_at),
        updated_at=as_utc(row.updated_at),
        applications=total,
        new_applications=new,
    )


async def list_open_postings(*, session: AsyncSession, actor: Principal) -> list[PostingRead]:
    """The open jobs, newest first: the public /careers list (anyone may read it)."""
    del actor  # public
    rows = await session.scalars(
        select(CareerPosting)
        .where(CareerPosting.status == PostingStatus.open)
        .order_by(CareerPosting.opened_at.desc(), CareerPosting.title)
        .limit(PUBLIC_LIMIT)
    )
    return [posting_read(row) for row in rows]


async def list_postings(*, session: AsyncSession, actor: Principal, page: int = 1) -> PostingListRead:
    """HR: every posting, drafts and closed ones too, latest change first, PAGE_SIZE a page, with how many
    applications each received (and how many are new) from one grouped query."""
    await require_hr(session, actor)
    page = max(1, min(int(page), 1_000))
    rows = (
        await session.scalars(
            select(CareerPosting)
            .order_by(CareerPosting.updated_at.desc(), CareerPosting.id)
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE + 1)
        )
    ).all()
    shown = rows[:PAGE_SIZE]
    counts: dict[str, tuple[int, int]] = {}
    if shown:
        grouped = await session.execute(
            select(
                CareerApplication.posting_id,
                func.count(),
                func.sum(case((CareerApplication.status == ApplicationStatus.new, 1), else_=0)),
            )
            .where(CareerApplication.posting_id.in_([row.id for row in shown]))
            .group_by(CareerApplication.posting_id)
        )
        counts = {posting: (int(total), int(new or 0)) for posting, total, new in grouped.tuples()}
    return PostingListRead(
        postings=[posting_read(row, counts) for row in shown], page=page, has_more=len(rows) > PAGE_SIZE
    )


async def get_posting(*, session: AsyncSession, actor: Principal, slug: str) -> PostingDetailRead:
    """One posting: open ones for anyone, drafts and closed ones only for HR (anyone else: NotFound)."""
    manager = await can_manage_careers(session=session, actor=actor)
    row = await session.scalar(select(CareerPosting).where(CareerPosting.slug == (slug or "")[:MAX_SLUG]))
    if row is None or (row.status != PostingStatus.open and not manager):
        raise NotFound(NOT_FOUND)
    return PostingDetailRead(
        **posting_read(row).model_dump(),
        description=row.description if manager else "",
        description_html=render_markdown(row.description),
        can_manage=manager,
    )


def _checked(data: PostingWrite) -> dict[str, object]:
    title, team = one_line(data.title), one_line(data.team)
    city, state = one_line(data.city), data.state.strip().upper()
    description = data.description.strip()
    kind, status = data.employment_type.strip().lower(), data.status.strip().lower()
    remote = bool(data.remote)
    for problem, broken in (
        (TITLE_NEEDED, not title),
        (TITLE_TOO_LONG, len(title) > MAX_TITLE),
        (TEAM_NEEDED, not team),
        (TEAM_TOO_LONG, len(team) > MAX_TEAM),
        (CITY_NEEDED, not remote and not city),
        (CITY_TOO_LONG, len(city) > MAX_CITY),
        (STATE_NEEDED, not remote and state not in STATE_CODES),
        (TYPE_NEEDED, kind not in EmploymentType.__members__),
        (DESCRIPTION_NEEDED, not description),
        (DESCRIPTION_TOO_LONG, len(description) > MAX_DESCRIPTION),
        (STATUS_NEEDED, status not in PostingStatus.__members__),
    ):
        if broken:
            raise ValidationFailed(problem)
    return {
        "title": title,
        "team": team,
        "remote": remote,
        "city": "" if remote else city,
        "state": "" if remote else state,
        "employment_type": EmploymentType(kind),
        "description": description,
        "status": PostingStatus(status),
    }


async def save_posting(
    *, session: AsyncSession, actor: Principal, data: PostingWrite, slug: str | None = None
) -> PostingDetailRead:
    """HR: create a posting (`slug` None; its slug comes from the title) or change one, its status too
    (draft, open, closed). Audited with the fields changed."""
    account = await require_hr(session, actor)
    values = _checked(data)
    creating = slug is None
    row: CareerPosting | None
    if slug is None:
        postings = (await session.execute(select(func.count()).select_from(CareerPosting))).scalar_one()
        if postings >= MAX_POSTINGS:
            raise ValidationFailed(FULL)
        row = CareerPosting(slug=await free_slug(session, CareerPosting.slug, str(values["title"])), **values)
        session.add(row)
        changed = sorted(values)
    else:
        row = await session.scalar(
            select(CareerPosting).where(CareerPosting.slug == slug[:MAX_SLUG]).with_for_update()
        )
        if row is None:
            raise NotFound(NOT_FOUND)
        changed = apply_changes(row, values)
    now = utcnow()
    if row.status == PostingStatus.open and row.opened_at is None:
        row.opened_at = now
    row.updated_at, row.updated_by = now, account.id
    await session.flush()
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=AuditAction.career_posting_edit,
        target=f"job posting {row.slug}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details={"title": row.title, "fields": changed, "created": creating, "status": row.status.value},
    )
    return await get_posting(session=session, actor=actor, slug=row.slug)
