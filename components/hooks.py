"""The only way components reach the domain: `use_query` to read, `use_action` to act, `use_topic` to
hear about changes made elsewhere (app/events.py), `use_viewer`, the root's one read of who is signed in,
and `use_draft`, the database copy of a form's unsent text (components/forms.py).

reactpy-django's `use_query` / `use_mutation` are the model:

    tickets = use_query(list_tickets, tab=tab, enabled=can_read)
    close = use_action(set_ticket_status, refetch=[tickets])
    use_topic(HELPDESK_TOPIC, refetch=[tickets])

The hooks supply the actor: a service function that takes `actor` gets the connection's (the
`UiSession.actor` of the context the hook runs in), so screens never pass it. An explicit `actor=` still
wins, for a screen that must act for someone else (none does today).

Each query or command opens one unit of work (commit on success, roll back on error). A ServiceError
becomes an error toast (or is handed to the caller's `on_error`); anything else is logged and shown as a
generic failure, never a traceback.

ReactPy compares hook dependencies by identity (only numbers, strings and bytes by value), so a dict,
Decimal or dataclass built during render would re-run an effect on every render. `use_query` therefore
compares its arguments by equality itself and hands ReactPy only an integer generation.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from reactpy import Ref, use_connection, use_context, use_ref, use_state
from reactpy.types import State

from app import events
from app.db import unit_of_work
from app.principal import Principal
from app.services.accounts import Viewer, resolve_viewer
from app.services.drafts import discard_draft, load_draft, save_draft
from app.services.errors import ServiceError
from app.settings import get_settings
from components.context import SessionContext, use_toaster
from components.effects import use_effect

T = TypeVar("T")
logger = logging.getLogger(__name__)
GENERIC_FAILURE = "Something went wrong. Please try again."
# A command's busy state shows only once it has run this long (seconds): most answer sooner, and showing
# it for them cost a render on the server and a redraw in the browser on every click, for a flash nobody
# can read. Double clicks are refused on the server (`exclusive`) either way.
PENDING_SHOWN_AFTER = 0.15


@dataclass(frozen=True)
class Query(Generic[T]):
    """What a query shows: `data` stays the last good result while a reload runs (`loading`)."""

    data: T | None
    loading: bool
    error: str | None
    refetch: Callable[[], None]


@dataclass(frozen=True)
class _Result:
    data: Any
    loading: bool
    error: str | None


# Database work started by a hook runs on a task of its own: when a tab closes, ReactPy cancels whatever
# awaits it (repeatedly, inside its cancel scope), and a read or a rollback cancelled halfway would leave
# its connection to be torn down in the background ("Task was destroyed but it is pending!"). The work
# finishes and returns its connection; only the waiting is cancelled.
_database_work: set[asyncio.Task[Any]] = set()


class LoadsInFlight:
    """Counts the hooks' database reads of one render on the server (the first paint, medivisit/
    first_paint.py), so it can wait until the data its screen asked for is in."""

    def __init__(self) -> None:
        self.count = 0
        self.idle = asyncio.Event()
        self.idle.set()

    def started(self) -> None:
        self.count += 1
        self.idle.clear()

    def finished(self) -> None:
        self.count -= 1
        if self.count == 0:
            self.idle.set()


# Set by the first paint around its layout; tasks (effects, loads) inherit it from the render.
loads_in_flight: contextvars.ContextVar[LoadsInFlight | None] = contextvars.ContextVar(
    "loads_in_flight", default=None
)


def use_live_tab() -> bool:
    """Whether this render is a live tab's (a websocket carries it), not the server's first paint of the
    page (its HTML, rendered with no carrier). A layout mounted without a backend (the UI tests) counts as
    live."""
    try:
        return use_connection().carrier is not None
    except RuntimeError:  # no backend: ReactPy's own error for a layout rendered outside a server
        return True


async def in_unit_of_work(fn: Callable[..., Awaitable[T]], /, **kwargs: Any) -> T:
    """`await fn(session=…, **kwargs)` in a unit of work of its own, which a cancelled caller cannot cut short."""

    async def work() -> T:
        async with unit_of_work() as session:
            return await fn(session=session, **kwargs)

    tracker = loads_in_flight.get()
    if tracker is not None:
        tracker.started()
    task = asyncio.create_task(work())
    _database_work.add(task)
    task.add_done_callback(_database_work.discard)
    try:
        return await asyncio.shield(task)
    finally:
        if tracker is not None:
            tracker.finished()


def use_actor() -> Principal | None:
    """Who this connection acts for (None: rendered outside the app root, as some UI tests do)."""
    session = use_context(SessionContext)
    return session.actor if session is not None else None


@functools.lru_cache(maxsize=1024)
def _takes_actor(fn: Callable[..., Any]) -> bool:
    try:
        return "actor" in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a callable without a signature to read
        return False


def _with_actor(fn: Callable[..., Any], kwargs: dict[str, Any], actor: Principal | None) -> dict[str, Any]:
    """`kwargs` plus the connection's `actor` when `fn` takes one and the caller named none."""
    if actor is None or "actor" in kwargs or not _takes_actor(fn):
        return kwargs
    return {"actor": actor, **kwargs}


