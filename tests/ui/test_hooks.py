"""The data hooks (components/hooks.py), rendered headlessly with reactpy's Layout against the test database.

Ordering is made with asyncio.Event gates and by awaiting the hooks' own tasks, never with sleeps."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from reactpy import component, html, use_state
from reactpy.core.layout import Layout
from reactpy.core.types import LayoutEventMessage
from sqlalchemy import text

from app import db as app_db
from app import events
from app.principal import Principal
from components.context import CartHandle, Disclosure, SessionContext, Toaster, UiSession
from components.hooks import Query, use_action, use_query, use_topic
from medivisit.reactpy_compat import hook_stack

pytestmark = pytest.mark.usefixtures("configured")
TIMEOUT = 10


@pytest.fixture(autouse=True)
def _task_local_hook_stack() -> None:
    hook_stack.install()  # as the server does at startup


# ---- harness ------------------------------------------------------------------------------------
class CountingLayout(Layout):
    """A Layout that counts render requests: an update that never happens cannot be awaited, but a
    render that was never scheduled can be asserted synchronously."""

    def __init__(self, root: Any) -> None:
        super().__init__(root)
        self.scheduled = 0

    def _schedule_render_task(self, lcs_id: Any) -> None:
        self.scheduled += 1
        super()._schedule_render_task(lcs_id)

    async def __aenter__(self) -> CountingLayout:
        await super().__aenter__()
        return self


def loaded(query: Query[Any]) -> Any:
    """`query`'s data, which the test has waited for."""
    assert query.data is not None, "the query has no data yet"
    return query.data


def ui_session(toaster: Toaster | None = None, actor: Principal | None = None) -> UiSession:
    return UiSession(
        user=None,
        toaster=toaster or Toaster(),
        cart=CartHandle(),
        bug_report=Disclosure(),
        visitor_id="visitor-test",
        actor=actor or Principal.visitor("visitor-test"),
    )


def with_session(child: Any, toaster: Toaster | None = None, actor: Principal | None = None) -> Any:
    return SessionContext(child, value=ui_session(toaster, actor))


async def render_until(layout: Layout, done: Callable[[], bool]) -> None:
    """Render until `done()` holds. ReactPy 1.1 renders serially by default: a scheduled render only happens
    when `layout.render()` is awaited, so this pumps one update at a time."""

    def holds() -> bool:
        try:
            return done()
        except (IndexError, KeyError, TypeError):  # nothing rendered or loaded yet
            return False

    async def loop() -> None:
        while not holds():
            await layout.render()

    await asyncio.wait_for(loop(), TIMEOUT)


async def settle_queries() -> None:
    """Await every use_query load in flight (including ones whose result will be dropped)."""
    loads = [
        t
        for t in asyncio.all_tasks()
        if getattr(t.get_coro(), "__qualname__", "") == "use_query.<locals>.load"
    ]
    await asyncio.wait_for(asyncio.gather(*loads), TIMEOUT)


def find_handler(model: Any, event: str = "on_click") -> str:
    if isinstance(model, dict):
        handlers = model.get("eventHandlers") or {}
        if event in handlers:
            return handlers[event]["target"]
        for child in model.get("children", ()):
            try:
                return find_handler(child, event)
            except LookupError:
                pass
    raise LookupError(event)


