"""A screen that always raises; mounted only with MEDIVISIT_TEST_BROKEN_SCREEN for the error-screen tests."""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict


@component
def BrokenPage() -> VdomDict:
    raise RuntimeError("Deliberate failure for tests")
