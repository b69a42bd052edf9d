"""Verification Requests (issue 13, staff side; SPEC §6 manage_verification, checked on every call): the queue
of applications waiting for staff or for the applicant, an application opened beside its documents with the
reviewer's checklist and its timeline, and the decisions.

- Opening an application is a read of a person's credentials: it is written to the audit log, and it moves
  a submitted application to in review (a timeline event; the applicant is told).
- The checklist: the NPI's check digit is computed by the enrollment rules (nothing to tick); each licence
  (state and expiry) and each document (names and dates match the form) is ticked by a reviewer. Ticks are
  `checked` timeline events (who, when); those made before the application's last (re)submission no longer
  count, so a resubmitted application is checked afresh.
- Decisions: approve (publishes the provider: app/services/enrollment/_publish.py), request information
  (→ needs_information) or reject (→ rejected, may apply again after ENROLLMENT_REAPPLY_DAYS), each with
  reasons from the managed list (their `applies_to` must fit) and an optional message. Each one writes a
  timeline event and an audit row, and notifies the applicant (in the notification centre, and an e-mail
  with the reasons, their advice and the message, as their preferences allow). Nobody decides their own
  application, and two reviewers deciding at once cannot both win (the row is locked).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from sqlalchemy import exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.automation.internal import emit_event
from app.services.domain_events import ApplicationDecided, DecisionPoint
from app.services.enrollment._publish import publish_provider
from app.services.enrollment._records import (
    REVIEW_TOPIC,
    active_reasons,
    add_event,
    application_read,
    day_text,
    load_application,
    moment,
    reason_uses,
    reviewer,
)
from app.services.enrollment._rules import has_npi, npi_problem
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.shared.accounts import account_of
from app.services.shared.addresses import US_STATES, zip_state
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.catalog import Service, locations_of
from models.enrollment import (
    EXPIRING_WITHIN,
    ApplicationEvent,
    ApplicationEventRead,
    ApplicationRead,
    ApplicationStatus,
    CredentialDocument,
    DecisionCreate,
    DecisionReasonRead,
    DocumentStanding,
    EventKind,
    ProviderApplication,
    ProviderLicense,
    ReasonUse,
)
from models.enrollment_review import (
    MAX_DECISION_MESSAGE,
    QUEUE_PAGE_SIZE,
    QUEUE_STATUSES,
    ApplicationReviewRead,
    CheckItemRead,
    OfferLine,
    QueuePageRead,
    QueueRowRead,
    TimelineEntry,
)
from models.identity import User, as_utc
from models.provider import ProviderType

S = ApplicationStatus
OWN_APPLICATION = "You cannot review or decide your own application: another reviewer must."
NOT_DECIDABLE = "This application is {status}: it cannot be {decision} now."
REASON_REQUIRED = "Choose at least one reason: the applicant needs to know what to fix."
REASON_UNKNOWN = "A reason chosen is not on the list (any more). Please choose again."
REASON_NOT_FOR = "“{label}” cannot be given when you {decision}."
APPROVAL_NO_REASONS = "An approval takes no reasons; write a message instead if you like."
UNKNOWN_CHECK = "This checklist item is not part of the application (any more). Reload it."
CHECK_CLOSED = "The checklist can be changed only while the application is submitted or in review."
NOT_CHECKED = "Tick every checklist item before approving ({count} left)."
NPI_INVALID = "The NPI is not valid: {problem}"
NO_LICENSE = "The application has no licence."
LICENSE_EXPIRED = "A licence has expired: {license}."
DOCUMENT_EXPIRED = "A document has expired: {document}."
MAX_PAGES = 1000
# What each decision may follow, and the status it leaves.
_DECISIONS = {
    "approve": ((S.submitted, S.in_review), S.approved, EventKind.approved, "approved"),
    "request_information": (
        (S.submitted, S.in_review),
        S.needs_information,
        EventKind.info_requested,
        "sent back for information",
    ),
    "reject": ((S.submitted, S.in_review, S.needs_information), S.rejected, EventKind.rejected, "rejected"),
}
_USES = {"request_information": ReasonUse.information, "reject": ReasonUse.rejection}
_VERBS = {"request_information": "request information", "reject": "reject"}
_RESTART_KINDS = (EventKind.submitted, EventKind.resubmitted)


# ---- the queue ------------------------------------------------------------------------------------------
def _page(page: int) -> int:
    return max(1, min(int(page), MAX_PAGES))


async def list_verification_queue(
    *,
    session: AsyncSession,
    actor: Principal,
    status: str = "",
    provider_type: str = "",
    state: str = "",
    page: int = 1,
) -> QueuePageRead:
    """Applications submitted, in review or waiting for the applicant's information, the longest waiting
    first (time in their status), 50 a page; filters by status, provider type and a licence's state
    (unknown filter values are ignored). Four queries whatever the page holds."""
    await reviewer(session, actor)
    page = _page(page)
    statuses = [S(status)] if status in {s.value for s in QUEUE_STATUSES} else list(QUEUE_STATUSES)
    others = []
    if provider_type in ProviderType.__members__:
        others.append(ProviderApplication.provider_type == ProviderType(provider_type))
    state = (state or "").strip().upper()[:2]
    if state in US_STATES:
        others.append(
            exists().where(
                ProviderLicense.application_id == ProviderApplication.id, ProviderLicense.state == state
            )
        )
    A = ProviderApplication
    found = (
        await session.execute(
            select(A.id, A.first_name, A.last_name, A.provider_type, A.status, A.submitted_at)
            .add_columns(A.status_changed_at, A.npi)
            .where(A.status.in_(statuses), *others)
            .order_by(A.status_changed_at, A.id)
            .offset((page - 1) * QUEUE_PAGE_SIZE)
            .limit(QUEUE_PAGE_SIZE + 1)
        )
    ).all()
    rows, has_more = found[:QUEUE_PAGE_SIZE], len(found) > QUEUE_PAGE_SIZE
    ids = [row.id for row in rows]
    states: dict[str, set[str]] = {}
    documents: dict[str, int] = {}
    if ids:
        for application_id, licence_state in await session.execute(
            select(ProviderLicense.application_id, ProviderLicense.state).where(
                ProviderLicense.application_id.in_(ids)
            )
        ):
            assert application_id is not None  # one of `ids`
            states.setdefault(application_id, set()).add(licence_state)
        documents = dict(
            (
                await session.execute(
                    select(CredentialDocument.application_id, func.count())
                    .where(CredentialDocument.application_id.in_(ids))
                    .group_by(CredentialDocument.application_id)
                )
            ).all()
        )
    counts = dict(
        (
            await session.execute(
                select(A.status, func.count()).where(A.status.in_(QUEUE_STATUSES), *others).group_by(A.status)
            )
        ).all()
    )
    return QueuePageRead(
        rows=[
            QueueRowRead(
                id=row.id,
                name=" ".join(p for p in (row.first_name, row.last_name) if p) or "(no name yet)",
                provider_type=row.provider_type,
                status=row.status,
                submitted_at=row.submitted_at,
                status_changed_at=row.status_changed_at,
                license_states=sorted(states.get(row.id, ())),
                documents=documents.get(row.id, 0),
                npi_valid=npi_problem(row.npi) is None if has_npi(row.provider_type) else None,
            )
            for row in rows
        ],
        page=page,
        has_more=has_more,
        counts={s.value: counts.get(s, 0) for s in QUEUE_STATUSES},
    )


# ---- one application ------------------------------------------------------------------------------------
def _npi_check(application: ApplicationRead) -> CheckItemRead:
    label = "NPI check digit valid"
    if not has_npi(application.provider_type):
        kind = application.provider_type.label if application.provider_type else "this provider type"
        return CheckItemRead(
            key="npi", label=label, detail=f"Not required for {kind}.", automatic=True, passed=True
        )
    problem = npi_problem(application.npi)
    return CheckItemRead(
        key="npi",
        label=label,
        detail=f"NPI {application.npi or '(none)'}: "
        + ("the check digit matches (computed)." if problem is None else problem),
        automatic=True,
        passed=problem is None,
        blocking=problem is not None,
        notes=[] if problem is None else [NPI_INVALID.format(problem=problem)],
    )


def _license_checks(application: ApplicationRead, today: date) -> list[CheckItemRead]:
    checks = []
    for licence in application.licenses:
        notes, blocking = [], False
        if licence.expires_on <= today:
            notes.append(f"Expired on {day_text(licence.expires_on)}.")
            blocking = True
        elif licence.expires_on - today <= EXPIRING_WITHIN:
            notes.append(f"Expires within 90 days ({day_text(licence.expires_on)}).")
        if licence.state not in US_STATES:
            notes.append(f"{licence.state} is not a US state.")
        outside = [z for z in application.zip_codes if zip_state(z) not in (None, licence.state)]
        if outside and len(application.licenses) == 1:
            shown = ", ".join(f"{z} ({zip_state(z)})" for z in outside[:5])
            notes.append(f"ZIP codes outside {licence.state}: {shown}" + ("…" if len(outside) > 5 else ""))
        checks.append(
            CheckItemRead(
                key=f"license:{licence.id}",
                label=f"Licence {licence.license_type} {licence.state} {licence.number}: state and expiry",
                detail=f"Issued in {licence.state}, expires {day_text(licence.expires_on)}.",
                notes=notes,
                blocking=blocking,
            )
        )
    return checks


def _document_checks(application: ApplicationRead) -> list[CheckItemRead]:
    checks = []
    for document in application.documents:
        dates = ", ".join(
            part
            for part in (
                f"issued {day_text(document.issued_on)}" if document.issued_on else "",
                f"expires {day_text(document.expires_on)}" if document.expires_on else "",
            )
            if part
        )
        expired = document.standing == DocumentStanding.expired
        checks.append(
            CheckItemRead(
                key=f"document:{document.id}",
                label=f"{document.kind.label}: names and dates match the form",
                detail=f"{document.filename}" + (f" ({dates})" if dates else ""),
                notes=["This document has expired."] if expired else [],
                blocking=expired,
            )
        )
    return checks


async def _ticks(session: AsyncSession, application: ApplicationRead) -> dict[str, ApplicationEvent]:
    """The latest tick or untick of each item since the application was last (re)submitted."""
    events_ = list(
        await session.scalars(
            select(ApplicationEvent)
            .where(
                ApplicationEvent.application_id == application.id,
                ApplicationEvent.kind.in_([EventKind.checked, *_RESTART_KINDS]),
            )
            .order_by(ApplicationEvent.at, ApplicationEvent.id)
        )
    )
    since = application.submitted_at
    latest: dict[str, ApplicationEvent] = {}
    for event in events_:
        if event.kind in _RESTART_KINDS:
            latest.clear()
        elif since is None or as_utc(event.at) >= since:
            latest[str(event.details.get("item", ""))] = event
    return latest


async def _names(session: AsyncSession, user_ids: Sequence[str | None]) -> dict[str, str]:
    ids = sorted({i for i in user_ids if i})
    if not ids:
        return {}
    users = await session.scalars(select(User).where(User.id.in_(ids)))
    return {user.id: account_of(user).name for user in users}


async def _checklist(
    session: AsyncSession, application: ApplicationRead, today: date
) -> tuple[list[CheckItemRead], list[str]]:
    """The checklist with the stored ticks, and what keeps the application from being approved."""
    ticks = await _ticks(session, application)
    names = await _names(session, [event.actor_id for event in ticks.values()])
    checks = [_npi_check(application)]
    for check in [*_license_checks(application, today), *_document_checks(application)]:
        tick = ticks.get(check.key)
        done = tick if tick is not None and tick.details.get("checked") else None
        checks.append(
            check.model_copy(
                update={
                    "passed": done is not None,
                    "checked_by": names.get(done.actor_id or "", "") if done is not None else "",
                    "checked_at": done.at if done is not None else None,
                }
            )
        )
    blockers = [note for check in checks if check.blocking for note in check.notes[:1]]
    if not application.licenses:
        blockers.append(NO_LICENSE)
    unticked = [check.label for check in checks if not check.automatic and not check.passed]
    if unticked:
        blockers.append(NOT_CHECKED.format(count=len(unticked)))
    return checks, blockers


async def _offer_lines(session: AsyncSession, application: ApplicationRead) -> list[OfferLine]:
    ids = [offer.service_id for offer in application.offers]
    names = (
        dict((await session.execute(select(Service.id, Service.name).where(Service.id.in_(ids)))).all())
        if ids
        else {}
    )
    return [
        OfferLine(
            service_id=offer.service_id,
            name=names.get(offer.service_id, "(a service no longer offered)"),
            price=offer.price,
            places=[place.label for place in locations_of(offer.location_mask)],
        )
        for offer in application.offers
    ]


async def _timeline(session: AsyncSession, application_id: str) -> list[TimelineEntry]:
    rows = list(
        await session.scalars(
            select(ApplicationEvent)
            .where(
                ApplicationEvent.application_id == application_id, ApplicationEvent.kind != EventKind.checked
            )
            .order_by(ApplicationEvent.at, ApplicationEvent.id)
            .limit(200)
        )
    )
    names = await _names(session, [row.actor_id for row in rows])
    return [
        TimelineEntry(
            event=ApplicationEventRead.model_validate(row, from_attributes=True),
            actor_name=names.get(row.actor_id or "", ""),
        )
        for row in rows
    ]


async def _review_of(
    session: AsyncSession, row: ProviderApplication, member: AccountRead, today: date
) -> ApplicationReviewRead:
    application = await application_read(session, row, today)
    checks, blockers = await _checklist(session, application, today)
    email = await session.scalar(select(User.email).where(User.id == row.user_id))
    return ApplicationReviewRead(
        application=application,
        email=email or "",
        offers=await _offer_lines(session, application),
        checks=checks,
        timeline=await _timeline(session, row.id),
        reasons=await active_reasons(session),
        own=row.user_id == member.id,
        decidable=row.status in (S.submitted, S.in_review, S.needs_information),
        blockers=blockers,
    )


async def get_application_review(
    *, session: AsyncSession, actor: Principal, application_id: str, today: date | None = None
) -> ApplicationReviewRead:
    """An application as the reviewer sees it (manage_verification): the form, licences, documents, the
    checklist with its ticks, the timeline and the reasons on offer. Reads only (`open_application` is the
    audited open)."""
    member = await reviewer(session, actor)
    row = await load_application(session, application_id)
    return await _review_of(session, row, member, today or moment(None).date())


async def open_application(
    *, session: AsyncSession, actor: Principal, application_id: str, now: datetime | None = None
) -> ApplicationStatus:
    """A reviewer opened the application: written to the audit log (with the client's address and browser);
    a submitted application moves to in review (a timeline event, the applicant notified) unless it is the
    reviewer's own. Returns its status now."""
    member = await reviewer(session, actor)
    now = moment(now)
    row = await load_application(session, application_id, lock=True)
    previous = row.status
    if row.status == S.submitted and row.user_id != member.id:
        _move(row, S.in_review, now)
        add_event(session, application_id=row.id, kind=EventKind.in_review, actor_id=member.id, at=now)
        await tell_applicant(session, row, "in_review", now=now)
    await audit.record_by(
        session=session,
        account=member,
        actor=actor,
        action=AuditAction.application_view,
        target=f"application {row.id}",
        details={"applicant_id": row.user_id, "status": previous.value},
    )
    await events.publish_on_commit(session, REVIEW_TOPIC, {"application_id": row.id})
    return row.status


def _move(row: ProviderApplication, status: ApplicationStatus, now: datetime) -> None:
    row.status, row.status_changed_at, row.updated_at = status, now, now


async def set_check(
    *,
    session: AsyncSession,
    actor: Principal,
    application_id: str,
    item: str,
    checked: bool,
    now: datetime | None = None,
) -> CheckItemRead:
    """Tick (or untick) one checklist item of a submitted or in-review application; stored as a timeline
    event. Not on one's own application; automatic items (the NPI) cannot be ticked."""
    member = await reviewer(session, actor)
    now = moment(now)
    row = await load_application(session, application_id, lock=True)
    if row.user_id == member.id:
        raise PermissionDenied(OWN_APPLICATION)
    if row.status not in (S.submitted, S.in_review):
        raise ValidationFailed(CHECK_CLOSED)
    application = await application_read(session, row, now.date())
    item = str(item)[:80]
    tickable = {c.key: c for c in [*_license_checks(application, now.date()), *_document_checks(application)]}
    if item not in tickable:
        raise ValidationFailed(UNKNOWN_CHECK)
    add_event(
        session,
        application_id=row.id,
        kind=EventKind.checked,
        actor_id=member.id,
        at=now,
        details={"item": item, "checked": bool(checked)},
    )
    row.updated_at = now
    await events.publish_on_commit(session, REVIEW_TOPIC, {"application_id": row.id})
    return tickable[item].model_copy(
        update={"passed": bool(checked), "checked_by": member.name if checked else "", "checked_at": now}
    )


async def list_reviewer_reasons(
    *, session: AsyncSession, actor: Principal, use: ReasonUse | str
) -> list[DecisionReasonRead]:
    """The managed reasons a reviewer may give for `use` (information or rejection), in their order."""
    await reviewer(session, actor)
    return await active_reasons(session, reason_uses(ReasonUse(use)))


# ---- decisions ------------------------------------------------------------------------------------------
async def _chosen_reasons(
    session: AsyncSession, decision: str, codes: Sequence[str]
) -> list[DecisionReasonRead]:
    codes = list(dict.fromkeys(str(code)[:40] for code in codes))
    if decision == "approve":
        if codes:
            raise ValidationFailed(APPROVAL_NO_REASONS)
        return []
    if not codes:
        raise ValidationFailed(REASON_REQUIRED)
    every = {reason.code: reason for reason in await active_reasons(session)}
    allowed = reason_uses(_USES[decision])
    chosen = []
    for code in codes:
        reason = every.get(code)
        if reason is None:
            raise ValidationFailed(REASON_UNKNOWN)
        if reason.applies_to not in allowed:
            raise ValidationFailed(REASON_NOT_FOR.format(label=reason.label, decision=_VERBS[decision]))
        chosen.append(reason)
    return chosen


async def _decide(
    session: AsyncSession,
    actor: Principal,
    application_id: str,
    decision: str,
    data: DecisionCreate,
    now: datetime | None,
) -> ApplicationReviewRead:
    member = await reviewer(session, actor)
    now = moment(now)
    row = await load_application(session, application_id, lock=True)
    if row.user_id == member.id:
        raise PermissionDenied(OWN_APPLICATION)
    after, status, kind, done = _DECISIONS[decision]
    if row.status not in after:
        raise ValidationFailed(NOT_DECIDABLE.format(status=row.status.label.lower(), decision=done))
    reasons = await _chosen_reasons(session, decision, data.reasons)
    message = data.message.strip()[:MAX_DECISION_MESSAGE]
    previous = row.status
    if decision == "approve":
        application = await application_read(session, row, now.date())
        _checks, blockers = await _checklist(session, application, now.date())
        if blockers:
            raise ValidationFailed(blockers[0])
        provider_id = await publish_provider(session=session, reviewer=member, application=row)
    _move(row, status, now)
    row.decided_at, row.decided_by = now, member.id
    row.decision_reasons, row.decision_message = [r.code for r in reasons], message
    row.reapply_after = (
        now + timedelta(days=get_settings().enrollment_reapply_days) if status == S.rejected else None
    )
    details = {"from": previous.value, "reasons": row.decision_reasons, "message": bool(message)}
    if decision == "approve":
        details["provider_id"] = provider_id
    add_event(session, application_id=row.id, kind=kind, actor_id=member.id, at=now, details=details)
    await audit.record_by(
        session=session,
        account=member,
        actor=actor,
        action=AuditAction.application_decision,
        target=f"application {row.id}",
        details={"decision": status.value, "applicant_id": row.user_id, **details},
    )
    await tell_applicant(session, row, status.value, reasons=reasons, message=message, now=now)
    await emit_event(
        session=session,
        event_type="provider.verification_updated",
        fields={
            "applicationId": row.id,
            "userId": row.user_id,
            "status": status.value,
            "previousStatus": previous.value,
            "reasons": row.decision_reasons,
            "providerId": details.get("provider_id"),
        },
        now=now,
    )
    await events.publish_on_commit(session, REVIEW_TOPIC, {"application_id": row.id})
    await session.flush()
    return await _review_of(session, row, member, now.date())


async def approve_application(
    *,
    session: AsyncSession,
    actor: Principal,
    application_id: str,
    decision: DecisionCreate | None = None,
    now: datetime | None = None,
) -> ApplicationReviewRead:
    """Approve a submitted or in-review application whose checklist is complete (manage_verification, never
    one's own): the provider is published in the same unit of work (listed, bookable, role provider,
    enrollment complete). An optional message; no reasons."""
    return await _decide(session, actor, application_id, "approve", decision or DecisionCreate(), now)


async def request_information(
    *,
    session: AsyncSession,
    actor: Principal,
    application_id: str,
    decision: DecisionCreate,
    now: datetime | None = None,
) -> ApplicationReviewRead:
    """Send the application back to the applicant (needs information) with at least one reason that applies
    to information requests, and an optional message."""
    return await _decide(session, actor, application_id, "request_information", decision, now)


async def reject_application(
    *,
    session: AsyncSession,
    actor: Principal,
    application_id: str,
    decision: DecisionCreate,
    now: datetime | None = None,
) -> ApplicationReviewRead:
    """Reject the application with at least one reason that applies to rejections and an optional message;
    the applicant may start again after ENROLLMENT_REAPPLY_DAYS (`reapply_after`)."""
    return await _decide(session, actor, application_id, "reject", decision, now)


# ---- telling the applicant ------------------------------------------------------------------------------
async def tell_applicant(
    session: AsyncSession,
    row: ProviderApplication,
    decision: str,
    *,
    reasons: Sequence[DecisionReasonRead] = (),
    message: str = "",
    now: datetime,
) -> None:
    """The applicant hears of the decision (`ApplicationDecided`: the notification with fixed words and, as
    their preferences allow, the e-mail with the reasons, what to do about each, the reviewer's message and
    the date they may apply again)."""
    await events.publish_event(
        session,
        ApplicationDecided(
            application_id=row.id,
            user_id=row.user_id,
            decision=decision,
            reasons=tuple(DecisionPoint(label=reason.label, advice=reason.advice) for reason in reasons),
            message=message,
            reapply_after=row.reapply_after,
            at=now,
        ),
    )
