"""Provider Management (/staff/providers, manage_providers): every provider with its standing, type, rating,
completed visits and nearest licence expiry; a provider's page (profile, licences, documents, visit summary);
the audit of every decision about a provider (view_provider_logs); suspending and reinstating, each with a
reason, on the provider's timeline and in the audit log.

The list is one statement per page (≤ 50 rows): the visits and nearest expiry are correlated aggregates
over the page's rows (ix_appointments_provider_starts, ix_provider_licenses_provider_expires), the order is
ix_providers_last_name_lower's, and a name is searched as a case-insensitive prefix of the last name or the
first name (a range of ix_providers_last_name_lower or ix_providers_first_name_lower, rechecked with LIKE).
The count stops at a cap, as search's does.

A suspension unlists the provider (search, profile, booking: `is_listed`) and tells the patients of its
visits ahead (PHI-free: a date and a link) and the staff who manage providers, who rearrange those visits.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.domain_events import ProviderReinstated, ProviderSuspended, VisitAtRisk
from app.services.enrollment._common import document_read, license_read
from app.services.enrollment._pipeline import timeline_entries
from app.services.enrollment._standing import (
    AUDIT_LAPSED,
    AUDIT_RESTORED,
    provider_target,
    record_provider_event,
    standing_problems,
)
from app.services.errors import NotFound, ValidationFailed
from app.services.providers import NO_PROVIDER, display_name
from app.services.providers.internal import provider_read, sync_listing
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.audit import AuditEntry
from models.booking import Appointment, AppointmentStatus
from models.enrollment import (
    CredentialDocument,
    EventKind,
    ProviderApplication,
    ProviderLicense,
)
from models.identity import User, as_utc
from models.provider import LISTED_CONDITIONS, Provider
from models.staff import Permission
from models.standing import (
    MANAGED_PAGE_SIZE,
    MAX_REASON,
    MIN_REASON,
    ManagedProvider,
    ManagedProviderPage,
    ManagedProviderQuery,
    ManagedProviderRow,
    ProviderAuditEntry,
    ProviderStanding,
    StandingChange,
    VisitSummary,
)

PROVIDERS_TOPIC = "staff:providers"
COUNT_CAP = 1000
AUDIT_SUSPENDED = "provider_suspended"
AUDIT_REINSTATED = "provider_reinstated"
DECISIONS = (AUDIT_SUSPENDED, AUDIT_REINSTATED, AUDIT_LAPSED, AUDIT_RESTORED)
REASON_REQUIRED = f"Please give the reason (at least {MIN_REASON} characters): it goes into the audit log."
REASON_TOO_LONG = f"The reason can be at most {MAX_REASON} characters."
ALREADY_SUSPENDED = "{name} is already suspended."
NOT_SUSPENDED = "{name} is not suspended."
AHEAD = (AppointmentStatus.pending, AppointmentStatus.confirmed)


# ---- standing --------------------------------------------------------------------------------------------
def standing_of(row: object) -> ProviderStanding:
    """A provider's standing from its row (most urgent first)."""
    if getattr(row, "suspended_at", None) is not None:
        return ProviderStanding.suspended
    if getattr(row, "credentials_lapsed_at", None) is not None:
        return ProviderStanding.lapsed
    if not getattr(row, "is_verified", False):
        return ProviderStanding.unverified
    if not getattr(row, "is_active", False):
        return ProviderStanding.inactive
    return ProviderStanding.listed


def _standing_filter(standing: ProviderStanding) -> tuple[ColumnElement[bool], ...]:
    p = Provider
    clear = (p.suspended_at.is_(None), p.credentials_lapsed_at.is_(None))
    return {
        ProviderStanding.suspended: (p.suspended_at.is_not(None),),
        ProviderStanding.lapsed: (p.suspended_at.is_(None), p.credentials_lapsed_at.is_not(None)),
        ProviderStanding.unverified: (*clear, p.is_verified.is_(False)),
        ProviderStanding.inactive: (*clear, p.is_verified.is_(True), p.is_active.is_(False)),
        ProviderStanding.listed: LISTED_CONDITIONS,
    }[standing]


def _prefix(column: SQLColumnExpression[str], prefix: str) -> ColumnElement[bool]:
    """A case-insensitive prefix of `column` as an index range of lower(column), rechecked with LIKE."""
    lowered = func.lower(column)
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return and_(lowered >= prefix, lowered < upper, lowered.like(pattern, escape="\\"))


