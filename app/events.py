"""Domain events: services publish on a topic, open screens subscribe, delivery only after commit.

`publish_on_commit(session, topic, payload)` queues an event on the unit of work. Nothing is delivered if
the transaction rolls back.
- SQLite (the embedded default, one process): the events are handed to this process's subscribers right
  after the commit.
- PostgreSQL: the events are sent with `pg_notify` inside the transaction, so PostgreSQL delivers them at
  commit to every process listening (one LISTEN connection per process), and each process fans them out
  to its own subscribers. Several workers therefore see each other's events.

Payloads are small JSON objects (ids and names, never private text): a subscriber re-reads what it may see
through the services, so an event never carries data past a permission check.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy import ARRAY, Text, bindparam, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.db import async_url, get_database

logger = logging.getLogger(__name__)

CHANNEL = "medivisit_events"
_PENDING = "medivisit_pending_events"
QUEUE_LIMIT = 256  # a subscriber that falls this far behind loses the oldest events, never blocks others


class _Bus:
    """This process's subscribers, by topic: deliberately process-wide, it is what connects the tabs."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}

    def deliver(self, topic: str, payload: dict[str, Any]) -> None:
        for queue in tuple(self.subscribers.get(topic, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait({**payload, "topic": topic})


_bus = _Bus()
_listener: _PostgresListener | None = None


def _is_postgres(session: AsyncSession) -> bool:
    return session.bind is not None and session.bind.dialect.name == "postgresql"


async def publish_on_commit(session: AsyncSession, topic: str, payload: dict[str, Any] | None = None) -> None:
    """Deliver `payload` to the subscribers of `topic` once this unit of work commits."""
    message = {"topic": topic, "payload": payload or {}}
    if _is_postgres(session):
        await session.execute(
            text("SELECT pg_notify(:channel, :message)"), {"channel": CHANNEL, "message": json.dumps(message)}
        )
        return
    session.sync_session.info.setdefault(_PENDING, []).append(message)


async def publish_all_on_commit(
    session: AsyncSession, messages: Sequence[tuple[str, dict[str, Any] | None]]
) -> None:
    """`publish_on_commit` for several (topic, payload) pairs at once: one statement on PostgreSQL."""
    if not messages:
        return
    if not _is_postgres(session):
        for topic, payload in messages:
            await publish_on_commit(session, topic, payload)
        return
    raw = [json.dumps({"topic": topic, "payload": payload or {}}) for topic, payload in messages]
    await session.execute(
        text("SELECT pg_notify(:channel, message) FROM unnest(:messages) AS message").bindparams(
            bindparam("messages", type_=ARRAY(Text))
        ),
        {"channel": CHANNEL, "messages": raw},
    )


@event.listens_for(Session, "after_commit")
def _deliver_pending(session: Session) -> None:
    for message in session.info.pop(_PENDING, ()):
        _bus.deliver(message["topic"], message["payload"])


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    session.info.pop(_PENDING, None)


@contextlib.asynccontextmanager
async def subscribe(*topics: str) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
    """A queue receiving the payloads of `topics` (each payload gains a "topic" key) while the block runs."""
    await _ensure_listener()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_LIMIT)
    for topic in topics:
        _bus.subscribers.setdefault(topic, set()).add(queue)
    try:
        yield queue
    finally:
        for topic in topics:
            subscribers = _bus.subscribers.get(topic)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del _bus.subscribers[topic]


# ---- PostgreSQL: one LISTEN connection per process ----------------------------------------------
class _PostgresListener:
    def __init__(self, url: str) -> None:
        self.url = url
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    def _on_notify(self, _connection: Any, _pid: int, _channel: str, raw: str) -> None:
        try:
            message = json.loads(raw)
            _bus.deliver(message["topic"], message["payload"])
        except (ValueError, KeyError, TypeError):
            logger.warning("Ignored a malformed event on %s", CHANNEL)

    async def _run(self) -> None:
        import asyncpg

        dsn = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        delay = 0.5
        while True:
            try:
                connection = await asyncpg.connect(dsn)
                closed = asyncio.Event()
                connection.add_termination_listener(lambda _connection, closed=closed: closed.set())
                try:
                    await connection.add_listener(CHANNEL, self._on_notify)
                    self.ready.set()
                    delay = 0.5
                    await closed.wait()
                finally:
                    self.ready.clear()
                    with contextlib.suppress(Exception):
                        await connection.close()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep listening through restarts of the database
                logger.warning("Event listener lost its connection; retrying in %.1f s", delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10)


async def _ensure_listener() -> None:
    """Start this process's LISTEN connection on first use (PostgreSQL only) and wait until it listens."""
    global _listener
    url = async_url(get_database().url)
    if make_url(url).get_backend_name() != "postgresql":
        return
    loop = asyncio.get_running_loop()
    if (
        _listener is None
        or _listener.url != url
        or _listener.task.get_loop() is not loop
        or _listener.task.done()
    ):
        if _listener is not None and _listener.task.get_loop() is loop:
            _listener.task.cancel()  # it listens on another database (tests switch databases)
        _listener = _PostgresListener(url)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(_listener.ready.wait(), timeout=5)


async def publish(topic: str, payload: dict[str, Any] | None = None) -> None:
    """Publish a signal that belongs to no write (who is viewing a ticket, who is typing) at once."""
    async with get_database().unit_of_work() as session:
        await publish_on_commit(session, topic, payload)
