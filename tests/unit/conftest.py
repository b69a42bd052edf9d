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
