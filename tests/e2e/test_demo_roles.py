"""Every demo role signs in through the browser and lands where SPEC §2 says, then signs out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, start_server, stop_server
from tests.e2e.helpers import log_out, sign_in

DEMO_PASSWORD = "Demo-MediVisit-1"
LANDING = {
    "patient": "/dashboard",
    "provider": "/dashboard",  # the demo provider's enrollment is complete
    "owner": "/admin",
    "admin": "/admin",
    "management": "/staff",
    "hr": "/staff",
    "support": "/staff",
}


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("demo")
    database_url = f"sqlite:///{tmp / 'demo.db'}"
    server = start_server(tmp, DATABASE_URL=database_url)
    seeded = subprocess.run(
        [sys.executable, "-m", "app", "seed", "--demo"],
        env={**os.environ, "DATABASE_URL": database_url, "APP_ENV": "development"},
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert seeded.returncode == 0, seeded.stderr
    yield server
    stop_server(server)


@pytest.mark.parametrize("role", list(LANDING))
def test_demo_role_lands_where_the_spec_says(demo_site, page: Page, role: str) -> None:
    sign_in(page, demo_site, f"{role}@demo.medivisit.test", DEMO_PASSWORD)
    expect(page).to_have_url(re.compile(rf"{re.escape(LANDING[role])}$"))
    log_out(page)
