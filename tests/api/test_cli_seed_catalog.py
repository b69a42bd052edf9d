"""`python -m medivisit seed` adds the reference catalog once; `seed --providers N` adds N sample providers with a
progress bar on standard error (never in production); `seed --demo` gives the demo provider a profile."""

from __future__ import annotations

import sqlite3

from app.migrate import upgrade
from tests.api.test_cli_users import cli


def count(path, sql: str) -> int:  # noqa: ANN001
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchone()[0]


def test_reference_catalog_sample_providers_and_demo_profile(tmp_path) -> None:
    path = tmp_path / "seeded.db"
    database_url = f"sqlite:///{path}"
    upgrade(database_url)

    first = cli(database_url, "seed")
    assert first.returncode == 0, first.stderr
    assert (
        "added category IV Therapy" in first.stdout and "added service Hydration IV (1 liter)" in first.stdout
    )
    again = cli(database_url, "seed")
    assert again.returncode == 0 and "already complete" in again.stdout
    assert count(path, "SELECT count(*) FROM services") == 19

    refused = cli(database_url, "seed", "--providers", "5", APP_ENV="production")
    assert refused.returncode == 2 and count(path, "SELECT count(*) FROM providers") == 0

    sample = cli(database_url, "seed", "--providers", "40", "--random-seed", "3")
    assert sample.returncode == 0, sample.stderr
    assert "40/40 providers" in sample.stderr and "40 providers" in sample.stdout
    assert count(path, "SELECT count(*) FROM providers") == 40
    assert count(path, "SELECT count(*) FROM providers WHERE schedule_key = '' OR lowest_price IS NULL") == 0
    assert count(path, "SELECT count(DISTINCT provider_id) FROM provider_zip_codes") == 40

    demo = cli(database_url, "seed", "--demo")
    assert demo.returncode == 0, demo.stderr
    assert "verified profile for Priya Shah, the demo provider" in demo.stdout
    linked = """SELECT count(*) FROM providers p JOIN auth_users u ON u.id = p.user_id
                WHERE u.email = 'provider@demo.medivisit.test' AND p.is_verified AND p.is_active"""
    assert count(path, linked) == 1
    assert "profile already exists" in cli(database_url, "seed", "--demo").stdout
