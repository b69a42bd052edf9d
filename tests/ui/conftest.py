"""Headless component tests (DESIGN.md, tests/ui): `mount` renders a component with reactpy's Layout and
delivers events; `find`/`find_all`/`text` (tests/ui/harness.py) look elements up in the VDOM."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.settings import get_settings
from medivisit.reactpy_compat import hook_stack
from tests import stripe_standin
from tests.ui.harness import mount as _mount


@pytest.fixture
def mount():
    """`async with mount(lambda: Field("Name", "name")) as ui: ui.find("input")`."""
    return _mount


@pytest.fixture(scope="module")
def standin() -> Iterator[stripe_standin.StripeStandIn]:
    """The Stripe stand-in (tests/stripe_standin.py), one per module."""
    found, server = stripe_standin.serve()
    yield found
    server.shutdown()


@pytest.fixture
def stripe_on(configured, monkeypatch, tmp_path, standin) -> Iterator[stripe_standin.StripeStandIn]:  # noqa: ANN001
    """The card gateway on (PAYMENT_GATEWAY=stripe) against the stand-in, uploads under tmp_path."""
    hook_stack.install()  # as the server does at startup
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    stripe_standin.configure_gateway(monkeypatch, standin)
    yield standin
    monkeypatch.undo()
    get_settings.cache_clear()
