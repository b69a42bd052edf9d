"""Credential verification in Chromium against a demo-seeded server (issue 13, staff side): a management
member opens a submitted application (made in the server's database, files in its upload folder: the
applicant's wizard is another module's), requests information with a reason; the applicant's corrected
application comes back; the same member ticks the checklist and approves, and the provider's public profile
is then bookable. An HR member approves and rejects documents in Document Approvals. A support member is
refused both screens. Screenshots of both screens at 1280×800 and 375×812, light and dark, with axe-core's
WCAG checks in each look.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database
from app.services.accounts.internal import create_account
from models.account import Role
from models.enrollment import (
    ApplicationEvent,
    ApplicationStatus,
    CredentialDocument,
    DocumentKind,
    EventKind,
    ProviderApplication,
)
from models.provider import Provider
from tests import factories
from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import Look, check_every_look, loaded, screenshot_looks, set_look
from tests.e2e.conftest import DESKTOP, open_page, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import staff_sign_in

LOOKS: tuple[Look, ...] = (
    (DESKTOP, "light"),
    (DESKTOP, "dark"),
    ({"width": 375, "height": 812}, "light"),
    ({"width": 375, "height": 812}, "dark"),
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, str, Path]]:
    tmp = tmp_path_factory.mktemp("verify")
    uploads = tmp / "uploads"
    server, database_url = start_demo_server(tmp, UPLOAD_DIR=str(uploads))
    yield server, database_url, uploads
    stop_server(server)


T = TypeVar("T")


def in_database(database_url: str, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run `work(session)` in a unit of work on the server's database (off Playwright's event loop)."""

    async def run() -> T:
        database = Database(database_url)
        try:
            async with database.unit_of_work() as session:
                return await work(session)
        finally:
            await database.dispose()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, run()).result()


def submitted_application(site, name: str) -> str:  # noqa: ANN001
    """A new applicant account with a submitted application; its documents' files in the server's folder."""
    _server, database_url, uploads = site

    async def save(data: bytes) -> str:
        key = secrets.token_hex(16)
        path = uploads / key[:2] / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return key

    async def work(session) -> str:  # noqa: ANN001
        account = await create_account(
            session=session,
            email=factories.unique_email("applicant"),
            password=factories.PASSWORD,
            role=Role.patient,
            name=name,
        )
        return await factories.add_application(
            session, user_id=account.id, name=name, zip_codes=("10001", "10011"), save=save
        )

    return in_database(database_url, work)


