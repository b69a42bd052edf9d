"""A staff member's own task list (Staff Dashboard, SPEC §3 dashboard task): add, edit, tick off, delete.

Every staff member (any portal role, active) keeps their own list; nobody sees or touches another's
tasks, so a task of someone else reads as not found. Open tasks come first, the most urgent first.
"""

from __future__ import annotations

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.staff_access import require_staff
from models.base import utcnow
from models.identity import as_utc
from models.staff import StaffTask, StaffTaskRead, TaskCountsRead, TaskPriority

MAX_TASKS = 100
MAX_DESCRIPTION = 300
EMPTY_DESCRIPTION = "Please describe the task."
TOO_LONG = f"Keep the task under {MAX_DESCRIPTION} characters."
INVALID_PRIORITY = "Choose a priority: high, medium or low."
TASK_NOT_FOUND = "This task no longer exists."

_URGENCY = case(
    (StaffTask.priority == TaskPriority.high, 0), (StaffTask.priority == TaskPriority.medium, 1), else_=2
)


def _read(row: StaffTask) -> StaffTaskRead:
    return StaffTaskRead(
        id=row.id,
        description=row.description,
        priority=row.priority,
        completed=row.completed,
        created_at=as_utc(row.created_at),
    )


def _description(value: str) -> str:
    text = " ".join((value or "").split())
    if not text:
        raise ValidationFailed(EMPTY_DESCRIPTION)
    if len(text) > MAX_DESCRIPTION:
        raise ValidationFailed(TOO_LONG)
    return text


def _priority(value: TaskPriority | str) -> TaskPriority:
    try:
        return TaskPriority(value)
    except ValueError:
        raise ValidationFailed(INVALID_PRIORITY) from None


async def _own_task(session: AsyncSession, actor: Principal, task_id: str) -> StaffTask:
    account, _ = await require_staff(session=session, actor=actor)
    row = await session.get(StaffTask, task_id)
    if row is None or row.owner_id != account.id:
        raise NotFound(TASK_NOT_FOUND)
    return row


async def list_tasks(
    *, session: AsyncSession, actor: Principal, include_done: bool = False
) -> list[StaffTaskRead]:
    """The member's open tasks (with `include_done`, the done ones after them), at most 100."""
    account, _ = await require_staff(session=session, actor=actor)
    query = select(StaffTask).where(StaffTask.owner_id == account.id)
    if not include_done:
        query = query.where(StaffTask.completed.is_(False))
    rows = await session.scalars(
        query.order_by(StaffTask.completed, _URGENCY, StaffTask.created_at, StaffTask.id).limit(MAX_TASKS)
    )
    return [_read(row) for row in rows]


async def count_tasks(*, session: AsyncSession, actor: Principal) -> TaskCountsRead:
    """How many of the member's tasks are done and how many remain."""
    account, _ = await require_staff(session=session, actor=actor)
    counts = dict(
        (
            await session.execute(
                select(StaffTask.completed, func.count())
                .where(StaffTask.owner_id == account.id)
                .group_by(StaffTask.completed)
            )
        ).all()
    )
    return TaskCountsRead(completed=counts.get(True, 0), remaining=counts.get(False, 0))


async def add_task(
    *,
    session: AsyncSession,
    actor: Principal,
    description: str,
    priority: TaskPriority | str = TaskPriority.medium,
) -> StaffTaskRead:
    account, _ = await require_staff(session=session, actor=actor)
    row = StaffTask(
        owner_id=account.id,
        description=_description(description),
        priority=_priority(priority),
        completed=False,
    )
    session.add(row)
    await session.flush()
    return _read(row)


async def edit_task(
    *,
    session: AsyncSession,
    actor: Principal,
    task_id: str,
    description: str,
    priority: TaskPriority | str,
) -> StaffTaskRead:
    row = await _own_task(session, actor, task_id)
    row.description = _description(description)
    row.priority = _priority(priority)
    await session.flush()
    return _read(row)


async def set_task_done(
    *, session: AsyncSession, actor: Principal, task_id: str, done: bool
) -> StaffTaskRead:
    row = await _own_task(session, actor, task_id)
    if row.completed != done:
        row.completed = done
        row.completed_at = utcnow() if done else None
        await session.flush()
    return _read(row)


async def delete_task(*, session: AsyncSession, actor: Principal, task_id: str) -> StaffTaskRead:
    """Delete one of the member's tasks; returns it as it was."""
    row = await _own_task(session, actor, task_id)
    read = _read(row)
    await session.delete(row)
    await session.flush()
    return read
