"""A screen that always raises, for the error-screen tests: pages/routes.py mounts it at /__test__/broken only
with MEDIVISIT_TEST_BROKEN_SCREEN set (the tests' servers, started from the repository root)."""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict


@component
def BrokenPage() -> VdomDict:
    raise RuntimeError("Deliberate failure for tests")
