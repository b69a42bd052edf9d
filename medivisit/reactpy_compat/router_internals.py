"""reactpy-router's private internals that medivisit/router.py builds on, checked (nothing is replaced).

The app's router (medivisit/router.py) is reactpy-router's `browser_router` made to render the page at once:
it calls the private `_iter_routes` and `_match_route` and provides `_route_state_context` itself, so it
holds only for the reactpy-router it was written for.
"""

from __future__ import annotations

from reactpy_router import components, hooks, resolvers, routers

from medivisit.reactpy_compat._guard import Patch

PATCH = Patch(__name__, package="reactpy-router", version="2.0.0")


def install() -> None:
    """Refuse a reactpy-router other than the one medivisit/router.py was written for."""
    PATCH.check_version()
    PATCH.require(routers, "_iter_routes", "_match_route")
    PATCH.require(hooks, "_route_state_context", "RouteState")
    PATCH.require(resolvers, "ReactPyResolver")
    PATCH.require(components, "History")
