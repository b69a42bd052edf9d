"""An invalid ZIP code on /find-provider says so instead of being ignored (issue 11, flow 7)."""

from __future__ import annotations

import pytest

from app.services.validation import INVALID_ZIP
from medivisit.reactpy_compat import hook_stack
from pages.find_provider import _Results
from tests.ui.harness import text


@pytest.fixture(autouse=True)
def _task_local_hook_stack() -> None:
    hook_stack.install()  # as the server does at startup


@pytest.mark.parametrize("zip_code", ["1234", "abcde", "100011"])
async def test_an_invalid_zip_says_so_and_searches_nothing(mount, zip_code) -> None:
    async with mount(lambda: _Results(f"?zip={zip_code}&sort=soonest", "America/New_York")) as ui:
        alert = ui.find("p", role="alert")
        assert text(alert) == INVALID_ZIP
        assert "Searching providers" not in text(ui.model)
