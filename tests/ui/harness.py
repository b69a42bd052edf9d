"""Headless rendering of components for tests/ui: no server, no browser, milliseconds per test.

`mount(factory)` renders `factory()` inside a root component with reactpy's `Layout`, keeps the whole
VDOM tree up to date as updates arrive, and delivers events to handlers the way the browser would.
`find` / `find_all` / `text` look elements up by tag, attributes and text, inside frozen markup too (the
kit's `frozen` holds content as HTML: it is read back into elements here).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, suppress
from html.parser import HTMLParser
from typing import Any

from reactpy import component
from reactpy.config import REACTPY_ASYNC_RENDERING
from reactpy.core.layout import Layout
from reactpy.core.types import LayoutEventMessage, LayoutUpdateMessage

from app.principal import Principal
from components.context import CartHandle, Disclosure, Toaster, UiSession
from components.html_writer import INNER_HTML, VOID_ELEMENTS

Element = Mapping[str, Any]  # a JSON model's element, or a VdomDict
RENDER_TIMEOUT = 2.0  # seconds; a render that never comes fails the test instead of hanging it


class Mounted:
    """A mounted component: `model` is the current VDOM tree (JSON, as the browser receives it)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.model: Element = {}
        self.renders = 0

    def _apply(self, update: LayoutUpdateMessage) -> None:
        path = [part for part in update["path"].split("/") if part]
        if not path:
            self.model = dict(update["model"])
        else:
            node: Any = self.model
            for part in path[:-1]:
                node = node[int(part)] if isinstance(node, list) else node[part]
            last = path[-1]
            if isinstance(node, list):
                node[int(last)] = update["model"]
            else:
                node[last] = update["model"]
        self.renders += 1

    async def render(self) -> Element:
        """Wait for the next update (at most RENDER_TIMEOUT seconds) and apply it."""
        async with asyncio.timeout(RENDER_TIMEOUT):
            self._apply(await self.layout.render())
        return self.model

    def _pending(self) -> bool:
        # reactpy 1.1 (core/layout.py) queues renders in `_rendering_queue` (serial rendering, the default)
        # or releases `_render_tasks_ready` once per render task (REACTPY_ASYNC_RENDERING).
        if REACTPY_ASYNC_RENDERING.current:
            return self.layout._render_tasks_ready.value > 0
        return bool(self.layout._rendering_queue._pending)

    async def settle(self) -> Element:
        """Apply every render already scheduled (none → returns at once, no waiting)."""
        for _ in range(50):
            await asyncio.sleep(0)  # let handlers' follow-up tasks schedule their renders
            if not self._pending():
                break
            await self.render()
        return self.model

    async def fire(self, element: Element, event: str = "on_click", data: Any = None) -> Element:
        """Deliver `event` (e.g. "on_click", "on_change") to `element` with `data`, then settle."""
        handlers = element.get("eventHandlers") or {}
        assert event in handlers, f"{element.get('tagName')} has no {event} handler: {sorted(handlers)}"
        message: LayoutEventMessage = {
            "type": "layout-event",
            "target": handlers[event]["target"],
            "data": [data or {}],
        }
        await self.layout.deliver(message)
        return await self.settle()

    async def type(self, element: Element, value: str) -> Element:
        """What the browser sends when the user types `value` into an input."""
        return await self.fire(element, "on_change", {"target": {"value": value}})

    def find(self, tag: str | None = None, text: str | None = None, **attributes: Any) -> Element:
        return find(self.model, tag, text, **attributes)

    def find_all(self, tag: str | None = None, text: str | None = None, **attributes: Any) -> list[Element]:
        return find_all(self.model, tag, text, **attributes)


@asynccontextmanager
async def mount(factory: Callable[[], Any]) -> AsyncIterator[Mounted]:
    """Mount `factory()` (a component call or a VDOM-returning function) and render it once."""

    @component
    def Root() -> Any:
        return factory()

    async with Layout(Root()) as layout:
        mounted = Mounted(layout)
        await mounted.render()
        await mounted.settle()
        yield mounted


