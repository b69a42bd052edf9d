"""Keeping good standing (issue 13; NCQA's licence-expiry monitoring): a periodic job reminds providers 90,
30 and 7 days before a licence or an approved credential document expires, and at expiry lapses the
provider (`providers.credentials_lapsed_at`: unlisted, new bookings refused) unless a current one replaces
it; the staff who manage providers are told. `restore_standing_if_current` lifts the lapse once every
credential is current again (document approval calls it).

A provider is in good standing when it holds at least one licence valid today (if it has any licence at
all) and, for every kind of credential document it has approved, an approved one that has not expired.

Several workers may run the job at once: each reminder stage and each expiry is claimed with an UPDATE whose
WHERE repeats the condition (`reminded_days` above the stage, `lapsed_at IS NULL`); PostgreSQL re-checks it
after waiting for a row lock, and the candidates are picked with SKIP LOCKED, so only the worker whose
UPDATE changed a row acts on it. The scans read ix_provider_licenses_provider_expires and
ix_credential_documents_expires_on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app import audit, events
from app.services.domain_events import (
    CredentialsExpiring,
    CredentialsLapsed,
    ExpiringCredential,
    LapsedProvider,
)
from app.services.providers.internal import sync_listing
from models.enrollment import (
    REMINDER_DAYS,
    ApplicationEvent,
    CredentialDocument,
    DocumentKind,
    DocumentStatus,
    EventKind,
    ProviderApplication,
    ProviderLicense,
)
from models.provider import Provider

BATCH = 500  # rows of one kind claimed per run and stage; the rest wait for the next run
AUDIT_LAPSED = "provider_credentials_lapsed"
AUDIT_RESTORED = "provider_credentials_restored"


def provider_target(provider_id: str) -> str:
    """The audit log's `target` of a decision about a provider."""
    return f"provider {provider_id}"


def _date_text(day: date) -> str:
    return f"{day:%b} {day.day}, {day.year}"


@dataclass(frozen=True)
class _Source:
    """Licences or approved documents of providers, as the job reads them, and how a reminder names one."""

    model: type[ProviderLicense] | type[CredentialDocument]
    conditions: tuple[ColumnElement[bool], ...]
    columns: tuple[InstrumentedAttribute[Any], ...]
    label: Callable[[tuple[Any, ...]], str]


SOURCES = (
    _Source(
        ProviderLicense,
        (ProviderLicense.provider_id.is_not(None),),
        (ProviderLicense.license_type, ProviderLicense.state),
        lambda row: f"{row[0]} licence ({row[1]})",
    ),
    _Source(
        CredentialDocument,
        (
            CredentialDocument.provider_id.is_not(None),
            CredentialDocument.status == DocumentStatus.approved,
            CredentialDocument.expires_on.is_not(None),
        ),
        (CredentialDocument.kind,),
        lambda row: DocumentKind(row[0]).label,
    ),
)


def _stage_window(stage: int, today: date) -> tuple[date, date]:
    """Expiry dates whose reminder stage is `stage`: after the next (closer) stage's window, within this one."""
    closer = [d for d in REMINDER_DAYS if d < stage]
    first = today + timedelta(days=max(closer) + 1) if closer else today
    return first, today + timedelta(days=stage)


async def _claim(
    session: AsyncSession, source: _Source, due: Iterable[ColumnElement[bool]], values: dict[str, Any]
) -> list[tuple[Any, ...]]:
    """Stamp up to a batch of `source`'s rows matching `due` with `values`; the rows this run won as
    (id, provider_id, expires_on, *label columns)."""
    model = source.model
    where = (*source.conditions, *due)
    candidates = select(model.id).where(*where).limit(BATCH).with_for_update(skip_locked=True)
    claimed = await session.execute(
        update(model)
        .where(model.id.in_(candidates.scalar_subquery()), *where)
        .values(**values)
        .returning(model.id, model.provider_id, model.expires_on, *source.columns)
        .execution_options(synchronize_session=False)
    )
    return [tuple(row) for row in claimed.all()]


