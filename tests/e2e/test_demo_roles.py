"""Every demo role signs in through the browser and lands where SPEC §2 says, then signs out."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
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
    server, _database_url = start_demo_server(tmp)
    yield server
    stop_server(server)


@pytest.mark.parametrize("role", list(LANDING))
def test_demo_role_lands_where_the_spec_says(demo_site, page: Page, role: str) -> None:
    sign_in(page, demo_site, f"{role}@demo.medivisit.test", DEMO_PASSWORD)
    expect(page).to_have_url(re.compile(rf"{re.escape(LANDING[role])}$"))
    log_out(page)
