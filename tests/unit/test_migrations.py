"""The migrations and the models describe the same schema: Alembic's autogenerate, run against a database
migrated to head, finds nothing to change. (What autogenerate cannot see, such as SQLite's no-overlap
triggers and PostgreSQL's exclusion constraint, is checked by tests/unit/test_booking_race.py; the Help
Center's FTS5 search table by tests/unit/test_help_center.py; indexes with
a descending column, which SQLite's reflection leaves out, are compared by their CREATE INDEX here.)"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.schema import CreateIndex

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
            descending = {
                index.name: index
                for table in models.Base.metadata.tables.values()
                for index in table.indexes
                if any(" DESC" in str(e) for e in index.expressions)
            }

            def include(_object, name, kind, _reflected, _compare_to) -> bool:  # noqa: ANN001
                # the Help Center's FTS5 table (and its shadow tables) is the search index, not a model
                return not (kind == "index" and name in descending) and not (
                    kind == "table" and (name or "").startswith("help_articles_fts")
                )

            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "include_object": include}
            )
            differences = compare_metadata(context, models.Base.metadata)
            created: dict[str | None, str] = dict(
                connection.execute(text("SELECT name, sql FROM sqlite_master WHERE type = 'index'")).all()
            )
    finally:
        engine.dispose()
    assert differences == []

    def words(sql: str) -> str:
        return " ".join(
            sql.replace("(", " ( ").replace(")", " ) ").replace(",", " , ").replace('"', "").split()
        )

    assert descending
    for name, index in descending.items():
        assert words(created[name]) == words(str(CreateIndex(index).compile(dialect=engine.dialect))), name
