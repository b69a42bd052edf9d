"""Headless component tests (DESIGN.md, tests/ui): `mount` renders a component with reactpy's Layout and
delivers events; `find`/`find_all`/`text` (tests/ui/harness.py) look elements up in the VDOM."""

from __future__ import annotations

import pytest

from tests.ui.harness import mount as _mount


@pytest.fixture
def mount():
    """`async with mount(lambda: Field("Name", "name")) as ui: ui.find("input")`."""
    return _mount