class _QueryCell:
    """One query's bookkeeping across renders (held in a ref, never rendered)."""

    __slots__ = ("arguments", "generation", "started", "tasks")

    def __init__(self) -> None:
        self.arguments: Any = _UNSET
        self.generation = 0
        self.started = 0  # the generation whose load the effect started last
        self.tasks: set[asyncio.Task[None]] = set()

    def abandon(self) -> None:
        """The component is gone: loads still running finish (a database read cancelled halfway would
        leave its connection to be torn down in the background), and their results are dropped."""
        self.generation += 1


_UNSET = object()
_IDLE = _Result(None, False, None)


def _unchanged(old: Any, new: Any) -> bool:
    if old is _UNSET:
        return False
    try:
        return bool(old == new)
    except Exception:  # noqa: BLE001 - a value without a usable ==: treat it as changed
        return False


def use_query(
    fn: Callable[..., Awaitable[T]],
    *,
    deps: Iterable[Any] = (),
    enabled: bool = True,
    **kwargs: Any,
) -> Query[T]:
    """Run `fn(session=<unit of work>, **kwargs)` after render (with the connection's actor, when `fn`
    takes one).

    It runs again only when `kwargs` or `deps` change by equality (a new but equal dict, Decimal or
    dataclass does not count), or on `refetch()`. With `enabled=False` nothing runs (data None, loading
    False). The previous data stays while a reload runs; a result that arrives after newer arguments took
    over is dropped. `fn` itself must be a stable function (module level), not a lambda made per render.
    """
    cell: _QueryCell = use_state(_QueryCell)[0]  # made once, kept for the component's lifetime
    refetches, set_refetches = use_state(0)
    result, set_result = use_state(lambda: _Result(None, enabled, None))
    kwargs = _with_actor(fn, kwargs, use_actor())

    arguments = (fn, tuple(deps), kwargs, enabled, refetches)
    if not _unchanged(cell.arguments, arguments):
        cell.arguments = arguments
        cell.generation += 1

    generation = cell.generation

    @use_effect(dependencies=[generation])
    def start() -> None:
        if generation != cell.generation:
            return  # re-rendered with newer arguments before this effect ran: that render's effect loads
        if not enabled:
            set_result(lambda old: old if old == _IDLE else _IDLE)
            return
        cell.started = generation
        set_result(lambda old: old if old.loading and old.error is None else _Result(old.data, True, None))
        task = asyncio.create_task(load(generation))
        cell.tasks.add(task)
        task.add_done_callback(cell.tasks.discard)

    async def load(generation: int) -> None:
        try:
            data = await in_unit_of_work(fn, **kwargs)
        except ServiceError as exc:
            outcome = _Result(None, False, exc.message)
        except Exception:
            logger.exception("Query %s failed", getattr(fn, "__name__", fn))
            outcome = _Result(None, False, GENERIC_FAILURE)
        else:
            outcome = _Result(data, False, None)
        if generation == cell.generation:  # else newer arguments (or a refetch) took over: drop it
            set_result(outcome)

    @use_effect(dependencies=[])
    def unmount() -> Callable[[], None]:
        return cell.abandon

    refetch = use_ref(lambda: set_refetches(lambda n: n + 1)).current
    # Loading from the render whose arguments changed, not from the one after its effect: a flag such as
    # aria-busy never says "done" over the previous arguments' data.
    loading = result.loading or (enabled and cell.started != generation)
    return Query(result.data, loading, result.error, refetch)