def _name_filter(search: str) -> ColumnElement[bool] | None:
    words = search.lower().split()
    if not words:
        return None
    whole = " ".join(words)
    options = [_prefix(Provider.last_name, whole), _prefix(Provider.first_name, whole)]
    if len(words) > 1:
        options.append(
            and_(_prefix(Provider.first_name, words[0]), _prefix(Provider.last_name, " ".join(words[1:])))
        )
    return or_(*options)


def _filters(query: ManagedProviderQuery) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if (name := _name_filter(query.search)) is not None:
        conditions.append(name)
    if query.standing is not None:
        conditions += _standing_filter(query.standing)
    if query.provider_type is not None:
        conditions.append(Provider.provider_type == query.provider_type)
    if state := query.state.strip().upper():
        licensed = select(ProviderLicense.provider_id).where(ProviderLicense.state == state)
        conditions.append(Provider.id.in_(licensed))
    return conditions


# ---- reads -----------------------------------------------------------------------------------------------
async def list_managed_providers(
    *, session: AsyncSession, actor: Principal, query: ManagedProviderQuery, now: datetime | None = None
) -> ManagedProviderPage:
    """One page (≤ 50) of providers in name order, filtered by `query`, with their figures."""
    await require_permission(session=session, actor=actor, permission=Permission.manage_providers)
    today = (now or datetime.now(UTC)).astimezone(UTC).date()
    conditions = _filters(query)
    per_page = MANAGED_PAGE_SIZE
    cap = max(COUNT_CAP, query.page * per_page)
    matches = select(Provider.id).where(*conditions).limit(cap + 1).subquery()
    found = await session.scalar(select(func.count()).select_from(matches)) or 0
    total, more = (cap, True) if found > cap else (found, False)
    visits = (
        select(func.count())
        .where(Appointment.provider_id == Provider.id, Appointment.status == AppointmentStatus.completed)
        .scalar_subquery()
    )
    expiry = (
        select(func.min(ProviderLicense.expires_on))
        .where(ProviderLicense.provider_id == Provider.id, ProviderLicense.expires_on >= today)
        .scalar_subquery()
    )
    rows = (
        await session.execute(
            select(Provider, visits.label("visits"), expiry.label("expiry"))
            .where(*conditions)
            .order_by(func.lower(Provider.last_name), func.lower(Provider.first_name), Provider.id)
            .offset((query.page - 1) * per_page)
            .limit(per_page + 1)
        )
    ).all()
    items = [
        ManagedProviderRow(
            id=p.id,
            name=display_name(p.first_name, p.last_name),
            provider_type=p.provider_type,
            standing=standing_of(p),
            rating=float(p.rating_average or 0),
            review_count=p.review_count,
            visits=count or 0,
            nearest_expiry=nearest,
            license_state=p.license_state,
        )
        for p, count, nearest in rows[:per_page]
    ]
    return ManagedProviderPage(
        items=items,
        total=total,
        more=more,
        page=query.page,
        per_page=per_page,
        has_next=len(rows) > per_page,
    )


async def _visit_summary(session: AsyncSession, provider_id: str, now: datetime) -> VisitSummary:
    """Completed and cancelled visits, the last one, and the visits ahead (two grouped queries)."""
    done = {
        status: (count, last)
        for status, count, last in await session.execute(
            select(Appointment.status, func.count(), func.max(Appointment.starts_at))
            .where(
                Appointment.provider_id == provider_id,
                Appointment.status.in_((AppointmentStatus.completed, AppointmentStatus.cancelled)),
            )
            .group_by(Appointment.status)
        )
    }
    upcoming, following = (
        await session.execute(
            select(func.count(), func.min(Appointment.starts_at)).where(
                Appointment.provider_id == provider_id,
                Appointment.status.in_(AHEAD),
                Appointment.starts_at > now,
            )
        )
    ).one()
    completed = done.get(AppointmentStatus.completed, (0, None))
    return VisitSummary(
        completed=completed[0],
        cancelled=done.get(AppointmentStatus.cancelled, (0, None))[0],
        upcoming=upcoming or 0,
        last_visit_at=as_utc(completed[1]),
        next_visit_at=as_utc(following),
    )


