"""Sends the browser only the parts of a re-rendered component that changed.

ReactPy sends a component's whole model each time it renders: a URL change re-renders the routed page with
its frame (about 100 KB for Find a Provider), and a "busy" flag on a list re-sends the whole list. The
browser's client applies an update by putting its model at a JSON pointer into the tree it holds
(`jsonPointer.set`), and any pointer works: a node, a node's `attributes`, one child. So for each update
`SmallestUpdates` compares the new model with what the browser already has at that place and sends the
smallest pointers that differ instead: an attribute dict, a changed child, a list of children whose length
changed. Past MAX_PATCHES differences it sends the update as ReactPy made it (one re-render in the browser
per message, so many tiny messages would cost more than one big one).

It keeps its own copy of the browser's tree, sharing every unchanged part with the layout's models (they are
never changed in place once rendered: a re-render builds new dicts along its path, and so does this).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_PATCHES = 8
CHILDREN = "children"


class TooManyChanges(Exception):
    """More differences than a handful of messages is worth."""


def _escape(token: str) -> str:
    """A JSON pointer token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def _tokens(path: str) -> list[str]:
    return [token.replace("~1", "/").replace("~0", "~") for token in path.split("/")[1:]] if path else []


def subtree(model: Any, path: str) -> Any:
    """The part of `model` at a JSON pointer ("" is the whole model); None where nothing is there."""
    node = model
    for token in _tokens(path):
        try:
            node = node[int(token)] if isinstance(node, list) else node[token]
        except (KeyError, IndexError, ValueError, TypeError):
            return None
    return node


def replaced(model: Any, path: str, new: Any) -> Any:
    """`model` with the part at `path` replaced by `new`; the dicts and lists along the path are copied, so
    nothing that was sent before changes."""
    tokens = _tokens(path)
    if not tokens:
        return new

    def put(node: Any, index: int) -> Any:
        token = tokens[index]
        if isinstance(node, list):
            items = list(node)
            position = int(token)
            items[position] = new if index == len(tokens) - 1 else put(node[position], index + 1)
            return items
        fields = dict(node)
        fields[token] = new if index == len(tokens) - 1 else put(node[token], index + 1)
        return fields

    return put(model, 0)


def differences(old: Any, new: Any, path: str = "") -> list[tuple[str, Any]]:
    """The (pointer, value) pairs that turn `old` into `new`, each as deep as possible; raises
    TooManyChanges past MAX_PATCHES."""
    found: list[tuple[str, Any]] = []
    _diff(old, new, path, found)
    return found


def _diff(old: Any, new: Any, path: str, found: list[tuple[str, Any]]) -> None:
    if old is new or old == new:
        return
    if not (isinstance(old, dict) and isinstance(new, dict)) or old.keys() != new.keys():
        _add(found, path, new)  # another kind of node, or a key appeared or went: the node itself
        return
    if old.get("tagName") != new.get("tagName") or old.get("key") != new.get("key"):
        _add(found, path, new)
        return
    _diff_children(old.get(CHILDREN), new.get(CHILDREN), path, found)
    # A node's own fields go after its descendants: the browser applies each message on its own, so a flag
    # such as aria-busy="false" must not arrive before the content it announces.
    for name, value in new.items():
        if name == CHILDREN:
            continue
        if old[name] != value:
            _add(found, f"{path}/{_escape(name)}", value)


def _diff_children(old_children: Any, new_children: Any, path: str, found: list[tuple[str, Any]]) -> None:
    if old_children == new_children:
        return
    if (
        not isinstance(old_children, list)
        or not isinstance(new_children, list)
        or len(old_children) != len(new_children)
        or any(_child_key(a) != _child_key(b) for a, b in zip(old_children, new_children, strict=True))
    ):
        _add(found, f"{path}/{CHILDREN}", new_children)
        return
    for index, (before, after) in enumerate(zip(old_children, new_children, strict=True)):
        _diff(before, after, f"{path}/{CHILDREN}/{index}", found)


def _child_key(child: Any) -> Any:
    # A keyed child that moved is another element at that place: its list is sent whole.
    return child.get("key") if isinstance(child, dict) else None


def _add(found: list[tuple[str, Any]], path: str, value: Any) -> None:
    if len(found) >= MAX_PATCHES:
        raise TooManyChanges
    found.append((path, value))


class SmallestUpdates:
    """Turns a layout's updates into the smallest updates for one browser tab (see the module's docstring)."""

    def __init__(self) -> None:
        self.model: Any = None

    def messages(self, update: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        path, model = update["path"], update["model"]
        if self.model is None:
            if not path:
                self.model = model
            return [update]
        before = subtree(self.model, path)
        self.model = replaced(self.model, path, model)
        if before is None:
            return [update]
        try:
            found = differences(before, model, path)
        except TooManyChanges:
            return [update]
        return [{"type": "layout-update", "path": pointer, "model": value} for pointer, value in found]