@dataclass(frozen=True)
class Action(Generic[T]):
    run: Callable[..., Awaitable[T | None]]
    pending: bool


def use_action(
    fn: Callable[..., Awaitable[T]],
    *,
    refetch: Iterable[Query[Any]] = (),
    exclusive: bool = True,
    on_success: Callable[[T], None] | None = None,
    on_error: Callable[[str], None] | None = None,
) -> Action[T]:
    """Wrap a service command: `await action.run(**kwargs)` runs `fn(session=<unit of work>, **kwargs)`
    (with the connection's actor, when `fn` takes one) and returns its result, or None after a failure.

    `pending` turns true once a run has taken PENDING_SHOWN_AFTER seconds, false when runs end.
    On success every query in `refetch` reloads, then `on_success(result)` is called. With `exclusive`
    (the default) a run while another is in flight (a double click, a flood of events) is refused here on
    the server and returns None at once.
    """
    toaster = use_toaster()
    actor = use_actor()
    pending, set_pending = use_state(False)
    running = use_ref(0)  # runs in flight, counted synchronously before the first await
    dependants = tuple(refetch)

    def still_running() -> None:
        if running.current:
            set_pending(True)

    async def run(**kwargs: Any) -> T | None:
        if exclusive and running.current:
            return None
        running.current += 1
        shown = asyncio.get_running_loop().call_later(PENDING_SHOWN_AFTER, still_running)
        try:
            result = await in_unit_of_work(fn, **_with_actor(fn, kwargs, actor))
        except ServiceError as exc:
            (on_error or toaster.error)(exc.message)
            return None
        except Exception:
            logger.exception("Action %s failed", getattr(fn, "__name__", fn))
            (on_error or toaster.error)(GENERIC_FAILURE)
            return None
        finally:
            shown.cancel()
            running.current -= 1
            if not running.current:
                set_pending(False)  # nothing to render when it was never shown
        for query in dependants:
            query.refetch()
        if on_success is not None:
            on_success(result)
        return result

    return Action(run, pending)


TopicHandler = Callable[[dict[str, Any]], bool | None]
"""`use_topic`'s `on_event`: handed each event's payload; False means "ignored" (nothing reloads)."""


def use_topic(
    *topics: str,
    refetch: Iterable[Query[Any]] = (),
    on_event: TopicHandler | None = None,
) -> None:
    """Subscribe to `topics` while mounted (none: nothing is subscribed). Each event first goes to
    `on_event(payload)`; unless it returns False ("ignored"), the queries in `refetch` reload.

    Holds no state of its own: an ignored event re-renders nothing."""
    latest: Ref[tuple[TopicHandler | None, tuple[Query[Any], ...]]] = use_ref((on_event, ()))
    latest.current = (on_event, tuple(refetch))  # the latest callbacks, not the subscribing render's

    @use_effect(dependencies=list(topics))
    async def listen() -> None:
        if not topics:
            return
        async with events.subscribe(*topics) as queue:
            while True:
                payload = await queue.get()
                handler, dependants = latest.current
                try:
                    if handler is not None and handler(payload) is False:
                        continue
                except Exception:
                    logger.exception("Handling an event on %s failed", payload.get("topic"))
                    continue
                for query in dependants:
                    query.refetch()


@dataclass(frozen=True)
class ViewerState:
    loading: bool
    viewer: Viewer | None
    reload: Callable[[], None]