async def _provider(session: AsyncSession, provider_id: str) -> Provider:
    provider = await session.get(Provider, provider_id[:36], populate_existing=True)
    if provider is None:
        raise NotFound(NO_PROVIDER)
    return provider


async def get_managed_provider(
    *, session: AsyncSession, actor: Principal, provider_id: str, now: datetime | None = None
) -> ManagedProvider:
    """A provider's page: profile, credentials, visit summary and standing (a fixed number of queries)."""
    await require_permission(session=session, actor=actor, permission=Permission.manage_providers)
    now = (now or datetime.now(UTC)).astimezone(UTC)
    provider = await _provider(session, provider_id)
    profile = await provider_read(session, provider, now)
    email = (
        await session.scalar(select(User.email).where(User.id == provider.user_id))
        if provider.user_id
        else None
    )
    licenses = (
        await session.scalars(
            select(ProviderLicense)
            .where(ProviderLicense.provider_id == provider.id)
            .order_by(ProviderLicense.expires_on.desc(), ProviderLicense.id)
        )
    ).all()
    documents = (
        await session.scalars(
            select(CredentialDocument)
            .where(CredentialDocument.provider_id == provider.id)
            .order_by(CredentialDocument.kind, CredentialDocument.uploaded_at.desc())
        )
    ).all()
    application = (
        await session.execute(
            select(ProviderApplication.id, ProviderApplication.status).where(
                ProviderApplication.provider_id == provider.id
            )
        )
    ).first()
    problems = (await standing_problems(session, [provider.id], now.date()))[provider.id]
    return ManagedProvider(
        id=provider.id,
        user_id=provider.user_id,
        name=profile.name,
        email=email or "",
        provider_type=provider.provider_type,
        standing=standing_of(provider),
        is_verified=provider.is_verified,
        is_active=provider.is_active,
        suspended_at=as_utc(provider.suspended_at),
        suspension_reason=provider.suspension_reason,
        credentials_lapsed_at=as_utc(provider.credentials_lapsed_at),
        standing_problems=problems,
        bio=provider.bio,
        languages=profile.languages,
        time_zone=provider.time_zone,
        rating=float(provider.rating_average or 0),
        review_count=provider.review_count,
        zip_codes=profile.zip_codes,
        services=[s.service_name for s in profile.services],
        licenses=[license_read(row) for row in licenses],
        documents=[document_read(row, now.date()) for row in documents],
        visits=await _visit_summary(session, provider.id, now),
        application_id=application[0] if application else None,
        application_status=application[1] if application else None,
    )


_ACTIONS = {
    AUDIT_SUSPENDED: "Suspended",
    AUDIT_REINSTATED: "Reinstated",
    AUDIT_LAPSED: "Credentials lapsed",
    AUDIT_RESTORED: "Credentials current again",
}


async def list_provider_audit(
    *, session: AsyncSession, actor: Principal, provider_id: str
) -> list[ProviderAuditEntry]:
    """Every decision about a provider, newest first: its application's timeline and the audit log's
    suspensions, reinstatements and lapses (view_provider_logs)."""
    await require_permission(session=session, actor=actor, permission=Permission.view_provider_logs)
    provider = await _provider(session, provider_id)
    application = (
        await session.execute(
            select(ProviderApplication.id, ProviderApplication.user_id).where(
                ProviderApplication.provider_id == provider.id
            )
        )
    ).first()
    entries = [
        ProviderAuditEntry(
            at=e.at,
            action=e.kind.value.replace("_", " ").capitalize(),
            actor=e.actor,
            reason=str(e.details.get("reason") or e.details.get("message") or ""),
            details=e.details,
        )
        for e in (await timeline_entries(session, [application[0]], application[1]) if application else [])
        if e.kind not in (EventKind.suspended, EventKind.reinstated, EventKind.lapsed)  # in the audit log too
    ]
    rows = (
        await session.scalars(
            select(AuditEntry)
            .where(AuditEntry.action.in_(DECISIONS), AuditEntry.target == provider_target(provider.id))
            .order_by(AuditEntry.created_at.desc())
            .limit(200)
        )
    ).all()
    entries += [
        ProviderAuditEntry(
            at=as_utc(row.created_at),
            action=_ACTIONS.get(row.action, row.action),
            actor=row.actor_email or "System",
            reason=str((row.details or {}).get("reason", "")),
            details=dict(row.details or {}),
        )
        for row in rows
    ]
    return sorted(entries, key=lambda e: e.at, reverse=True)