async def _provider_users(session: AsyncSession, provider_ids: Iterable[str]) -> dict[str, str]:
    ids = list(set(provider_ids))
    if not ids:
        return {}
    rows = await session.execute(
        select(Provider.id, Provider.user_id).where(Provider.id.in_(ids), Provider.user_id.is_not(None))
    )
    return {provider_id: user_id for provider_id, user_id in rows.tuples() if user_id is not None}


async def send_expiry_reminders(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Remind providers of licences and approved documents expiring within 90, 30 or 7 days, once per stage
    (a row that skipped a stage while the job was not running gets only the closest one). Returns how many
    reminders were due (rows of providers without an account are claimed all the same)."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    today = now.date()
    due: list[tuple[str, str, date, int]] = []  # (provider_id, label, expires_on, days left)
    for stage in REMINDER_DAYS:
        first, last = _stage_window(stage, today)
        for source in SOURCES:
            model = source.model
            window = (
                model.expires_on >= first,
                model.expires_on <= last,
                or_(model.reminded_days.is_(None), model.reminded_days > stage),
            )
            for _id, provider_id, expires_on, *label in await _claim(
                session, source, window, {"reminded_days": stage}
            ):
                due.append((provider_id, source.label(tuple(label)), expires_on, (expires_on - today).days))
    users = await _provider_users(session, (d[0] for d in due))
    await events.publish_event(
        session,
        CredentialsExpiring(
            credentials=tuple(
                ExpiringCredential(
                    provider_id=provider_id,
                    user_id=users[provider_id],
                    label=label,
                    expires_on=expires_on,
                    days_left=days,
                )
                for provider_id, label, expires_on, days in due
                if provider_id in users
            ),
            at=now,
        ),
    )
    return len(due)


async def standing_problems(
    session: AsyncSession, provider_ids: Iterable[str], today: date
) -> dict[str, list[str]]:
    """Why each provider is not in good standing today ([] when it is): two queries for all of them."""
    ids = list(dict.fromkeys(provider_ids))
    problems: dict[str, list[str]] = {pid: [] for pid in ids}
    if not ids:
        return problems
    licences: dict[str, list[date]] = {}
    for provider_id, expires_on in await session.execute(
        select(ProviderLicense.provider_id, ProviderLicense.expires_on).where(
            ProviderLicense.provider_id.in_(ids)
        )
    ):
        assert provider_id is not None  # one of `ids`
        licences.setdefault(provider_id, []).append(expires_on)
    for provider_id, dates in licences.items():
        if max(dates) < today:
            problems[provider_id].append(
                f"No valid licence: the last one expired on {_date_text(max(dates))}."
            )
    documents: dict[tuple[str, DocumentKind], list[date | None]] = {}
    for owner, kind, expiry in await session.execute(
        select(CredentialDocument.provider_id, CredentialDocument.kind, CredentialDocument.expires_on).where(
            CredentialDocument.provider_id.in_(ids), CredentialDocument.status == DocumentStatus.approved
        )
    ):
        assert owner is not None  # one of `ids`
        documents.setdefault((owner, DocumentKind(kind)), []).append(expiry)
    for (owner, kind), expiries in sorted(documents.items(), key=lambda item: item[0][1].value):
        if None not in expiries and max(d for d in expiries if d is not None) < today:
            last = max(d for d in expiries if d is not None)
            problems[owner].append(f"{kind.label} expired on {_date_text(last)}.")
    return problems


async def _applications_of(session: AsyncSession, provider_ids: Iterable[str]) -> dict[str, str]:
    ids = list(set(provider_ids))
    if not ids:
        return {}
    rows = await session.execute(
        select(ProviderApplication.provider_id, ProviderApplication.id).where(
            ProviderApplication.provider_id.in_(ids)
        )
    )
    return {
        provider_id: application_id
        for provider_id, application_id in rows.tuples()
        if provider_id is not None
    }


async def record_provider_event(
    session: AsyncSession,
    *,
    provider_ids: Iterable[str],
    kind: EventKind,
    actor_id: str | None,
    details: dict[str, Any],
    at: datetime,
) -> None:
    """Add `kind` to the timeline of each provider's application (providers who never applied have none:
    their decisions are in the audit log only)."""
    for application_id in (await _applications_of(session, provider_ids)).values():
        session.add(
            ApplicationEvent(
                application_id=application_id, kind=kind, actor_id=actor_id, details=details, at=at
            )
        )


async def _system_decision(
    session: AsyncSession,
    provider_id: str,
    kind: EventKind,
    action: str,
    details: dict[str, Any],
    now: datetime,
) -> None:
    """A decision of the job about a provider: on its application's timeline and in the audit log."""
    await record_provider_event(
        session, provider_ids=[provider_id], kind=kind, actor_id=None, details=details, at=now
    )
    await audit.record(
        session=session,
        actor_id=None,
        actor_email="",
        action=action,
        target=provider_target(provider_id),
        ip=None,
        user_agent=None,
        details=details,
    )


async def lapse_expired_credentials(*, session: AsyncSession, now: datetime | None = None) -> int:
    """Handle every licence and approved document that expired (once each): its provider's listing is
    re-synced (a licence's state drops out of search), and a provider no longer in good standing lapses —
    unlisted, new bookings refused — with its staff told. Returns how many providers lapsed."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    today = now.date()
    expired = [
        row
        for source in SOURCES
        for row in await _claim(
            session,
            source,
            (source.model.expires_on < today, source.model.lapsed_at.is_(None)),
            {"lapsed_at": now},
        )
    ]
    touched = list(dict.fromkeys(row[1] for row in expired))
    if not touched:
        return 0
    problems = await standing_problems(session, touched, today)
    failing = [pid for pid in touched if problems[pid]]
    lapsed: list[str] = []
    if failing:
        result = await session.execute(
            update(Provider)
            .where(Provider.id.in_(failing), Provider.credentials_lapsed_at.is_(None))
            .values(credentials_lapsed_at=now)
            .returning(Provider.id)
            .execution_options(synchronize_session=False)
        )
        lapsed = list(result.scalars().all())
    providers = (
        await session.scalars(
            select(Provider).where(Provider.id.in_(touched)).execution_options(populate_existing=True)
        )
    ).all()
    for provider in providers:
        await sync_listing(session, provider, today)
    if lapsed:
        await _announce_lapse(session, lapsed, {p.id: p for p in providers}, problems, now)
    return len(lapsed)


async def _announce_lapse(
    session: AsyncSession,
    lapsed: list[str],
    providers: dict[str, Provider],
    problems: dict[str, list[str]],
    now: datetime,
) -> None:
    for provider_id in lapsed:
        await _system_decision(
            session, provider_id, EventKind.lapsed, AUDIT_LAPSED, {"problems": problems[provider_id]}, now
        )
    users = await _provider_users(session, lapsed)
    await events.publish_event(
        session,
        CredentialsLapsed(
            providers=tuple(
                LapsedProvider(
                    provider_id=pid,
                    user_id=users.get(pid),
                    name=f"{providers[pid].first_name} {providers[pid].last_name}".strip(),
                )
                for pid in lapsed
            ),
            at=now,
        ),
    )


async def keep_good_standing(*, session: AsyncSession, now: datetime | None = None) -> int:
    """The periodic job: expiry reminders, then expiries. Returns reminders due plus providers lapsed."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    return await send_expiry_reminders(session=session, now=now) + await lapse_expired_credentials(
        session=session, now=now
    )


async def restore_standing_if_current(
    *, session: AsyncSession, provider_id: str, now: datetime | None = None
) -> bool:
    """Lift a provider's credentials lapse when every credential is current again (call it after approving a
    document or recording a licence); re-syncs the listing either way. Returns whether the provider is in
    good standing now."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    provider = await session.get(Provider, provider_id, populate_existing=True)
    if provider is None:
        return False
    problems = (await standing_problems(session, [provider_id], now.date()))[provider_id]
    if not problems and provider.credentials_lapsed_at is not None:
        provider.credentials_lapsed_at = None
        await _system_decision(
            session, provider_id, EventKind.reinstated, AUDIT_RESTORED, {"cause": "credentials current"}, now
        )
        await session.flush()
    await sync_listing(session, provider, now.date())
    return not problems
