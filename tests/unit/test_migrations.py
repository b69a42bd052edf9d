"""The migrations and the models describe the same schema: Alembic's autogenerate, run against a database
migrated to head, finds nothing to change. (What autogenerate cannot see, such as SQLite's no-overlap
triggers and PostgreSQL's exclusion constraint, is checked by tests/unit/test_booking_race.py.)"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import models
from app.migrate import upgrade


def test_the_models_match_the_migrations(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'head.db'}"
    # Migrations start their own event loop: on a worker thread, in case this one already runs one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(upgrade, url).result()
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, models.Base.metadata)
    finally:
        engine.dispose()
    assert differences == []