class Recorder:
    """A query function on the real unit of work that records its calls; optional gates per call."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.gates: dict[Any, asyncio.Event] = {}
        self.entered: dict[Any, asyncio.Event] = {}

    def entering(self, n: Any) -> asyncio.Event:
        return self.entered.setdefault(n, asyncio.Event())

    async def __call__(self, *, session: Any, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        self.entering(kwargs.get("n")).set()
        gate = self.gates.get(kwargs.get("n"))
        if gate is not None:
            await gate.wait()
        value = (await session.execute(text("SELECT 1"))).scalar_one()
        return {"n": kwargs.get("n"), "call": len(self.calls), "one": value}


@dataclass(frozen=True)
class Filters:
    tags: tuple[str, ...]
    limit: int


class Controls:
    """Setters the test reaches into from outside the tree."""

    set_n: Callable[[Any], None]
    rerender: Callable[[Any], None]
    query: Query[Any]


# ---- the actor --------------------------------------------------------------------------------------
JORDAN = Principal.user(user_id="user-jordan", session_id="session-jordan")
SAM = Principal.user(user_id="user-sam", session_id="session-sam")


async def test_the_hooks_pass_the_connections_actor_to_functions_that_take_one() -> None:
    calls: dict[str, Any] = {}
    results: list[Any] = []

    async def read(*, session: Any, actor: Principal, n: int) -> int:
        calls[f"read {n}"] = actor
        return n

    async def read_anything(*, session: Any, n: int) -> int:
        calls["read anything"] = n
        return n

    async def command(*, session: Any, actor: Principal) -> str:
        calls["command"] = actor
        return "done"

    @component
    def Probe() -> Any:
        use_query(read, n=1)
        use_query(read, n=2, actor=SAM)  # named: acting for someone else
        use_query(read_anything, n=3)
        action = use_action(command)

        async def click(_event: Any) -> None:
            results.append(await action.run())

        return html.button({"on_click": click}, "Go")

    async with Layout(with_session(Probe(), actor=JORDAN)) as layout:
        update = await layout.render()
        await render_until(layout, lambda: len(calls) == 3)
        assert calls == {"read 1": JORDAN, "read 2": SAM, "read anything": 3}
        event: LayoutEventMessage = {
            "type": "layout-event",
            "target": find_handler(update["model"]),
            "data": [{}],
        }
        await asyncio.wait_for(layout.deliver(event), TIMEOUT)
        assert results == ["done"] and calls["command"] == JORDAN


async def test_a_query_loads_again_for_a_new_actor() -> None:
    """Signing in or out gives the tree a new session: what a query read for the old actor is read again."""
    seen: list[Query[Any]] = []
    switch: list[Callable[[UiSession], None]] = []

    async def whose(*, session: Any, actor: Principal) -> str:
        return actor.user_id

    @component
    def Probe() -> Any:
        query = use_query(whose)
        seen.append(query)
        return html.p(str(query.data))

    @component
    def Root() -> Any:
        ui, set_ui = use_state(lambda: ui_session(actor=JORDAN))
        switch[:] = [set_ui]
        return SessionContext(Probe(), value=ui)

    async with Layout(Root()) as layout:
        await render_until(layout, lambda: seen[-1].data == "user-jordan")
        switch[0](ui_session(actor=SAM))
        await render_until(layout, lambda: seen[-1].data == "user-sam")


# ---- use_query --------------------------------------------------------------------------------------
async def test_equal_but_new_arguments_do_not_rerun_the_query() -> None:
    fetch = Recorder()
    controls = Controls()
    seen: list[Query[Any]] = []

    @component
    def Probe() -> Any:
        tick, controls.rerender = use_state(0)
        n, controls.set_n = use_state(1)
        # new objects on every render, equal to the previous ones
        query = use_query(
            fetch,
            n=n,
            where={"city": "Austin", "ids": [1, 2]},
            price=Decimal("12.50"),
            filters=Filters(("a", "b"), 10),
            deps=[Decimal("1.0"), {"x": 1}],
        )
        seen.append(query)
        return html.p(f"{tick}:{query.data}")

    async with Layout(with_session(Probe())) as layout:
        await render_until(layout, lambda: bool(seen) and seen[-1].data is not None)
        assert len(fetch.calls) == 1
        for i in range(1, 6):
            controls.rerender(i)
            await layout.render()
        await settle_queries()
        assert len(fetch.calls) == 1, "equal arguments ran the query again"
        assert not seen[-1].loading and loaded(seen[-1])["call"] == 1

        controls.set_n(2)  # a real change
        await render_until(layout, lambda: loaded(seen[-1])["n"] == 2)
        assert [call["n"] for call in fetch.calls] == [1, 2]
        assert fetch.calls[1]["price"] == Decimal("12.50")


async def test_refetch_reruns_and_keeps_the_data_while_loading() -> None:
    fetch = Recorder()
    seen: list[Query[Any]] = []

    @component
    def Probe() -> Any:
        query = use_query(fetch, n=1)
        seen.append(query)
        return html.p(str(query.data))

    async with Layout(with_session(Probe())) as layout:
        await render_until(layout, lambda: seen[-1].data is not None)
        assert seen[0].loading and seen[0].data is None  # the first render already says "loading"
        fetch.gates[1] = gate = asyncio.Event()
        seen[-1].refetch()
        await render_until(layout, lambda: seen[-1].loading)
        assert loaded(seen[-1])["call"] == 1, "the previous data must stay while reloading"
        gate.set()
        await render_until(layout, lambda: not seen[-1].loading)
        assert loaded(seen[-1])["call"] == 2
        assert len(fetch.calls) == 2


async def test_disabled_query_runs_nothing_until_enabled() -> None:
    fetch = Recorder()
    controls = Controls()
    seen: list[Query[Any]] = []

    @component
    def Probe() -> Any:
        enabled, controls.set_n = use_state(False)
        query = use_query(fetch, n=1, enabled=enabled)
        seen.append(query)
        return html.p(str(query.data))

    async with Layout(with_session(Probe())) as layout:
        await layout.render()
        await settle_queries()
        assert fetch.calls == []
        assert (seen[-1].data, seen[-1].loading, seen[-1].error) == (None, False, None)

        controls.set_n(True)
        await render_until(layout, lambda: seen[-1].data is not None)
        assert len(fetch.calls) == 1

        controls.set_n(False)
        await render_until(layout, lambda: seen[-1].data is None)
        assert (seen[-1].loading, len(fetch.calls)) == (False, 1)


async def test_a_stale_result_does_not_overwrite_a_newer_one() -> None:
    fetch = Recorder()
    fetch.gates = {1: asyncio.Event(), 2: asyncio.Event()}
    controls = Controls()
    seen: list[Query[Any]] = []

    @component
    def Probe() -> Any:
        n, controls.set_n = use_state(1)
        query = use_query(fetch, n=n)
        seen.append(query)
        return html.p(str(query.data))

    async with CountingLayout(with_session(Probe())) as layout:
        await layout.render()
        await asyncio.wait_for(fetch.entering(1).wait(), TIMEOUT)
        controls.set_n(2)
        await layout.render()
        await asyncio.wait_for(fetch.entering(2).wait(), TIMEOUT)  # both loads wait at their gates
        fetch.gates[2].set()
        await render_until(layout, lambda: seen[-1].data is not None)
        assert loaded(seen[-1])["n"] == 2
        scheduled = layout.scheduled

        fetch.gates[1].set()  # the older load finishes last
        await settle_queries()
        assert layout.scheduled == scheduled, "a stale result re-rendered the component"
        assert loaded(seen[-1])["n"] == 2 and not seen[-1].loading


async def test_a_service_error_becomes_the_query_error() -> None:
    from app.services.errors import ServiceError

    async def refuse(*, session: Any) -> None:
        raise ServiceError("Not yours")

    seen: list[Query[Any]] = []

    @component
    def Probe() -> Any:
        query = use_query(refuse)
        seen.append(query)
        return html.p(str(query.error))

    async with Layout(with_session(Probe())) as layout:
        await render_until(layout, lambda: seen[-1].error is not None)
        assert (seen[-1].data, seen[-1].loading, seen[-1].error) == (None, False, "Not yours")


# ---- use_action -------------------------------------------------------------------------------------
async def test_an_exclusive_action_runs_once_under_a_flood_of_clicks_and_refetches() -> None:
    fetch = Recorder()
    started, release = asyncio.Event(), asyncio.Event()
    ran: list[dict[str, Any]] = []
    results: list[Any] = []
    seen: list[tuple[Query[Any], bool]] = []

    async def command(*, session: Any, amount: Decimal) -> str:
        ran.append({"amount": amount})
        started.set()
        await release.wait()
        await session.execute(text("SELECT 1"))
        return "done"

    @component
    def Probe() -> Any:
        query = use_query(fetch, n=1)
        action = use_action(command, refetch=[query])
        seen.append((query, action.pending))

        async def click(_event: Any) -> None:
            results.append(await action.run(amount=Decimal("5")))

        return html.button({"on_click": click}, "Pay")

    async with Layout(with_session(Probe())) as layout:
        update = await layout.render()
        await render_until(layout, lambda: seen[-1][0].data is not None)
        target = find_handler(update["model"])
        event: LayoutEventMessage = {"type": "layout-event", "target": target, "data": [{}]}

        clicks = [asyncio.create_task(layout.deliver(event)) for _ in range(200)]
        await asyncio.wait_for(started.wait(), TIMEOUT)

        async def refused() -> None:
            while sum(task.done() for task in clicks) < 199:
                await asyncio.wait([t for t in clicks if not t.done()], return_when=asyncio.FIRST_COMPLETED)

        await asyncio.wait_for(refused(), TIMEOUT)  # every other click came back while the first one runs
        assert len(ran) == 1
        await render_until(layout, lambda: seen[-1][1])  # pending shows

        release.set()
        await asyncio.wait_for(asyncio.gather(*clicks), TIMEOUT)
        assert len(ran) == 1
        assert results.count("done") == 1 and results.count(None) == 199
        await render_until(layout, lambda: loaded(seen[-1][0])["call"] == 2 and not seen[-1][1])
        assert len(fetch.calls) == 2


async def test_a_quick_action_never_shows_its_busy_state() -> None:
    """Busy shows only once a run has taken components.hooks.PENDING_SHOWN_AFTER: a quick command renders
    no flash of it."""
    done = asyncio.Event()
    seen: list[bool] = []

    async def command(*, session: Any) -> str:
        return "done"

    @component
    def Probe() -> Any:
        action = use_action(command)
        seen.append(action.pending)

        async def click(_event: Any) -> None:
            await action.run()
            done.set()

        return html.button({"on_click": click}, "Save")

    async with Layout(with_session(Probe())) as layout:
        update = await layout.render()
        target = find_handler(update["model"])
        await layout.deliver({"type": "layout-event", "target": target, "data": [{}]})
        await asyncio.wait_for(done.wait(), TIMEOUT)
        assert not layout._rendering_queue._pending  # no render due, and the busy timer was cancelled
    assert seen == [False]  # one render: the click rendered nothing


async def test_a_failing_action_toasts_and_does_not_refetch() -> None:
    from app.services.errors import ServiceError

    fetch = Recorder()
    toasts: list[str] = []

    class Recording(Toaster):
        def error(self, title: str, description: str | None = None) -> None:
            toasts.append(title)

    async def refuse(*, session: Any) -> None:
        raise ServiceError("That slot was just taken")

    async def crash(*, session: Any) -> None:
        raise RuntimeError("secret internals")

    actions: dict[str, Any] = {}

    @component
    def Probe() -> Any:
        query = use_query(fetch, n=1)
        actions["refuse"] = use_action(refuse, refetch=[query])
        actions["crash"] = use_action(crash, refetch=[query])
        return html.p(str(query.data))

    async with Layout(with_session(Probe(), Recording())) as layout:
        await layout.render()
        assert await actions["refuse"].run() is None
        assert await actions["crash"].run() is None
        await settle_queries()
        assert toasts == ["That slot was just taken", "Something went wrong. Please try again."]
        assert len(fetch.calls) == 1


# ---- use_topic --------------------------------------------------------------------------------------
async def test_an_ignored_event_renders_nothing_and_a_real_one_refetches(subscribed: Any) -> None:
    topic = f"test-hooks-{next(_ids)}"
    fetch = Recorder()
    heard: list[dict[str, Any]] = []
    arrived = asyncio.Event()
    seen: list[Query[Any]] = []

    def on_event(payload: dict[str, Any]) -> bool:
        heard.append(payload)
        arrived.set()
        return payload.get("kind") != "heartbeat"

    @component
    def Probe() -> Any:
        query = use_query(fetch, n=1)
        use_topic(topic, refetch=[query], on_event=on_event)
        seen.append(query)
        return html.p(str(query.data))

    async with CountingLayout(with_session(Probe())) as layout:
        await render_until(layout, lambda: seen[-1].data is not None)
        await settle_queries()
        await subscribed(topic)
        scheduled, renders = layout.scheduled, len(seen)

        await publish(topic, {"kind": "heartbeat"})
        await asyncio.wait_for(arrived.wait(), TIMEOUT)
        # on_event returned False: nothing was scheduled, nothing re-rendered, nothing reloaded
        assert layout.scheduled == scheduled and len(seen) == renders
        assert len(fetch.calls) == 1

        await publish(topic, {"kind": "reply", "ticket_id": "t1"})
        await render_until(layout, lambda: loaded(seen[-1])["call"] == 2)
        assert [p["kind"] for p in heard] == ["heartbeat", "reply"]
        assert heard[1]["topic"] == topic


async def test_use_topic_without_on_event_refetches_on_every_event(subscribed: Any) -> None:
    topic = f"test-hooks-{next(_ids)}"
    fetch = Recorder()
    seen: list[Query[Any]] = []

    @component
    def Probe() -> Any:
        query = use_query(fetch, n=1)
        use_topic(topic, refetch=[query])
        seen.append(query)
        return html.p(str(query.data))

    async with Layout(with_session(Probe())) as layout:
        await render_until(layout, lambda: seen[-1].data is not None)
        await subscribed(topic)
        await publish(topic, {"id": 1})
        await render_until(layout, lambda: loaded(seen[-1])["call"] == 2)


async def publish(topic: str, payload: dict[str, Any]) -> None:
    """A message on `topic`, as a command's commit sends it."""
    async with app_db.unit_of_work() as session:
        await events.publish_on_commit(session, topic, payload)


_ids = itertools.count(1)


@pytest.fixture
def subscribed(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Any]:
    """`await subscribed(topic)`: until a listener subscribed to `topic` (effects run as tasks after render)."""
    ready: dict[str, asyncio.Event] = {}
    subscribe = events.subscribe

    @contextlib.asynccontextmanager
    async def recording(*topics: str) -> Any:
        async with subscribe(*topics) as queue:
            for topic in topics:
                ready.setdefault(topic, asyncio.Event()).set()
            yield queue

    monkeypatch.setattr(events, "subscribe", recording)
    return lambda topic: asyncio.wait_for(ready.setdefault(topic, asyncio.Event()).wait(), TIMEOUT)
