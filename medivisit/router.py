"""The app's router: reactpy-router's `browser_router`, except that it renders the page at once.

reactpy-router renders nothing until the browser's History component reports the URL, one websocket round
trip after the tab connects, so every page's first frame was empty. The URL the websocket was opened for
is the page's URL (ReactPy's client puts it in the websocket's address), and on the server (the first
paint in the HTML, medivisit/reactpy_compat/first_paint.py) it is the request's: this router starts from
it. History still reports every later change (links, back and forward), and the report of the URL the page
already shows changes nothing.

It builds on reactpy-router's private `_iter_routes`, `_match_route` and `_route_state_context`:
medivisit/reactpy_compat/router_internals.py refuses at start-up a reactpy-router without them.
"""

from __future__ import annotations

import functools
from typing import Any

from reactpy import component, use_connection, use_memo, use_state
from reactpy.backend.types import Connection, Location
from reactpy.core.hooks import ConnectionContext
from reactpy.types import ComponentType
from reactpy_router.components import History
from reactpy_router.hooks import RouteState, _route_state_context
from reactpy_router.resolvers import ReactPyResolver
from reactpy_router.routers import _iter_routes, _match_route
from reactpy_router.types import Route


@functools.lru_cache(maxsize=4)
def _resolvers(routes: tuple[Route, ...]) -> tuple[ReactPyResolver, ...]:
    """The compiled route table, shared by every tab that shows the same routes."""
    return tuple(map(ReactPyResolver, _iter_routes(routes)))


@component
def site_router(*routes: Route) -> ComponentType | None:
    connection = use_connection()
    location, set_location = use_state(connection.location)
    resolvers = _resolvers(routes)
    match = use_memo(lambda: _match_route(resolvers, location), dependencies=[location])
    if match is None:
        return None

    def on_history_change(event: dict[str, Any]) -> None:
        new_location = Location(**event)
        if new_location != location:
            set_location(new_location)

    return ConnectionContext(
        History({"onHistoryChangeCallback": on_history_change}),
        _route_state_context(match.element, value=RouteState(set_location, match.params)),
        value=Connection(connection.scope, location, connection.carrier),
    )