def looks(page: Page, name: str, where: str) -> list[str]:
    """Screenshots in each look, and axe's findings in each."""
    problems = check_every_look(page, where)
    for viewport, scheme in screenshot_looks(page, LOOKS):
        screenshot(page, f"{name}-{viewport['width']}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def test_management_requests_information_then_approves_and_the_provider_is_bookable(site, page: Page) -> None:
    server, database_url, _uploads = site
    application_id = submitted_application(site, "Nia Applicant")
    staff_sign_in(page, server, "management", "/staff/verifications")
    queue = page.get_by_role("table", name=re.compile("Provider applications"))
    expect(queue.get_by_role("row").filter(has_text="Nia Applicant")).to_contain_text("Submitted")
    loaded(page)
    problems = looks(page, "verifications-queue", "verification queue")

    queue.get_by_role("link", name="Nia Applicant").click()
    expect(page).to_have_url(re.compile(rf"application={application_id}"))
    expect(page.get_by_role("heading", name="Nia Applicant", level=1)).to_be_visible()
    meta = page.locator(".verify-meta")
    expect(meta).to_contain_text("In review")  # opening took it into review
    expect(page.get_by_role("img", name=re.compile("Professional licence"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"Open insurance\.pdf"))).to_have_attribute(
        "target", "_blank"
    )
    expect(page.get_by_role("region", name="Checklist")).to_contain_text(
        "NPI 1234567893: the check digit matches"
    )
    expect(page.get_by_role("button", name="Approve")).to_be_disabled()  # nothing ticked yet
    loaded(page)
    problems += looks(page, "verifications-application", "an application under review")

    page.get_by_role("button", name="Request information").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("A document is unreadable").check()
    dialog.get_by_label("Message to the applicant (optional)").fill(
        "The ID photo is blurry: please upload a new scan."
    )
    dialog.get_by_role("button", name="Send back to the applicant").click()
    expect(toasts(page, "Information requested")).to_be_visible()
    expect(meta).to_contain_text("Needs information")
    expect(page.get_by_role("region", name="Timeline")).to_contain_text("document_unreadable")

    async def resubmit(session) -> None:  # noqa: ANN001 - what the applicant's wizard does
        row = await session.get(ProviderApplication, application_id)
        moment = datetime.now(UTC)
        row.bio, row.status, row.status_changed_at, row.submitted_at = (
            "New bio.",
            ApplicationStatus.submitted,
            moment,
            moment,
        )
        session.add(
            ApplicationEvent(
                application_id=row.id, kind=EventKind.resubmitted, actor_id=row.user_id, at=moment
            )
        )

    in_database(database_url, resubmit)
    page.reload()
    expect(page.locator(".verify-meta")).to_contain_text("In review")
    checklist = page.get_by_role("region", name="Checklist")
    boxes = checklist.get_by_role("checkbox")
    expect(boxes).to_have_count(5)
    for index in range(5):
        box = checklist.get_by_role("checkbox").nth(index)
        box.check()
        expect(box).to_be_checked()
        expect(box).to_be_enabled()  # the tick was stored (the line re-rendered from the server)
    approve = page.get_by_role("button", name="Approve", exact=True)
    expect(approve).to_be_enabled()
    approve.click()
    page.get_by_role("dialog").get_by_role("button", name="Approve and publish").click()
    expect(toasts(page, "Application approved")).to_be_visible()
    expect(page.locator(".verify-meta")).to_contain_text("Approved")

    async def provider_id(session) -> str:  # noqa: ANN001
        row = await session.get(ProviderApplication, application_id)
        provider = await session.get(Provider, row.provider_id)
        assert provider.is_verified and provider.is_active
        return provider.id

    profile = in_database(database_url, provider_id)
    open_page(page, server.url(f"/providers/{profile}"))
    expect(page.get_by_role("heading", name=re.compile("Nia Applicant")).first).to_be_visible()
    expect(
        page.get_by_role("link", name=re.compile("Book"))
        .or_(page.get_by_role("button", name=re.compile("Book")))
        .first
    ).to_be_visible()
    assert problems == [], "\n".join(problems)


def test_hr_approves_and_rejects_documents(site, page: Page) -> None:
    server, _database_url, _uploads = site
    dana = submitted_application(site, "Dana Documents")

    async def dates(session) -> None:  # noqa: ANN001 - one expiring (highlighted), one expired
        today = datetime.now(UTC).date()
        for row in await session.scalars(
            select(CredentialDocument).where(CredentialDocument.application_id == dana)
        ):
            if row.kind == DocumentKind.cpr_bls:
                row.expires_on = today + timedelta(days=40)
            elif row.kind == DocumentKind.malpractice_insurance:
                row.expires_on = today - timedelta(days=3)

    in_database(site[1], dates)
    staff_sign_in(page, server, "hr", "/staff/documents")
    table = page.get_by_role("table", name="Credential documents")
    rows = table.get_by_role("row").filter(has_text="Dana Documents")
    expect(rows).to_have_count(4)
    loaded(page)
    problems = looks(page, "documents", "document approvals")

    page.get_by_role("button", name="Approve the Professional licence of Dana Documents").click()
    expect(toasts(page, "Document approved")).to_be_visible()
    licence = rows.filter(has_text="licence.png")
    expect(licence).to_contain_text("Approved")
    page.get_by_role("button", name="Reject the Government ID of Dana Documents").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Reason").select_option(label="A document is unreadable")
    dialog.get_by_label("Note for the applicant (optional)").fill("Too dark.")
    dialog.get_by_role("button", name="Reject document").click()
    expect(toasts(page, "Document rejected")).to_be_visible()
    expect(rows.filter(has_text="id-card.png")).to_contain_text("A document is unreadable — Too dark.")
    expect(rows.filter(has_text="cpr.pdf")).to_have_class(re.compile("doc-expiring"))
    expect(rows.filter(has_text="insurance.pdf")).to_have_class(re.compile("doc-expired"))
    page.get_by_label("Standing", exact=True).select_option("expiring")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile("standing=expiring"))
    expect(table.get_by_role("row").filter(has_text="Dana Documents")).to_have_count(1)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("path", ["/staff/verifications", "/staff/documents"])
def test_a_support_member_sees_neither_screen(site, page: Page, path: str) -> None:
    server, _database_url, _uploads = site
    staff_sign_in(page, server, "support", path)
    expect(toasts(page, "Access Denied")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/staff$"))
    nav = page.get_by_role("navigation", name="Staff sections")
    expect(nav.get_by_role("link", name="Verification Requests")).to_have_count(0)
    expect(nav.get_by_role("link", name="Document Approvals")).to_have_count(0)
