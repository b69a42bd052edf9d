"""The smallest updates (medivisit/reactpy_compat/smallest_updates.py): a real ReactPy layout re-renders, the messages are
applied the way ReactPy's browser client applies them (`jsonPointer.set` into the tree it holds, in place),
and the browser's tree must then equal the layout's whole model while far fewer bytes went over the wire."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Mapping
from typing import Any

from reactpy import Layout, component, html, use_state
from reactpy.types import VdomDict

from medivisit.reactpy_compat.smallest_updates import (
    MAX_PATCHES,
    SmallestUpdates,
    differences,
    replaced,
    subtree,
)


def client_set(tree: dict, pointer: str, value: Any) -> dict:
    """What the browser client does with a layout-update message."""
    if pointer == "":
        tree.clear()
        tree.update(copy.deepcopy(value))
        return tree
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    node: Any = tree
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    last = tokens[-1]
    value = copy.deepcopy(value)
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return tree


class Browser:
    """A tab: the tree ReactPy's client holds, and the bytes it was sent."""

    def __init__(self) -> None:
        self.tree: dict = {}
        self.bytes = 0
        self.messages = 0
        self.paths: list[str] = []

    def receive(self, message: Mapping[str, Any]) -> None:
        self.bytes += len(json.dumps(message))
        self.messages += 1
        self.paths.append(message["path"])
        client_set(self.tree, message["path"], message["model"])


def plain(model: Any) -> Any:
    """The model as JSON would carry it (event handler targets included)."""
    return json.loads(json.dumps(model))


@component
def SearchPage(actions: dict) -> VdomDict:
    busy, set_busy = use_state(False)
    results, set_results = use_state([f"Provider {n}" for n in range(20)])
    title, set_title = use_state("Find a provider")
    _, set_tick = use_state(0)  # a change that shows nowhere
    actions.update(busy=set_busy, results=set_results, title=set_title, tick=set_tick)
    return html.div(
        {"class_name": "page"},
        html.header(html.nav(*(html.a({"href": f"/link/{n}"}, f"Link {n}") for n in range(30)))),
        html.h1(title),
        html.div(
            {"class_name": "results", "aria-busy": "true" if busy else "false"},
            *(
                html.article(
                    {"key": name, "class_name": "card"},
                    html.h3(name),
                    html.p("Licensed nurse · 4.9 ★ · next visit tomorrow at 9:00 AM"),
                    html.button({"on_click": lambda _e: None}, "Add to cart"),
                )
                for name in results
            ),
        ),
        html.footer(*(html.a({"href": f"/footer/{n}"}, f"Footer {n}") for n in range(30))),
    )


async def _drive(steps: list) -> tuple[Browser, Browser, dict]:
    """Render the page, then each step's state change; one tab gets the smallest updates, the other
    ReactPy's own."""
    actions: dict = {}
    smallest, reactpy = Browser(), Browser()
    converter = SmallestUpdates()
    async with Layout(SearchPage(actions)) as layout:
        # What the outgoing loop hands on: the update as a plain dict.
        first: dict[str, Any] = {**await layout.render()}
        for message in converter.messages(first):
            smallest.receive(message)
        reactpy.receive(first)
        for step in steps:
            step(actions)
            update: dict[str, Any] = {**await layout.render()}
            reactpy.receive(update)
            for message in converter.messages(update):
                smallest.receive(message)
        whole = plain(converter.model)
    return smallest, reactpy, whole


def test_a_busy_flag_a_new_title_and_new_results_reach_the_browser_whole_for_a_fraction_of_the_bytes() -> (
    None
):
    smallest, reactpy, whole = asyncio.run(
        _drive(
            [
                lambda a: a["busy"](True),
                lambda a: a["title"]("Providers near 10001"),
                lambda a: (a["busy"](False), a["results"]([f"Provider {n}" for n in range(20, 40)])),
            ]
        )
    )
    assert smallest.tree == reactpy.tree == whole
    first_frame = len(json.dumps({"type": "layout-update", "path": "", "model": whole}))
    # The busy flag and the title are a few hundred bytes each, not the page again.
    assert smallest.bytes - first_frame < (reactpy.bytes - first_frame) / 3


