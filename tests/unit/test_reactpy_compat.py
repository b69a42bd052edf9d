"""The ReactPy compatibility package (medivisit/reactpy_compat/): `install()` puts every patch in place, once
however often it runs, and refuses at start-up a reactpy or reactpy-router other than the exact versions the
patches were written for; the router's check refuses a reactpy-router without the internals it uses."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

import pytest
from reactpy.backend import starlette as reactpy_starlette
from reactpy.core import serve
from reactpy.core.layout import Layout
from reactpy_router import routers

from medivisit import reactpy_compat
from medivisit.reactpy_compat import (
    _guard,
    client,
    component_check,
    first_paint,
    hook_stack,
    paths,
    render_gate,
    router_internals,
    teardown,
    websocket_compression,
    websocket_guard,
)
from medivisit.reactpy_compat._guard import IncompatibleReactPy, installed_version

INSTALLS: dict[str, Callable[[], object]] = {
    "client": client.install,
    "component_check": component_check.install,
    "first_paint": lambda: first_paint.install(0.3),
    "hook_stack": hook_stack.install,
    "paths": paths.install,
    "render_gate": render_gate.install,
    "router_internals": router_internals.install,
    "teardown": teardown.install,
    "websocket_compression": websocket_compression.install,
    "websocket_guard": websocket_guard.install,
}


def test_install_puts_every_patch_in_place_once() -> None:
    reactpy_compat.install(first_paint_budget=0.3)
    reactpy_compat.install(first_paint_budget=0.3)
    assert Layout._create_layout_update is render_gate._gated_update
    assert render_gate._original is not render_gate._gated_update  # the gate wraps ReactPy's, not itself
    assert reactpy_starlette._make_send_recv_callbacks is websocket_guard._checked_callbacks
    assert serve._single_outgoing_loop.__module__ == "medivisit.reactpy_compat.first_paint"


def test_the_patches_are_written_for_the_pinned_versions() -> None:
    assert installed_version("reactpy") == "1.1.0" and installed_version("reactpy-router") == "2.0.0"


@pytest.mark.parametrize("name", sorted(INSTALLS))
def test_each_patch_refuses_a_version_it_was_not_written_for(monkeypatch, name: str) -> None:
    patch = importlib.import_module(f"medivisit.reactpy_compat.{name}").PATCH
    real = installed_version
    monkeypatch.setattr(
        _guard, "installed_version", lambda package: "9.9" if package == patch.package else real(package)
    )
    refusal = f"medivisit.reactpy_compat.{name} was written for {patch.package} {patch.version}: {patch.package} 9.9 is"
    with pytest.raises(IncompatibleReactPy, match=re.escape(refusal)):
        INSTALLS[name]()
    monkeypatch.setattr(_guard, "installed_version", lambda package: None)
    with pytest.raises(IncompatibleReactPy, match=f"{re.escape(patch.package)} is not installed"):
        INSTALLS[name]()
    monkeypatch.undo()
    INSTALLS[name]()  # as it was, for the tests after this one


@pytest.mark.parametrize("package", ["reactpy", "reactpy-router"])
def test_another_version_of_either_package_stops_the_start(monkeypatch, package: str) -> None:
    real = installed_version
    monkeypatch.setattr(_guard, "installed_version", lambda name: "9.9.9" if name == package else real(name))
    with pytest.raises(
        IncompatibleReactPy, match=rf"was written for {package} [0-9.]+: {package} 9\.9\.9 is installed"
    ):
        reactpy_compat.install(first_paint_budget=0.3)
    monkeypatch.undo()
    reactpy_compat.install(first_paint_budget=0.3)  # as it was, for the tests after this one


def test_a_router_without_the_internals_it_uses_is_refused(monkeypatch) -> None:
    router_internals.install()
    monkeypatch.delattr(routers, "_match_route")
    with pytest.raises(
        IncompatibleReactPy,
        match="router_internals was written for reactpy-router 2.0.0: .*has no _match_route",
    ):
        router_internals.install()
