"""The staff side's reads and writes of enrollment rows (issue 13): an application with its licences and
documents as `ApplicationRead`, the timeline entry every staff action appends, the managed reasons, and the
one gate of each staff screen (`reviewer`, `document_approver`).

Kept apart from the applicant's modules: the wizard has its own reads of the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.enrollment._common import application_read as common_application_read
from app.services.errors import NotFound
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.enrollment import (
    ApplicationEvent,
    ApplicationRead,
    DecisionReason,
    DecisionReasonRead,
    DocumentKind,
    EventKind,
    ProviderApplication,
    ReasonUse,
)
from models.staff import Permission

NO_APPLICATION = "This application does not exist."
NO_DOCUMENT = "This document does not exist."
# The live topic of the staff screens: an application or document changed (payload: ids only).
REVIEW_TOPIC = "enrollment:review"


def day_text(day: date) -> str:
    """'Jun 30, 2031' (how the staff screens show dates)."""
    return f"{day:%b} {day.day}, {day:%Y}"


def moment(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


async def reviewer(session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in member, if they hold manage_verification (Verification Requests)."""
    return await require_permission(session=session, actor=actor, permission=Permission.manage_verification)


async def document_approver(session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in member, if they hold approve_documents (Document Approvals)."""
    return await require_permission(session=session, actor=actor, permission=Permission.approve_documents)


async def load_application(
    session: AsyncSession, application_id: str, *, lock: bool = False
) -> ProviderApplication:
    """The application (locked for the rest of the unit of work when `lock`: a decision), else NotFound."""
    statement = select(ProviderApplication).where(ProviderApplication.id == str(application_id)[:36])
    if lock:
        statement = statement.with_for_update()
    row = await session.scalar(statement)
    if row is None:
        raise NotFound(NO_APPLICATION)
    return row


async def application_read(session: AsyncSession, row: ProviderApplication, today: date) -> ApplicationRead:
    """The application as a reviewer reads it: its documents in the order of their kinds."""
    read = await common_application_read(session, row, today)
    order = list(DocumentKind)
    return read.model_copy(update={"documents": sorted(read.documents, key=lambda d: order.index(d.kind))})


def add_event(
    session: AsyncSession,
    *,
    application_id: str,
    kind: EventKind,
    actor_id: str | None,
    at: datetime,
    details: dict[str, Any] | None = None,
) -> ApplicationEvent:
    """Append a line to the application's timeline (ids and codes only, never a document's contents)."""
    row = ApplicationEvent(
        application_id=application_id, kind=kind, actor_id=actor_id, at=at, details=details or {}
    )
    session.add(row)
    return row


def reason_uses(use: ReasonUse) -> tuple[ReasonUse, ...]:
    """The `applies_to` values a reason may have to be given for `use`."""
    return (use, ReasonUse.both)


async def active_reasons(
    session: AsyncSession, uses: Iterable[ReasonUse] = tuple(ReasonUse)
) -> list[DecisionReasonRead]:
    """The managed reasons in their order (active ones, applying to one of `uses`)."""
    rows = await session.scalars(
        select(DecisionReason)
        .where(DecisionReason.active.is_(True), DecisionReason.applies_to.in_(list(uses)))
        .order_by(DecisionReason.position, DecisionReason.code)
    )
    return [DecisionReasonRead.model_validate(r, from_attributes=True) for r in rows]