# ---- decisions -------------------------------------------------------------------------------------------
def clean_reason(reason: str) -> str:
    text = " ".join((reason or "").split())
    if len(text) < MIN_REASON:
        raise ValidationFailed(REASON_REQUIRED, code="reason_required")
    if len(text) > MAX_REASON:
        raise ValidationFailed(REASON_TOO_LONG, code="reason_too_long")
    return text


async def _decide(
    session: AsyncSession,
    account: AccountRead,
    actor: Principal,
    provider: Provider,
    kind: EventKind,
    action: str,
    reason: str,
    now: datetime,
    details: dict[str, Any] | None = None,
) -> None:
    await sync_listing(session, provider, now.date())
    facts = {"reason": reason, **(details or {})}
    await record_provider_event(
        session, provider_ids=[provider.id], kind=kind, actor_id=account.id, details=facts, at=now
    )
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=action,
        target=provider_target(provider.id),
        details=facts,
    )
    await events.publish_on_commit(session, PROVIDERS_TOPIC, {"provider_id": provider.id, "action": action})


async def suspend_provider(
    *, session: AsyncSession, actor: Principal, provider_id: str, reason: str, now: datetime | None = None
) -> StandingChange:
    """Suspend a provider: unlisted and closed to new bookings at once; the patients of its visits ahead are
    told (PHI-free) and the staff who manage providers are asked to rearrange those visits."""
    account = await require_permission(session=session, actor=actor, permission=Permission.manage_providers)
    text = clean_reason(reason)
    now = (now or datetime.now(UTC)).astimezone(UTC)
    provider = await _provider(session, provider_id)
    name = display_name(provider.first_name, provider.last_name)
    if provider.suspended_at is not None:
        raise ValidationFailed(ALREADY_SUSPENDED.format(name=name))
    provider.suspended_at, provider.suspension_reason = now, text
    ahead = (
        await session.execute(
            select(Appointment.id, Appointment.patient_id, Appointment.starts_at)
            .where(
                Appointment.provider_id == provider.id,
                Appointment.status.in_(AHEAD),
                Appointment.starts_at > now,
            )
            .order_by(Appointment.starts_at)
        )
    ).all()
    await _decide(
        session,
        account,
        actor,
        provider,
        EventKind.suspended,
        AUDIT_SUSPENDED,
        text,
        now,
        {"visits_ahead": len(ahead)},
    )
    await events.publish_event(
        session,
        ProviderSuspended(
            provider_id=provider.id,
            user_id=provider.user_id,
            name=name,
            time_zone=provider.time_zone,
            visits=tuple(
                VisitAtRisk(appointment_id=visit_id, patient_id=patient_id, starts_at=as_utc(starts_at))
                for visit_id, patient_id, starts_at in ahead
            ),
            by=account.id,
            at=now,
        ),
    )
    await session.flush()
    return StandingChange(
        provider_id=provider.id,
        standing=standing_of(provider),
        upcoming_visits=len(ahead),
        patients_told=len({patient for _v, patient, _s in ahead}),
    )


async def reinstate_provider(
    *, session: AsyncSession, actor: Principal, provider_id: str, reason: str, now: datetime | None = None
) -> StandingChange:
    """Lift a suspension: listed and bookable again (unless its credentials have lapsed)."""
    account = await require_permission(session=session, actor=actor, permission=Permission.manage_providers)
    text = clean_reason(reason)
    now = (now or datetime.now(UTC)).astimezone(UTC)
    provider = await _provider(session, provider_id)
    if provider.suspended_at is None:
        raise ValidationFailed(
            NOT_SUSPENDED.format(name=display_name(provider.first_name, provider.last_name))
        )
    provider.suspended_at, provider.suspension_reason = None, ""
    await _decide(session, account, actor, provider, EventKind.reinstated, AUDIT_REINSTATED, text, now)
    await events.publish_event(
        session,
        ProviderReinstated(
            provider_id=provider.id,
            user_id=provider.user_id,
            credentials_lapsed=provider.credentials_lapsed_at is not None,
            at=now,
        ),
    )
    await session.flush()
    return StandingChange(
        provider_id=provider.id, standing=standing_of(provider), upcoming_visits=0, patients_told=0
    )
