"""Signing in with a real browser (SPEC §2 top navigation and mobile menu signed in, /auth-redirect, §4, §8
auth messages, §9 refresh tick): sign up, sign out, sign in again after a wrong password, the signed-in
menus, the staff guard, a session ending in another tab or on another device, the password-reset e-mail
and TOTP two-factor authentication."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import httpx
import pyotp
import pytest
from playwright.sync_api import Page, expect

from tests.api.conftest import mail_link, mail_to
from tests.conftest import LiveServer, start_server, stop_server
from tests.e2e.conftest import open_page, page_errors, screenshot
from tests.e2e.helpers import account_menu, log_out, sign_in_with_form, toasts, wait_for_screen

PASSWORD = "secret-pass-1"


def unique_email(prefix: str = "e2e") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@medivisit.test"


def sign_up(page: Page, server: LiveServer, *, name: str = "Pat Lee", email: str | None = None) -> str:
    email = email or unique_email()
    open_page(page, server.url("/register"))
    wait_for_screen(page)
    for label, value in (("Full name", name), ("Email", email), ("Password", PASSWORD)):
        page.get_by_label(label).fill(value)
    for label, value in (("Full name", name), ("Email", email)):
        expect(page.get_by_label(label)).to_have_value(value)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    return email


def expect_signed_out(page: Page, timeout: float = 10_000) -> None:
    expect(page.get_by_role("banner").get_by_role("link", name="Sign In")).to_be_visible(timeout=timeout)
    expect(account_menu(page)).to_have_count(0)


def cookie(page: Page, name: str) -> str | None:
    return next((c["value"] for c in page.context.cookies() if c["name"] == name), None)


# ---- sign up, sign out, sign in --------------------------------------------------------------------------
def test_sign_up_sign_out_and_sign_in_again_keeping_the_email(live_server, page: Page) -> None:
    email = sign_up(page, live_server, name="Pat Lee")
    expect(toasts(page, "Authentication successful")).to_be_visible()
    expect(account_menu(page)).to_contain_text("PL")
    expect(page.get_by_role("heading", name="Welcome, Pat")).to_be_visible()  # a first visit
    session_cookies = {
        c["name"]: c for c in page.context.cookies() if c["name"] in ("mv_access", "mv_refresh")
    }
    assert all(c["httpOnly"] and c["sameSite"] == "Lax" for c in session_cookies.values())
    account_menu(page).click()
    menu = page.get_by_role("menu")
    expect(menu).to_contain_text("Pat Lee")
    expect(menu).to_contain_text(email)
    expect(menu.get_by_role("menuitem", name="Profile")).to_have_attribute("href", "/dashboard/profile")
    expect(menu.get_by_role("menuitem", name="Settings")).to_have_attribute("href", "/dashboard/settings")
    screenshot(page, "signed-in-avatar-menu")

    page.get_by_role("menuitem", name="Log out").click()
    expect(toasts(page, "Logged out successfully")).to_be_visible()
    expect(page).to_have_url(live_server.url("/"))
    expect_signed_out(page)
    assert cookie(page, "mv_access") is None and cookie(page, "mv_refresh") is None

    sign_in_with_form(page, live_server, email, password="not-my-password")
    expect(page.get_by_role("alert").filter(has_text="Incorrect email or password")).to_be_visible()
    expect(page.get_by_label("Email")).to_have_value(email)
    expect(page.get_by_label("Password", exact=True)).to_have_value("")
    screenshot(page, "sign-in-wrong-password")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    expect(account_menu(page)).to_contain_text("PL")

    # Signed in, /login goes on to where the user belongs.
    page.goto(live_server.url("/login"))
    expect(page).to_have_url(re.compile(r"/dashboard$"))


def test_the_dashboard_sends_a_visitor_to_sign_in_and_back(live_server, page: Page) -> None:
    email = sign_up(page, live_server)
    log_out(page)
    open_page(page, live_server.url("/dashboard/settings"))
    expect(page).to_have_url(live_server.url("/login?redirect=/dashboard"))
    expect(toasts(page, "Please log in to access the dashboard")).to_be_visible()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))


def test_auth_redirect_without_a_session_fails_back_to_login(live_server, page: Page) -> None:
    open_page(page, live_server.url("/auth-redirect"))
    expect(toasts(page, "Authentication failed. Please try again.")).to_be_visible()
    expect(page).to_have_url(live_server.url("/login"), timeout=5_000)


def test_mobile_menu_and_drawer_show_dashboard_when_signed_in(live_server, mobile_page: Page) -> None:
    page = mobile_page
    sign_up(page, live_server)
    open_page(page, live_server.url("/"))  # the public site's menus (the dashboard has its own frame)
    page.get_by_role("button", name="Open menu").click()
    menu = page.get_by_role("dialog", name="Menu", exact=True)
    expect(menu.get_by_role("link", name="Dashboard")).to_have_attribute("href", "/dashboard")
    expect(menu.get_by_role("link", name="My Appointments")).to_have_attribute("href", "/appointments")
    expect(menu.get_by_role("link", name="Log in")).to_have_count(0)
    expect(menu.get_by_role("link", name="Sign Up")).to_have_count(0)
    screenshot(page, "mobile-menu-signed-in")
    menu.get_by_role("button", name="Close menu").click()
    page.get_by_role("button", name="Open side menu").click()
    drawer = page.get_by_role("dialog", name="Side menu")
    expect(drawer.get_by_role("link", name="Dashboard")).to_be_visible()
    expect(drawer.get_by_role("link", name="Sign In")).to_have_count(0)


def test_a_patient_visiting_the_staff_portal_is_denied(live_server, page: Page) -> None:
    sign_up(page, live_server)
    page.goto(live_server.url("/staff"))
    expect(toasts(page, "Access Denied")).to_be_visible()
    expect(page).to_have_url(live_server.url("/"))


def test_profile_changes_show_in_the_avatar_menu(live_server, page: Page) -> None:
    sign_up(page, live_server, name="Pat Lee")
    open_page(page, live_server.url("/dashboard/profile"))
    page.get_by_label("Full name").fill("Jordan Quinn Avery")
    page.get_by_label("Organization").fill("Acme Clinic")
    page.get_by_role("button", name="Save profile").click()
    expect(toasts(page, "Profile updated")).to_be_visible()
    expect(account_menu(page)).to_contain_text("JQA")
    screenshot(page, "profile")


# ---- sessions across tabs and devices (short tick and token lifetime) ------------------------------------
@pytest.fixture(scope="module")
def quick_server(tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    """A 1 s refresh tick, 8 s access tokens, e-mail links back to this server."""
    _inbox, smtp_url = smtp_server
    server = start_server(
        tmp_path_factory.mktemp("quick-auth"),
        SMTP_URL=smtp_url,
        AUTH_REFRESH_TICK_MS="1000",
        JWT_EXP="8",
        URI_ALLOW_LIST="http://127.0.0.1:*/**",
        PASSWORD_HASH_MEMORY_KIB="1024",
        PASSWORD_HASH_TIME_COST="1",
    )
    yield server
    stop_server(server)


@pytest.fixture
def second_tab(page: Page) -> Page:
    return page.context.new_page()


def test_signing_out_in_one_tab_signs_out_the_other(quick_server, page: Page, second_tab: Page) -> None:
    sign_up(page, quick_server)
    open_page(second_tab, quick_server.url("/dashboard"))
    expect(account_menu(second_tab)).to_be_visible()
    log_out(page)
    expect_signed_out(second_tab)
    expect(second_tab).to_have_url(re.compile(r"/login\?redirect=/dashboard$"))


def test_the_tick_refreshes_and_a_session_revoked_elsewhere_signs_the_tab_out(
    quick_server, page: Page
) -> None:
    sign_up(page, quick_server)
    first_refresh = cookie(page, "mv_refresh")
    page.wait_for_function(
        "(first) => !document.cookie.includes('mv_expires_at=' + first)",
        arg=cookie(page, "mv_expires_at"),
        timeout=15_000,
    )
    assert cookie(page, "mv_refresh") != first_refresh  # rotated by the tick, still signed in
    expect(account_menu(page)).to_be_visible()

    # An expired access token: the next page load renews it and loads signed in.
    page.context.clear_cookies(name="mv_access")
    open_page(page, quick_server.url("/dashboard"))
    expect(account_menu(page)).to_be_visible()

    # Signed out everywhere from another device: the next refresh fails and the tab shows it.
    response = httpx.post(
        quick_server.url("/auth/v1/logout?scope=global"),
        headers={"Authorization": f"Bearer {cookie(page, 'mv_access')}", "apikey": "anon"},
    )
    assert response.status_code == 204
    expect_signed_out(page, timeout=20_000)


def test_forgot_password_email_link_sets_a_new_password(quick_server, page: Page, smtp) -> None:
    email = sign_up(page, quick_server)
    log_out(page)
    open_page(page, quick_server.url("/login"))
    page.get_by_role("link", name="Forgot password?").click()
    expect(page.get_by_role("heading", name="Reset your password")).to_be_visible()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send reset link").click()
    expect(page.get_by_role("status").filter(has_text=f"If an account exists for {email}")).to_be_visible()
    link = mail_link(mail_to(smtp, email)[-1])
    page.goto(link)
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    assert "access_token" not in page.url and "#" not in page.url
    screenshot(page, "reset-password")
    page.get_by_label("New password", exact=True).fill("brand-new-pass-2")
    page.get_by_label("Confirm new password").fill("brand-new-pass-2")
    page.get_by_role("button", name="Save new password").click()
    expect(toasts(page, "Your password has been updated")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    log_out(page)
    sign_in_with_form(page, quick_server, email, password="brand-new-pass-2")
    expect(page).to_have_url(re.compile(r"/dashboard$"))


def test_a_used_reset_link_says_it_expired(quick_server, page: Page) -> None:
    open_page(page, quick_server.url("/reset-password#error=access_denied&error_code=otp_expired"))
    expect(page.get_by_role("heading", name="Link expired")).to_be_visible()
    assert "#" not in page.url


# ---- two-factor authentication -----------------------------------------------------------------------------
def test_totp_turned_on_in_settings_is_asked_for_at_sign_in(live_server, page: Page) -> None:
    email = sign_up(page, live_server)
    open_page(page, live_server.url("/dashboard/settings"))
    page.get_by_role("button", name="Set up authenticator app").click()
    secret = page.locator("[data-totp-secret]").inner_text().strip()
    expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    assert page.evaluate("document.querySelector('.totp-qr img').naturalWidth") > 0  # the SVG renders
    screenshot(page, "settings-totp-setup")
    totp = pyotp.TOTP(secret)
    page.get_by_label("Authentication code").fill(totp.now())
    page.get_by_role("button", name="Verify and turn on").click()
    expect(toasts(page, "Two-factor authentication is on")).to_be_visible()
    expect(page.get_by_role("button", name="Turn off two-factor authentication")).to_be_visible()
    expect(account_menu(page)).to_be_visible()  # still signed in: the rotated tokens reached the cookies

    log_out(page)
    sign_in_with_form(page, live_server, email, PASSWORD)
    expect(page).to_have_url(re.compile(r"/login\?step=mfa"))
    expect(page.get_by_role("heading", name="Two-factor authentication")).to_be_visible()
    assert cookie(page, "mv_access") is None
    screenshot(page, "sign-in-second-factor")
    page.get_by_label("Authentication code").fill(totp.now())
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    expect(account_menu(page)).to_be_visible()


def test_sign_in_screens_render_at_both_sizes(live_server, page: Page, mobile_page: Page) -> None:
    for which, view in (("desktop", page), ("mobile", mobile_page)):
        for path in ("/login", "/register", "/forgot-password"):
            open_page(view, live_server.url(path))
            expect(
                view.get_by_role("button", name=re.compile("Sign in|Create account|Send reset link"))
            ).to_be_visible()
            screenshot(view, f"auth{path.replace('/', '-')}-{which}", full_page=True)
    assert page_errors(page) == [] and page_errors(mobile_page) == []
