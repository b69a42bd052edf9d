"""Typed domain events (app/events.py `publish_event`): an in-transaction subscriber commits or rolls back with
the command; an after-commit subscriber runs once the command has committed, in its own unit of work, never
after a rollback (nor for what a rolled-back savepoint published), and its failure does not undo the command."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import db as app_db
from app import events
from app.services.domain_events import AppointmentCompleted, OrderPlaced, PaymentCaptured, PaymentFailed
from medivisit.subscribers import wire_subscribers
from models.mail import OutboxMessage
from tests.factories import present


@dataclass(frozen=True)
class Happened:
    """A test-only event."""

    name: str


def _row(session: AsyncSession, subject: str) -> None:
    session.add(
        OutboxMessage(
            sender="events@medivisit.test", recipients=["x@medivisit.test"], subject=subject, html=""
        )
    )


async def _count(subject: str) -> int:
    async with app_db.unit_of_work() as session:
        return present(await session.scalar(select(func.count()).where(OutboxMessage.subject == subject)))


async def _in_transaction(session: AsyncSession, event: Happened) -> None:
    _row(session, f"in transaction: {event.name}")
    await session.flush()


async def _after_commit(session: AsyncSession, event: Happened) -> None:
    _row(session, f"after commit: {event.name}")


async def _failing(_session: AsyncSession, event: Happened) -> None:
    raise RuntimeError(f"the subscriber of {event.name} broke")


@pytest.fixture
def subscribed() -> Iterator[None]:
    undo = [
        events.subscribe_event(Happened, _in_transaction),
        events.subscribe_event(Happened, _failing, after_commit=True),
        events.subscribe_event(Happened, _after_commit, after_commit=True),
    ]
    yield
    for step in undo:
        step()


async def test_subscribers_run_in_the_transaction_and_after_the_commit(configured, subscribed) -> None:
    async with app_db.unit_of_work() as session:
        await events.publish_event(session, Happened("placed"))
        found = await session.scalar(
            select(func.count()).where(OutboxMessage.subject == "in transaction: placed")
        )
        assert found == 1, "the in-transaction subscriber writes in the command's own unit of work"
        assert (
            await session.scalar(select(func.count()).where(OutboxMessage.subject.like("after commit%"))) == 0
        )
    assert await _count("in transaction: placed") == 1
    assert await _count("after commit: placed") == 1  # ran before the command's unit of work was left


async def test_a_rollback_undoes_the_in_transaction_subscriber_and_skips_the_others(
    configured, subscribed
) -> None:
    with pytest.raises(LookupError):
        async with app_db.unit_of_work() as session:
            await events.publish_event(session, Happened("lost"))
            raise LookupError("the command failed after publishing")
    assert await _count("in transaction: lost") == 0
    assert await _count("after commit: lost") == 0


async def test_a_failing_in_transaction_subscriber_fails_the_command(configured) -> None:
    async def refuse(session: AsyncSession, _event: Happened) -> None:
        _row(session, "written before the refusal")
        raise PermissionError("refused")

    undo = events.subscribe_event(Happened, refuse)
    try:
        with pytest.raises(PermissionError):
            async with app_db.unit_of_work() as session:
                await events.publish_event(session, Happened("refused"))
    finally:
        undo()
    assert await _count("written before the refusal") == 0


async def test_a_failing_after_commit_subscriber_does_not_undo_the_command(
    configured, subscribed, caplog
) -> None:
    with caplog.at_level(logging.ERROR, logger="app.events"):
        async with app_db.unit_of_work() as session:
            await events.publish_event(session, Happened("kept"))
    assert await _count("in transaction: kept") == 1
    assert await _count("after commit: kept") == 1  # the next subscriber still ran
    assert "_failing of Happened failed after commit" in caplog.text


async def test_a_rolled_back_savepoint_drops_only_what_it_published(configured, subscribed) -> None:
    async with app_db.unit_of_work() as session:
        await events.publish_event(session, Happened("before"))
        released = await session.begin_nested()
        await events.publish_event(session, Happened("released"))
        await released.commit()
        assert await _count("after commit: before") == 0, "a released savepoint is not the commit"
        savepoint = await session.begin_nested()
        await events.publish_event(session, Happened("inside"))
        await savepoint.rollback()
    assert await _count("after commit: before") == 1
    assert await _count("after commit: released") == 1
    assert await _count("after commit: inside") == 0
    assert await _count("in transaction: inside") == 0


async def test_an_event_nobody_subscribes_to_is_refused(configured) -> None:
    async with app_db.unit_of_work() as session:
        with pytest.raises(RuntimeError, match="nothing subscribes to Happened"):
            await events.publish_event(session, Happened("unheard"))


def test_the_wiring_subscribes_the_checkout_and_payment_events_once() -> None:
    wire_subscribers()
    wire_subscribers()
    for kind in (OrderPlaced, PaymentCaptured, PaymentFailed, AppointmentCompleted):
        assert events.subscribed(kind)
        handlers = events._subscriptions.in_transaction[kind] + events._subscriptions.after_commit[kind]
        assert len(handlers) == len(set(handlers)) >= 2
