"""DATABASE_URL accepts the usual forms and the app picks the async driver itself."""

from __future__ import annotations

import pytest

from app.db import async_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///var/app.db", "sqlite+aiosqlite:///var/app.db"),
        ("sqlite:////abs/app.db", "sqlite+aiosqlite:////abs/app.db"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("postgresql://postgres@127.0.0.1:5432/test", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"),
        ("postgres://u:p@db/app", "postgresql+asyncpg://u:p@db/app"),
        ("postgresql+psycopg://u@db/app", "postgresql+asyncpg://u@db/app"),
    ],
)
def test_async_driver_is_chosen(given: str, expected: str) -> None:
    assert async_url(given) == expected


@pytest.mark.parametrize("given", ["mysql://root@db/x", "not a url"])
def test_unsupported_urls_are_refused_clearly(given: str) -> None:
    with pytest.raises(ValueError, match="DATABASE_URL"):
        async_url(given)
