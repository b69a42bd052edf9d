"""The admin console's sub-pages in Chromium (issue 15 part 3) on a demo server: the owner finds a patient,
makes them VIP, disables the account (the patient's open tab loses its session and their sign-in is
refused), enables it again, signs them out everywhere; an admin is not offered the admin roles and cannot
touch the owner; the outbox shows a reset e-mail without its link; the unknown paths count a bad address;
system health measures the database. A patient is refused /admin/users. axe in light and dark at 1280 and
375 px on every page; screenshots in tests/artifacts/admin-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from app.migrate import head_revision
from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, NAMED_LOOKS, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import sign_in, toasts

PATIENT = "patient@demo.medivisit.test"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("admin-pages"))
    yield server
    stop_server(server)


def look_at(page: Page, name: str) -> list[str]:
    """axe in every look, and the screenshots of the page at 1280 px light and 375 px dark."""
    loaded(page)
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for width, scheme in NAMED_LOOKS:
        set_look(page, WIDTHS[width], scheme)
        screenshot(page, f"admin-{name}-{width}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def signed_in(browser: Browser, demo: LiveServer, email: str) -> Page:
    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_in(page, demo, email, DEMO_PASSWORD)
    expect(page).not_to_have_url(re.compile(r"/login"))
    return page


def test_the_owner_manages_a_patients_account(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    patient = signed_in(browser, demo, PATIENT)
    owner = signed_in(browser, demo, "owner@demo.medivisit.test")

    open_page(owner, demo.url("/admin"))
    owner.get_by_role("navigation", name="Admin console").get_by_role("link", name="Users").click()
    expect(owner).to_have_url(re.compile(r"/admin/users$"))
    expect(owner.get_by_role("table", name="Accounts")).to_contain_text("Olivia Bennett")
    owner.get_by_label("Name or e-mail").fill("jordan")
    owner.get_by_role("button", name="Search").click()
    expect(owner).to_have_url(re.compile(r"/admin/users\?q=jordan"))
    table = owner.get_by_role("table", name="Accounts")
    expect(table.get_by_role("row")).to_have_count(2)  # the header and Jordan Lee
    problems += look_at(owner, "users")

    table.get_by_role("link", name="Jordan Lee").click()
    expect(owner.get_by_role("heading", level=1, name="Jordan Lee")).to_be_visible()
    account = owner.get_by_role("region", name="Account")
    expect(account).to_contain_text(PATIENT)
    expect(account).to_contain_text("Patient")
    problems += look_at(owner, "account")

    flags = owner.get_by_role("region", name="Flags")
    flags.get_by_label("VIP").check()
    flags.get_by_role("button", name="Save flags").click()
    expect(toasts(owner, "Flags saved")).to_be_visible()
    expect(account).to_contain_text("VIP")

    access = owner.get_by_role("region", name="Access")
    access.get_by_role("button", name="Disable account").click()
    dialog = owner.get_by_role("dialog", name="Disable this account?")
    expect(dialog).to_be_visible()
    owner.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    problems += check_every_look(owner, "disable dialog")
    set_look(owner, DESKTOP, "light")
    screenshot(owner, "admin-disable-dialog-desktop-light")
    dialog.get_by_role("button", name="Disable account").click()
    expect(toasts(owner, "Account disabled")).to_be_visible()
    expect(account.get_by_text("Disabled", exact=True)).to_be_visible()
    expect(account).to_contain_text(re.compile(r"Active sessions\s*0"))

    # The patient's tab has lost its session, and signing in again is refused.
    patient.goto(demo.url("/dashboard"))
    expect(patient).to_have_url(re.compile(r"/login"))
    sign_in(patient, demo, PATIENT, DEMO_PASSWORD)
    expect(patient).to_have_url(re.compile(r"/login"))

    access.get_by_role("button", name="Enable account").click()
    expect(toasts(owner, "Account enabled")).to_be_visible()
    sign_in(patient, demo, PATIENT, DEMO_PASSWORD)
    expect(patient).not_to_have_url(re.compile(r"/login"))

    owner.reload()
    access = owner.get_by_role("region", name="Access")
    expect(owner.get_by_role("region", name="Account")).to_contain_text(re.compile(r"Active sessions\s*1"))
    access.get_by_role("button", name="Sign out everywhere").click()
    owner.get_by_role("dialog", name="Sign out everywhere?").get_by_role(
        "button", name="Sign out everywhere"
    ).click()
    expect(toasts(owner, "Signed out everywhere")).to_be_visible()
    patient.goto(demo.url("/dashboard"))
    expect(patient).to_have_url(re.compile(r"/login"))
    assert not problems, "\n".join(problems)


def test_an_admin_gets_only_what_their_rights_allow(browser: Browser, demo: LiveServer) -> None:
    admin = signed_in(browser, demo, "admin@demo.medivisit.test")
    open_page(admin, demo.url("/admin/users?role=owner"))
    admin.get_by_role("table", name="Accounts").get_by_role("link", name="Olivia Bennett").click()
    expect(admin.get_by_role("region", name="Role")).to_contain_text("only an owner can change it")
    expect(admin.get_by_role("button", name="Disable account")).to_have_count(0)

    # The admin holds no staff permissions (issue 27): a staff account is an owner's to change, and a
    # patient can be given only the roles that grant none. (This used to offer Management and HR.)
    open_page(admin, demo.url("/admin/users?q=support%40demo"))
    admin.get_by_role("table", name="Accounts").get_by_role("link", name="Sam Rivera").click()
    expect(admin.get_by_role("region", name="Role")).to_contain_text(
        "This account holds staff permissions you do not hold: only an owner can change it."
    )
    expect(admin.get_by_role("region", name="Role").get_by_label("Role")).to_have_count(0)
    expect(admin.get_by_role("button", name="Disable account")).to_have_count(0)
    expect(admin.get_by_role("button", name="Save flags")).to_have_count(0)

    open_page(admin, demo.url("/admin/users?q=jordan"))
    admin.get_by_role("table", name="Accounts").get_by_role("link", name="Jordan Lee").click()
    role = admin.get_by_role("region", name="Role").get_by_label("Role")
    expect(role.locator("option")).to_have_text(["Patient (current)", "Provider"])

    patient = signed_in(browser, demo, "provider@demo.medivisit.test")
    open_page(patient, demo.url("/admin/users"))
    expect(patient.get_by_role("table", name="Accounts")).to_have_count(0)
    expect(patient).not_to_have_url(re.compile(r"/admin/users"))


def test_outbox_unknown_paths_and_health(browser: Browser, demo: LiveServer) -> None:
    problems: list[str] = []
    visitor = browser.new_context(viewport=DESKTOP).new_page()
    open_page(visitor, demo.url("/forgot-password"))
    visitor.get_by_label("Email").fill("hr@demo.medivisit.test")
    visitor.get_by_role("button", name="Send reset link").click()
    expect(visitor.get_by_role("status").filter(has_text="If an account exists")).to_be_visible()
    for _ in range(2):
        visitor.goto(demo.url("/old-pricing-page"))

    owner = signed_in(browser, demo, "owner@demo.medivisit.test")
    open_page(owner, demo.url("/admin/outbox"))
    messages = owner.get_by_role("table", name="Messages")
    row = messages.get_by_role("row").filter(has_text="hr@demo.medivisit.test").first
    expect(row).to_be_visible()
    problems += look_at(owner, "outbox")
    row.get_by_role("button", name=re.compile("^Read the message")).click()
    dialog = owner.get_by_role("dialog")
    expect(dialog).to_contain_text("Choose a new password [link hidden]")
    text = dialog.locator(".admin-mail-text").inner_text()
    assert "http" not in text and "token" not in text, text
    assert "/auth/v1/verify" not in owner.content()
    owner.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    problems += check_every_look(owner, "outbox message")
    set_look(owner, DESKTOP, "light")
    screenshot(owner, "admin-outbox-message-desktop-light")
    dialog.get_by_role("button", name="Close the message").click()
    expect(dialog).to_have_count(0)

    owner.get_by_role("navigation", name="Admin console").get_by_role("link", name="Unknown paths").click()
    paths = owner.get_by_role("table", name="Counted paths")
    expect(paths.get_by_role("row").filter(has_text="/old-pricing-page")).to_contain_text("2")
    problems += look_at(owner, "not-found")

    owner.get_by_role("navigation", name="Admin console").get_by_role("link", name="System health").click()
    database = owner.get_by_role("article", name="Database")
    expect(database).to_contain_text(re.compile(r"\d+\.\d ms"))
    expect(database).to_contain_text(f"Reachable · SQLite · migration {head_revision()}")
    expect(owner.get_by_role("region", name="Background jobs")).to_be_visible()
    problems += look_at(owner, "health")
    assert not problems, "\n".join(problems)