def test_a_cleared_busy_flag_arrives_after_the_results_it_announces() -> None:
    """The browser applies each message on its own: were the flag first, a tab (or a test waiting on
    aria-busy="false") would for a moment see the old results as the new ones."""
    smallest, _, _ = asyncio.run(
        _drive(
            [
                lambda a: a["busy"](True),
                lambda a: (a["busy"](False), a["results"]([f"Provider {n}" for n in range(20, 40)])),
            ]
        )
    )
    *_, contents, flag = smallest.paths
    results = flag.removesuffix("/attributes")
    assert flag == f"{results}/attributes" and contents == f"{results}/children"


def test_an_unchanged_render_sends_nothing() -> None:
    smallest, reactpy, _ = asyncio.run(
        _drive([lambda a: a["title"]("Find a provider!"), lambda a: a["tick"](1)])
    )
    assert (
        smallest.messages == 2
    )  # the first frame and the title; the render that changed nothing sent nothing
    assert reactpy.messages == 3


def test_differences_go_as_deep_as_they_can() -> None:
    old = {
        "tagName": "ul",
        "attributes": {"class_name": "a"},
        "children": ["x", {"tagName": "li", "children": ["y"]}],
    }
    new = {
        "tagName": "ul",
        "attributes": {"class_name": "b"},
        "children": ["x", {"tagName": "li", "children": ["z"]}],
    }
    assert differences(old, new, "/children/0") == [
        ("/children/0/children/1/children/0", "z"),
        ("/children/0/attributes", {"class_name": "b"}),
    ]
    # A child more or less, or keyed children in another order: the list goes whole.
    grown = {**old, "children": [*old["children"], "w"]}
    assert differences(old, grown) == [("/children", grown["children"])]
    keyed = {"tagName": "ul", "children": [{"tagName": "li", "key": "a"}, {"tagName": "li", "key": "b"}]}
    swapped = {"tagName": "ul", "children": list(reversed(keyed["children"]))}
    assert differences(keyed, swapped) == [("/children", swapped["children"])]
    # A key that appears or goes, another tag: the node itself.
    assert differences({"tagName": "p"}, {"tagName": "p", "error": ""}) == [
        ("", {"tagName": "p", "error": ""})
    ]
    assert differences({"tagName": "p"}, {"tagName": "div"}, "/children/3") == [
        ("/children/3", {"tagName": "div"})
    ]


def test_too_many_differences_send_the_update_as_reactpy_made_it() -> None:
    old = {
        "tagName": "ul",
        "children": [{"tagName": "li", "children": [str(n)]} for n in range(MAX_PATCHES + 1)],
    }
    new = {
        "tagName": "ul",
        "children": [{"tagName": "li", "children": [f"{n}!"]} for n in range(MAX_PATCHES + 1)],
    }
    converter = SmallestUpdates()
    converter.messages({"type": "layout-update", "path": "", "model": {"tagName": "", "children": [old]}})
    update = {"type": "layout-update", "path": "/children/0", "model": new}
    assert converter.messages(update) == [update]


def test_replacing_copies_the_path_and_changes_nothing_that_was_sent() -> None:
    sent = {
        "tagName": "div",
        "children": [{"tagName": "p", "children": ["a"]}, {"tagName": "p", "children": ["b"]}],
    }
    before = copy.deepcopy(sent)
    after = replaced(sent, "/children/1/children/0", "c")
    assert sent == before
    assert subtree(after, "/children/1/children/0") == "c"
    assert after["children"][0] is sent["children"][0]  # the unchanged part is shared, not copied
    assert subtree(after, "/children/9") is None
