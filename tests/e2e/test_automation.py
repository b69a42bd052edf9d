"""Automation in Chromium (issue 15 part 4), on a demo server whose delivery job runs as in production:
the owner connects a real local receiver with Test connection (a failing receiver first: 'Failed to
connect to n8n'), a patient books a visit on the site and the server delivers a signed appointment.created
that the `standardwebhooks` package verifies; the patient cancels it while the receiver fails on purpose, and
the live log shows the failed attempt, then the retry 5 s later that succeeds. Other roles are refused.
axe in light and dark at 1280 and 375 px; screenshots in tests/artifacts/automation-*.png.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from standardwebhooks.webhooks import Webhook

from tests.conftest import ARTIFACTS, LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, MOBILE, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts
from tests.e2e.test_booking_flow import (
    DRAW,
    PATIENT,
    POLICY_WINDOW_DAYS,
    ZIP,
    ZONE,
    _populate,
    add_priyas_draw,
    cart_panel,
    hold,
    summary,
    visit,
)
from tests.factories import present
from tests.webhook_receiver import Receiver

OWNER = "owner@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
PATH = "/dashboard/automation"


@pytest.fixture(scope="module")
def site(tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("automation")
    _inbox, smtp_url = smtp_server
    with ThreadPoolExecutor(max_workers=1) as pool:
        database_url = demo_database(tmp / "automation.db")
        server = start_server(tmp, DATABASE_URL=database_url, SMTP_URL=smtp_url, REMINDERS_ENABLED="false")
        try:
            pool.submit(asyncio.run, _populate(database_url)).result()
            yield server
        finally:
            stop_server(server)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as server:
        yield server


def person_page(browser: Browser, viewport: ViewportSize = DESKTOP) -> Page:
    context = browser.new_context(viewport=viewport, service_workers="block", timezone_id=ZONE)
    context.set_default_timeout(10_000)
    return context.new_page()


def log_row(page: Page, event_type: str):  # noqa: ANN201 - Locator
    table = page.get_by_role("table", name="Webhook deliveries")
    return table.get_by_role("row").filter(
        has=page.locator("code", has_text=re.compile(rf"^{re.escape(event_type)}$"))
    )


def looks(page: Page, name: str) -> list[str]:
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for width, viewport in (("desktop", DESKTOP), ("phone", MOBILE)):
        for scheme in ("light", "dark"):
            set_look(page, viewport, scheme)
            screenshot(page, f"{name}-{width}-{scheme}", full_page=True)
            screenshot(page, f"{name}-{width}-{scheme}-view")
            for region in ("Events to send", "Delivery log"):
                part = page.get_by_role("region", name=region)
                part.screenshot(
                    path=str(ARTIFACTS / f"{name}-{width}-{scheme}-{region.split()[0].lower()}.png")
                )
    set_look(page, DESKTOP, "light")
    return problems


def test_connect_book_and_retry(browser: Browser, site: LiveServer, receiver: Receiver) -> None:
    problems: list[str] = []
    owner = person_page(browser)
    sign_in(owner, site, OWNER, DEMO_PASSWORD)
    expect(owner).to_have_url(re.compile(r"/(staff|admin|dashboard)"))
    open_page(owner, site.url(PATH))
    expect(owner.get_by_role("heading", name="Automation", level=1)).to_be_visible()
    connection = owner.get_by_role("region", name="n8n connection")
    expect(connection.get_by_text("Not connected")).to_be_visible()
    loaded(owner)
    problems += looks(owner, "automation-empty")

    # A receiver that fails: 'Failed to connect to n8n', still disconnected, the URL kept.
    receiver.answer(500)
    connection.get_by_label("n8n webhook URL").fill(receiver.url())
    connection.get_by_role("button", name="Test connection").click()
    expect(connection.get_by_role("status")).to_contain_text("Failed to connect to n8n")
    expect(connection.get_by_role("status")).to_contain_text("n8n answered HTTP 500.")
    expect(connection.get_by_text("Not connected")).to_be_visible()
    # Then it answers: connected, with a signed test event.
    connection.get_by_role("button", name="Test connection").click()
    expect(connection.get_by_role("status")).to_contain_text("Successfully connected to n8n")
    expect(connection.get_by_text("Connected", exact=True)).to_be_visible()
    expect(toasts(owner, "Successfully connected to n8n")).to_be_visible()
    security = owner.get_by_role("region", name="Signing and authentication")
    security.get_by_role("button", name="Show secret").click()
    secret = security.locator("#automation-secret").inner_text()
    assert secret.startswith("whsec_")
    test_event = Webhook(secret).verify(receiver.wait_for(2)[1].body, receiver.requests[1].headers)
    assert test_event["eventType"] == "system.connection_test"
    expect(log_row(owner, "system.connection_test")).to_have_count(2)

    # A patient books a visit on the site: the server's job delivers a signed appointment.created.
    patient = person_page(browser)
    add_priyas_draw(patient, site)
    cart_panel(patient).get_by_role("link", name="Checkout").click()
    patient.get_by_label("Email").fill(PATIENT)
    patient.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    patient.get_by_role("button", name="Sign in", exact=True).click()
    expect(patient.get_by_role("heading", name="Checkout", level=1)).to_be_visible()
    patient.get_by_label("ZIP code").fill(ZIP)
    hold(visit(patient, DRAW), POLICY_WINDOW_DAYS + 1)
    patient.get_by_label("Street address").fill("350 W 31st St, Apt 12C")
    patient.get_by_label("City").fill("New York")
    patient.get_by_label("State").fill("ny")
    visit(patient, DRAW).get_by_label("Intake notes (optional)").fill("Doorman building")
    summary(patient).get_by_role("button", name=re.compile(r"^Place order")).click()
    expect(
        patient.get_by_role("heading", name=re.compile(r"^Your visits? (is|are) requested"))
    ).to_be_visible()

    created = receiver.wait_for(3, timeout=20)[2]
    payload = Webhook(secret).verify(created.body, created.headers)
    assert payload["eventType"] == "appointment.created" and payload["source"] == "medivisit"
    assert "Doorman" not in created.body.decode()  # no clinical text unless opted in
    booked = log_row(owner, "appointment.created")
    expect(booked).to_contain_text("Delivered")  # the open log reloads by itself

    # The receiver fails on purpose; the patient cancels: the first attempt fails, the retry 5 s later works.
    receiver.answer(503)
    open_page(patient, site.url("/appointments"))
    card = visit(patient, DRAW)
    card.get_by_role("button", name="Cancel visit").click()
    patient.get_by_role("dialog").get_by_role("button", name="Cancel visit").click()
    receiver.wait_for(4, timeout=20)
    cancelled = log_row(owner, "appointment.canceled")
    expect(cancelled).to_contain_text("HTTP 503")
    expect(cancelled).to_contain_text("Pending")
    receiver.wait_for(5, timeout=20)
    expect(cancelled).to_contain_text("Delivered", timeout=15_000)
    cancelled.get_by_role("button", name=re.compile(r"^Details")).click()
    dialog = owner.get_by_role("dialog", name="appointment.canceled")
    expect(dialog.locator(".automation-attempt")).to_have_count(2)
    expect(dialog.locator(".automation-attempt").nth(0)).to_contain_text("HTTP 200")
    expect(dialog.locator(".automation-attempt").nth(1)).to_contain_text("HTTP 503")
    assert (
        json.loads(dialog.locator(".automation-payload").inner_text())["eventType"] == "appointment.canceled"
    )
    problems += looks(owner, "automation-delivery")
    dialog.get_by_role("button", name="Close", exact=True).last.click()
    expect(dialog).to_have_count(0)
    owner.evaluate("window.scrollTo(0, 0)")
    problems += looks(owner, "automation-connected")
    download = owner.request.get(site.url("/api/automation/templates/appointment-reminder.json"))
    assert download.status == 200 and "attachment" in download.headers["content-disposition"]
    assert download.json()["settings"]["executionTimeout"] == 3600
    expect(
        owner.get_by_role("link", name="Download the Appointment reminder workflow (JSON)")
    ).to_have_attribute("href", "/api/automation/templates/appointment-reminder.json")
    assert not problems, "\n".join(problems)


def test_other_roles_are_refused(browser: Browser, site: LiveServer) -> None:
    provider = person_page(browser)
    sign_in(provider, site, PROVIDER, DEMO_PASSWORD)
    expect(provider).to_have_url(re.compile(r"/(dashboard|provider)"))
    open_page(provider, site.url(PATH))
    expect(toasts(provider, "Access Denied")).to_be_visible()
    expect(provider).to_have_url(re.compile(r"/dashboard$"))
    assert provider.request.get(site.url("/api/automation/templates/appointment-reminder.json")).status == 403
    anonymous = present(provider.context.browser).new_page()
    assert (
        anonymous.request.get(site.url("/api/automation/templates/appointment-reminder.json")).status == 401
    )
    anonymous.close()
