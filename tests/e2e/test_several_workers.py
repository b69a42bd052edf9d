"""Two server processes on one PostgreSQL database, as `serve --workers 2` or two hosts behind a proxy run.

A help-desk reply sent from a tab served by one process appears live on the patient's tab served by the
other (PostgreSQL LISTEN/NOTIFY carries the event), and a request limit counts the requests both processes
answered (the shared `rate_limit_counters` table). Needs TEST_DATABASE_URL.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import (
    LiveServer,
    create_postgres_database,
    drop_later,
    start_demo_server,
    start_server,
    stop_server,
)
from tests.e2e.conftest import DESKTOP
from tests.e2e.helpers import sign_in, toasts

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs PostgreSQL")
DEMO_PASSWORD = "Demo-MediVisit-1"
SUBJECT = "Receipt for my insurance claim"  # a demo ticket of Jordan Lee's, not answered yet


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory) -> Iterator[tuple[LiveServer, LiveServer]]:
    # asyncio.run cannot start beside Playwright's loop: create (and drop) the database on a worker thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        database_url = pool.submit(create_postgres_database, os.environ["TEST_DATABASE_URL"]).result()
    env = {"DATABASE_URL": database_url, "RATE_LIMIT_TOKEN": "3", "REMINDERS_ENABLED": "false"}
    first, _ = start_demo_server(tmp_path_factory.mktemp("worker-a"), **env)
    second = start_server(tmp_path_factory.mktemp("worker-b"), environment=env)
    yield first, second
    stop_server(first)
    stop_server(second)
    drop_later(os.environ["TEST_DATABASE_URL"], [database_url.rpartition("/")[2]])


def _signed_in(browser: Browser, server: LiveServer, role: str) -> Page:
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    context.set_default_timeout(15_000)
    page = context.new_page()
    sign_in(page, server, f"{role}@demo.medivisit.test", DEMO_PASSWORD)
    expect(page).not_to_have_url(re.compile(r"/login"))
    return page


def test_a_reply_made_on_one_worker_appears_live_on_a_tab_of_the_other(browser, two_workers) -> None:
    first, second = two_workers
    patient = _signed_in(browser, second, "patient")
    patient.goto(second.url("/dashboard/support"))
    patient.get_by_role("list", name="My tickets").get_by_role("link", name=re.compile(SUBJECT)).click()
    expect(patient.get_by_role("heading", name=SUBJECT)).to_be_visible()

    support = _signed_in(browser, first, "support")
    support.goto(first.url("/staff/help-desk"))
    support.get_by_role("list", name="Tickets").get_by_role("link", name=re.compile(SUBJECT)).click()
    expect(support.get_by_role("heading", name=SUBJECT)).to_be_visible()
    support.get_by_label("Message").fill("Your itemised receipt is attached to your account now.")
    support.get_by_role("button", name="Send Reply").click()
    expect(toasts(support, "Reply sent to customer")).to_be_visible()

    thread = patient.get_by_role("list", name="Conversation").get_by_role("listitem")
    expect(thread.filter(has_text="Your itemised receipt is attached")).to_be_visible()  # no reload
    for page in (patient, support):
        page.context.close()


def test_a_request_limit_counts_both_workers(two_workers) -> None:
    first, second = two_workers
    path = "/auth/v1/token?grant_type=password"

    def attempt(server: LiveServer) -> int:
        body = {"email": "nobody@example.com", "password": "wrong-password"}
        return httpx.post(server.url(path), json=body, headers={"X-Forwarded-For": "10.77.0.1"}).status_code

    # Three allowed in all, wherever they land; the fourth is refused by either process.
    assert [attempt(first), attempt(second), attempt(first)] == [400, 400, 400]
    assert attempt(second) == 429
    assert attempt(first) == 429
