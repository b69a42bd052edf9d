"""The only way components reach the domain: `use_query` to read, `use_action` to act, `use_topic` to
hear about changes made elsewhere (app/events.py), and `use_viewer`, the root's one read of who is signed in.

Each call opens one unit of work (commit on success, roll back on error). A ServiceError becomes an
error toast (or is handed to the caller's `on_error`); anything else is logged and shown as a generic
failure, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from reactpy import use_effect, use_ref, use_state

from app import events
from app.db import unit_of_work
from app.services.accounts import Viewer, resolve_viewer
from app.services.errors import ServiceError
from components.context import use_toaster

T = TypeVar("T")
logger = logging.getLogger(__name__)
GENERIC_FAILURE = "Something went wrong. Please try again."


@dataclass(frozen=True)
class Query(Generic[T]):
    data: T | None
    loading: bool
    error: str | None
    refetch: Callable[[], None]


def use_query(fn: Callable[..., Awaitable[T]], **kwargs: Any) -> Query[T]:
    """Run `fn(session=..., **kwargs)` after render, again whenever kwargs change or on refetch()."""
    version, set_version = use_state(0)
    state, set_state = use_state((None, True, None))

    @use_effect(dependencies=[fn, version, *kwargs.values()])
    async def load() -> None:
        set_state(lambda old: (old[0], True, None))
        try:
            async with unit_of_work() as session:
                data = await fn(session=session, **kwargs)
        except ServiceError as exc:
            set_state((None, False, exc.message))
        except Exception:
            logger.exception("Query %s failed", getattr(fn, "__name__", fn))
            set_state((None, False, GENERIC_FAILURE))
        else:
            set_state((data, False, None))

    data, loading, error = state
    return Query(data, loading, error, lambda: set_version(lambda v: v + 1))


@dataclass(frozen=True)
class Action(Generic[T]):
    run: Callable[..., Awaitable[T | None]]
    pending: bool


def use_action(
    fn: Callable[..., Awaitable[T]],
    *,
    on_success: Callable[[T], None] | None = None,
    on_error: Callable[[str], None] | None = None,
) -> Action[T]:
    """Wrap a service command: `await action.run(**kwargs)` returns its result, or None after a failure."""
    toaster = use_toaster()
    pending, set_pending = use_state(False)

    async def run(**kwargs: Any) -> T | None:
        set_pending(True)
        try:
            async with unit_of_work() as session:
                result = await fn(session=session, **kwargs)
        except ServiceError as exc:
            (on_error or toaster.error)(exc.message)
            return None
        except Exception:
            logger.exception("Action %s failed", getattr(fn, "__name__", fn))
            (on_error or toaster.error)(GENERIC_FAILURE)
            return None
        finally:
            set_pending(False)
        if on_success is not None:
            on_success(result)
        return result

    return Action(run, pending)


def use_topic(*topics: str, on_event: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Subscribe while mounted; returns a counter that grows with each event (use it as a `use_query`
    argument to refetch), and calls `on_event(payload)` first when given. No topics: nothing is subscribed."""
    count, set_count = use_state(0)
    handler = use_ref(on_event)
    handler.current = on_event  # the latest callback, not the one of the render that subscribed

    @use_effect(dependencies=list(topics))
    async def listen() -> None:
        if not topics:
            return
        async with events.subscribe(*topics) as queue:
            while True:
                payload = await queue.get()
                if handler.current is not None:
                    handler.current(payload)
                set_count(lambda n: n + 1)

    return count


@dataclass(frozen=True)
class ViewerState:
    loading: bool
    viewer: Viewer | None
    reload: Callable[[], None]


def use_viewer(access_token: str) -> ViewerState:
    """Who the access token signs in (checked by the identity service, session included), loaded once per
    connection and again on reload(). Without a token nothing loads and nothing re-renders."""
    version, set_version = use_state(0)
    state, set_state = use_state(lambda: (bool(access_token), None))

    @use_effect(dependencies=[access_token, version])
    async def load() -> None:
        if not access_token:
            return
        try:
            async with unit_of_work() as session:
                viewer = await resolve_viewer(session=session, access_token=access_token)
        except Exception:
            logger.exception("Loading the signed-in user failed")
            viewer = None
        set_state((False, viewer))

    loading, viewer = state
    return ViewerState(loading, viewer, lambda: set_version(lambda v: v + 1))