def use_viewer(access_token: str) -> ViewerState:
    """Who the access token signs in (checked by the identity service, session included), loaded once per
    connection and again on reload(). Without a token nothing loads and nothing re-renders."""
    version, set_version = use_state(0)
    viewer_state: State[tuple[bool, Viewer | None]] = use_state(lambda: (bool(access_token), None))
    state, set_state = viewer_state

    @use_effect(dependencies=[access_token, version])
    async def load() -> None:
        if not access_token:
            return
        try:
            viewer = await in_unit_of_work(resolve_viewer, access_token=access_token)
        except Exception:
            logger.exception("Loading the signed-in user failed")
            viewer = None
        set_state((False, viewer))

    loading, viewer = state
    return ViewerState(loading, viewer, lambda: set_version(lambda v: v + 1))


# ---- drafts ------------------------------------------------------------------------------------------
_DELETE = object()
_writes: set[asyncio.Task[None]] = set()  # strong references: a write outlives the component that asked


class DraftSaver:
    """A form's draft in the database (app.services.drafts): `save(values)` writes once changes pause for
    DRAFT_SAVE_DELAY_MS, `save(values, now=True)` and `discard()` at once, `flush()` writes what is waiting
    (the form unmounts). One write runs at a time; the latest values win. A refused write (the session
    ended) is dropped quietly: a draft is a convenience, never an error the user must handle."""

    def __init__(self, form_key: str, actor: Principal, delay_seconds: float) -> None:
        self.form_key = form_key
        self.actor = actor
        self.delay = delay_seconds
        self._pending: Any = None  # None: nothing to write; _DELETE; or the values to keep
        self._due = 0.0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def save(self, values: Mapping[str, Any] | None, *, now: bool = False) -> None:
        """Keep `values` (None: forget the draft), after the pause or `now`."""
        self._pending = _DELETE if values is None else dict(values)
        self._due = time.monotonic() + (0 if now else self.delay)
        self._start(wake=now)

    def discard(self) -> None:
        self.save(None, now=True)

    def flush(self) -> None:
        if self._pending is not None:
            self._due = 0.0
            self._start(wake=True)

    async def idle(self) -> None:
        """Wait until nothing is waiting to be written (for tests)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def _start(self, *, wake: bool) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
            _writes.add(self._task)
            self._task.add_done_callback(_writes.discard)
        elif wake:
            self._wake.set()

    async def _run(self) -> None:
        while self._pending is not None:
            wait = self._due - time.monotonic()
            if wait > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
                continue
            values, self._pending = self._pending, None
            try:
                if values is _DELETE:
                    await in_unit_of_work(discard_draft, actor=self.actor, form_key=self.form_key)
                else:
                    await in_unit_of_work(save_draft, actor=self.actor, form_key=self.form_key, values=values)
            except ServiceError:
                pass
            except Exception:
                logger.exception("Saving the draft of %s failed", self.form_key)


def use_draft(form_key: str | None, *, on_load: Callable[[dict[str, Any]], None]) -> DraftSaver | None:
    """Keep a form's draft in the database under `form_key` (None: no draft). Once mounted it loads the
    draft the connection's actor saved before (a reconnect, a restart, another worker) and hands it to
    `on_load`; the returned saver writes changes. A component shows one form key for its lifetime (key it
    by what the form is for, e.g. the ticket)."""
    actor = use_actor() or Principal.visitor("")
    saver: DraftSaver | None = use_state(
        lambda: DraftSaver(form_key, actor, get_settings().draft_save_delay_ms / 1000) if form_key else None
    )[0]
    if saver is not None:
        saver.actor = actor  # the latest connection details
    latest = use_ref(on_load)
    latest.current = on_load

    @use_effect(dependencies=[])
    async def load() -> None:
        if saver is None:
            return
        try:
            values = await in_unit_of_work(load_draft, actor=actor, form_key=saver.form_key)
        except ServiceError:
            return
        except Exception:
            logger.exception("Loading the draft of %s failed", saver.form_key)
            return
        if values:
            latest.current(values)

    @use_effect(dependencies=[])
    def unmount() -> Callable[[], None] | None:
        return saver.flush if saver is not None else None

    return saver
