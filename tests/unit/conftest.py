"""Fixtures of the service tests."""

from __future__ import annotations

import pytest

from app.settings import get_settings


@pytest.fixture
def identity(configured, monkeypatch, tmp_path):
    """The identity service on the test database: fast password hashing and a signing key of its own."""
    monkeypatch.setenv("PASSWORD_HASH_MEMORY_KIB", "1024")
    monkeypatch.setenv("PASSWORD_HASH_TIME_COST", "1")
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001
    """Figures a test records as its `terminal_summary` property (the assistant's evaluation: recall per
    group, false-positive rate) printed at the end of every run, captured output or not, with xdist too
    (user properties travel back from the workers with the reports)."""
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if name == "terminal_summary":
                    terminalreporter.write_sep("-", report.nodeid.split("::")[-1])
                    terminalreporter.write_line(str(value))