# ---- looking things up ---------------------------------------------------------------------------------


def children(element: Element) -> list[Any]:
    """An element's children; for frozen markup, its HTML read back into elements."""
    inner = attrs(element).get(INNER_HTML)
    return _parsed(inner["__html"]) if inner is not None else element.get("children", [])


def walk(node: Any) -> Iterator[Element]:
    """Every element under `node` (depth first), fragments included."""
    if isinstance(node, dict):
        yield node
        for child in children(node):
            yield from walk(child)
    elif isinstance(node, list | tuple):
        for child in node:
            yield from walk(child)


def text(node: Any) -> str:
    """The text content of `node`, whitespace collapsed."""
    parts: list[str] = []

    def collect(n: Any) -> None:
        if isinstance(n, str):
            parts.append(n)
        elif isinstance(n, dict):
            for child in children(n):
                collect(child)

    collect(node)
    return " ".join(" ".join(parts).split())


HTML_ATTRIBUTES = {"class": "class_name", "for": "html_for"}  # back to the names screens write


class _Elements(HTMLParser):
    """HTML (as components/html_writer.py writes it) as VDOM elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: Element = {"tagName": "", "children": []}
        self.open = [self.root]

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        element = {
            "tagName": tag,
            "attributes": {HTML_ATTRIBUTES.get(k, k): True if v is None else v for k, v in attributes},
            "children": [],
        }
        self.open[-1]["children"].append(element)
        if tag not in VOID_ELEMENTS:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID_ELEMENTS:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        self.open[-1]["children"].append(data)


def _parsed(markup: str) -> list[Any]:
    parser = _Elements()
    parser.feed(markup)
    parser.close()
    return parser.root["children"]


def attrs(element: Element) -> dict[str, Any]:
    return element.get("attributes") or {}


def classes(element: Element) -> set[str]:
    return set(str(attrs(element).get("class_name", "")).split())


def _matches(element: Element, tag: str | None, content: str | None, attributes: dict[str, Any]) -> bool:
    if tag is not None and element.get("tagName") != tag:
        return False
    have = attrs(element)
    for name, wanted in attributes.items():
        if name == "class_":
            if wanted not in classes(element):
                return False
        elif have.get(name) != wanted:
            return False
    return content is None or content in text(element)


def find_all(node: Any, tag: str | None = None, text: str | None = None, **attributes: Any) -> list[Element]:
    """Elements with `tag`, containing `text`, whose attributes equal `attributes` (`class_="x"` means
    "has the class x"; dashed names go through `**{"aria-selected": "true"}`)."""
    return [e for e in walk(node) if e.get("tagName") and _matches(e, tag, text, attributes)]


def find(node: Any, tag: str | None = None, text: str | None = None, **attributes: Any) -> Element:
    """The one element matching (see find_all); fails the test when there is none or several."""
    found = find_all(node, tag, text, **attributes)
    assert len(found) == 1, f"expected one <{tag or '*'}> {attributes} {text or ''}, found {len(found)}"
    return found[0]


async def until(ui: Mounted, done: Callable[[], bool], seconds: float = 10) -> None:
    """Apply renders until `done()` holds (data from queries, results of actions), at most `seconds`."""

    async def loop() -> None:
        while not done():
            with suppress(TimeoutError):  # a query may answer slowly on a busy machine
                await ui.render()

    await asyncio.wait_for(loop(), seconds)


def ui_session(who: Any = None, **changes: Any) -> UiSession:
    """The screen session of `who` (a tests.factories Person; None: a visitor), as the app gives a tab."""
    fields: dict[str, Any] = {
        "user": who.account if who is not None else None,
        "actor": who.actor if who is not None else Principal.visitor(""),
        "toaster": Toaster(),
        "cart": CartHandle(),
        "bug_report": Disclosure(),
        "visitor_id": "",
    }
    return UiSession(**{**fields, **changes})
