"""Provider Onboarding (/staff/onboarding, manage_onboarding): the pipeline as counts per status (one
GROUP BY), a board of the applications in each status, oldest in status first, with their age in status
(one index range of ix_provider_applications_queue per status), an applicant's timeline, and the nudge
job: a draft left alone for NUDGE_IDLE gets a reminder, at most one per NUDGE_EVERY.

The nudge job claims its drafts with an UPDATE whose WHERE repeats the condition (`last_nudged_at` unset or
older than a week), over candidates picked with SKIP LOCKED: several workers may run it at once and each
draft is nudged by one of them only. The scan reads ix_provider_applications_idle (status, updated_at).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.principal import Principal
from app.services.domain_events import IdleDraft, IdleDraftsNudged
from app.services.errors import NotFound
from app.services.shared.accounts import account_of
from app.services.shared.staff_access import require_permission
from models.enrollment import (
    ApplicationEvent,
    ApplicationStatus,
    EventKind,
    ProviderApplication,
)
from models.identity import User, as_utc
from models.staff import Permission
from models.standing import (
    BOARD_LIMIT,
    ApplicantTimeline,
    OnboardingCard,
    OnboardingColumn,
    OnboardingPipeline,
    TimelineEntry,
)

NUDGE_IDLE = timedelta(days=3)
NUDGE_EVERY = timedelta(days=7)
NUDGE_BATCH = 200
NO_APPLICATION = "No application has this id."
MAX_EVENTS = 200


def _days(since: datetime, now: datetime) -> int:
    return max(0, (now - as_utc(since)).days)


def applicant_name(first: str, last: str, email: str | None) -> str:
    return " ".join(p for p in (first, last) if p) or email or "Unnamed applicant"


async def get_onboarding_pipeline(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> OnboardingPipeline:
    """Counts per status and the oldest BOARD_LIMIT applications of each, with their age in status."""
    await require_permission(session=session, actor=actor, permission=Permission.manage_onboarding)
    now = (now or datetime.now(UTC)).astimezone(UTC)
    counts = dict(
        (
            await session.execute(
                select(ProviderApplication.status, func.count()).group_by(ProviderApplication.status)
            )
        )
        .tuples()
        .all()
    )
    columns = []
    for status in ApplicationStatus:
        rows: Sequence[tuple[ProviderApplication, str | None]] = []
        if counts.get(status):
            rows = (
                (
                    await session.execute(
                        select(ProviderApplication, User.email)
                        .join(User, User.id == ProviderApplication.user_id)
                        .where(ProviderApplication.status == status)
                        .order_by(ProviderApplication.status_changed_at, ProviderApplication.id)
                        .limit(BOARD_LIMIT)
                    )
                )
                .tuples()
                .all()
            )
        cards = [
            OnboardingCard(
                id=a.id,
                name=applicant_name(a.first_name, a.last_name, email),
                provider_type=a.provider_type,
                status=a.status,
                step=a.step,
                status_changed_at=as_utc(a.status_changed_at),
                days_in_status=_days(a.status_changed_at, now),
                last_nudged_at=as_utc(a.last_nudged_at),
            )
            for a, email in rows
        ]
        columns.append(OnboardingColumn(status=status, count=counts.get(status, 0), cards=cards))
    return OnboardingPipeline(columns=columns, total=sum(counts.values()))


async def timeline_entries(
    session: AsyncSession, application_ids: list[str], applicant_id: str | None
) -> list[TimelineEntry]:
    """The timeline of these applications, newest first, with who acted (one query)."""
    if not application_ids:
        return []
    rows = (
        await session.execute(
            select(ApplicationEvent, User)
            .outerjoin(User, User.id == ApplicationEvent.actor_id)
            .where(ApplicationEvent.application_id.in_(application_ids))
            .order_by(ApplicationEvent.at.desc(), ApplicationEvent.id)
            .limit(MAX_EVENTS)
        )
    ).all()
    entries = []
    for event, user in rows:
        if event.actor_id is None:
            who = "System"
        elif event.actor_id == applicant_id:
            who = "Applicant"
        else:
            who = account_of(user).name if user is not None else "Staff member"
        entries.append(
            TimelineEntry(
                id=event.id,
                at=as_utc(event.at),
                kind=event.kind,
                actor=who,
                details=dict(event.details or {}),
            )
        )
    return entries


async def get_applicant_timeline(
    *, session: AsyncSession, actor: Principal, application_id: str
) -> ApplicantTimeline:
    """An application's summary and its timeline (every event, newest first)."""
    await require_permission(session=session, actor=actor, permission=Permission.manage_onboarding)
    found = (
        await session.execute(
            select(ProviderApplication, User.email)
            .join(User, User.id == ProviderApplication.user_id)
            .where(ProviderApplication.id == application_id[:36])
        )
    ).first()
    if found is None:
        raise NotFound(NO_APPLICATION)
    a, email = found
    return ApplicantTimeline(
        id=a.id,
        name=applicant_name(a.first_name, a.last_name, email),
        email=email or "",
        provider_type=a.provider_type,
        status=a.status,
        step=a.step,
        created_at=as_utc(a.created_at),
        status_changed_at=as_utc(a.status_changed_at),
        last_nudged_at=as_utc(a.last_nudged_at),
        provider_id=a.provider_id,
        events=await timeline_entries(session, [a.id], a.user_id),
    )


def _idle(now: datetime) -> tuple[ColumnElement[bool], ...]:
    return (
        ProviderApplication.status == ApplicationStatus.draft,
        ProviderApplication.updated_at <= now - NUDGE_IDLE,
        or_(
            ProviderApplication.last_nudged_at.is_(None),
            ProviderApplication.last_nudged_at <= now - NUDGE_EVERY,
        ),
    )


async def nudge_idle_drafts(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Remind the applicants whose draft has not changed for NUDGE_IDLE, at most once per NUDGE_EVERY: a
    notification (and its e-mail, as their preferences say) and a 'nudged' line on the timeline. Returns
    how many were nudged. Safe to run from several workers at once."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    candidates = (
        select(ProviderApplication.id)
        .where(*_idle(now))
        .order_by(ProviderApplication.updated_at)
        .limit(NUDGE_BATCH)
        .with_for_update(skip_locked=True)
    )
    claimed = (
        await session.execute(
            update(ProviderApplication)
            .where(ProviderApplication.id.in_(candidates.scalar_subquery()), *_idle(now))
            .values(last_nudged_at=now)
            .returning(ProviderApplication.id, ProviderApplication.user_id, ProviderApplication.step)
            .execution_options(synchronize_session=False)
        )
    ).all()
    if not claimed:
        return 0
    session.add_all(
        ApplicationEvent(
            application_id=application_id, kind=EventKind.nudged, actor_id=None, at=now, details={}
        )
        for application_id, _user, _step in claimed
    )
    await events.publish_event(
        session,
        IdleDraftsNudged(
            drafts=tuple(
                IdleDraft(application_id=application_id, user_id=user_id, step=step)
                for application_id, user_id, step in claimed
            ),
            at=now,
        ),
    )
    return len(claimed)
