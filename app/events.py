"""Events: typed domain events that commands publish and other domains subscribe to, and the live topics
open screens subscribe to. Nothing is delivered if the transaction rolls back.

Typed domain events (the dataclasses of app/services/domain_events.py): a command calls
`await publish_event(session, OrderPlaced(...))`. Its subscribers are registered once at start-up
(`subscribe_event`, from medivisit/subscribers.py), so a publishing domain imports this module and its
event types, never its subscribers.
- An in-transaction subscriber (`after_commit=False`: a ledger posting) runs at once, in the command's
  unit of work: it fails the command, and it rolls back with it.
- An after-commit subscriber (mail, notifications, webhooks) runs once the command's transaction has
  committed, each in a unit of work of its own (the job runner's, app/jobs.py), before the command's
  `unit_of_work()` block is left. It is dropped when the transaction rolls back (or the savepoint that
  published it), and its failure is logged, never undoes the command.

Live topics: `publish_on_commit(session, topic, payload)` queues a message on the unit of work.
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
import functools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy import ARRAY, Text, bindparam, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, SessionTransaction
from sqlalchemy.util import await_only

from app.db import async_url, get_database
from app.jobs import run_command

logger = logging.getLogger(__name__)

CHANNEL = "medivisit_events"
_PENDING = "medivisit_pending_events"
_AFTER_COMMIT = "medivisit_after_commit_events"  # session.info: (handler, event) pairs awaiting the commit
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
    _queue(session, _PENDING, message)


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


def _queue(session: AsyncSession, key: str, item: object) -> None:
    """Keep `item` on the unit of work until it commits, noting the (sub)transaction it belongs to."""
    sync = session.sync_session
    sync.info.setdefault(key, []).append((sync.get_nested_transaction() or sync.get_transaction(), item))


def _within(transaction: SessionTransaction | None, savepoint: SessionTransaction) -> bool:
    while transaction is not None:
        if transaction is savepoint:
            return True
        transaction = transaction.parent
    return False


@event.listens_for(Session, "after_commit")
def _deliver_pending(session: Session) -> None:
    if session.get_nested_transaction() is not None:
        return  # a savepoint was released: what it queued waits for the transaction's own commit
    for _transaction, message in session.info.pop(_PENDING, ()):
        _bus.deliver(message["topic"], message["payload"])
    queued = session.info.pop(_AFTER_COMMIT, None)
    if queued:
        # Inside AsyncSession.commit's greenlet: the subscribers run before the command's commit returns.
        await_only(_run_after_commit([item for _transaction, item in queued]))


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    savepoint = session.get_nested_transaction()  # the savepoint rolled back, or None: the transaction
    for key in (_PENDING, _AFTER_COMMIT):
        if savepoint is None:
            session.info.pop(key, None)
        elif key in session.info:
            session.info[key] = [entry for entry in session.info[key] if not _within(entry[0], savepoint)]


# ---- typed domain events ------------------------------------------------------------------------
E = TypeVar("E")
Subscriber = Callable[[AsyncSession, Any], Awaitable[None]]


class _Subscriptions:
    """The subscribers of each event type, in the order they were wired: process-wide, set at start-up."""

    def __init__(self) -> None:
        self.in_transaction: dict[type, list[Subscriber]] = {}
        self.after_commit: dict[type, list[Subscriber]] = {}

    def of(self, kind: type, *, after_commit: bool) -> list[Subscriber]:
        return (self.after_commit if after_commit else self.in_transaction).setdefault(kind, [])


_subscriptions = _Subscriptions()


def subscribe_event(
    event_type: type[E],
    handler: Callable[[AsyncSession, E], Awaitable[None]],
    *,
    after_commit: bool = False,
) -> Callable[[], None]:
    """Call `handler(session, event)` for each published `event_type`: in the publisher's unit of work, or
    with `after_commit` in one of its own once that has committed. Subscribing twice is subscribing once.
    Returns the undo (for tests)."""
    handlers = _subscriptions.of(event_type, after_commit=after_commit)
    if handler not in handlers:
        handlers.append(handler)

    def undo() -> None:
        if handler in handlers:
            handlers.remove(handler)

    return undo


def subscribed(event_type: type) -> bool:
    """Whether anything subscribes to `event_type` (the wiring at start-up has run)."""
    return bool(_subscriptions.in_transaction.get(event_type) or _subscriptions.after_commit.get(event_type))


async def publish_event(session: AsyncSession, domain_event: object) -> None:
    """Hand `domain_event` to its subscribers: the in-transaction ones now, the after-commit ones once the
    unit of work of `session` commits. Refuses an event nobody subscribes to: the subscribers were not wired
    at start-up (medivisit/subscribers.py), and its side effects would silently not happen."""
    kind = type(domain_event)
    if not subscribed(kind):
        raise RuntimeError(f"nothing subscribes to {kind.__name__}: wire the subscribers at start-up")
    for handler in tuple(_subscriptions.in_transaction.get(kind, ())):
        await handler(session, domain_event)
    later = _subscriptions.after_commit.get(kind)
    if later:
        for handler in later:
            _queue(session, _AFTER_COMMIT, (handler, domain_event))


async def _run_one(handler: Subscriber, domain_event: object, *, session: AsyncSession) -> None:
    await handler(session, domain_event)


async def _run_after_commit(queued: list[tuple[Subscriber, object]]) -> None:
    for handler, domain_event in queued:
        try:
            await run_command(functools.partial(_run_one, handler, domain_event))
        except Exception:  # noqa: BLE001 - the command has committed; its side effect is lost, and logged
            logger.exception(
                "%s of %s failed after commit", handler.__qualname__, type(domain_event).__name__
            )


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
