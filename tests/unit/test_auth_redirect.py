"""Where /auth-redirect sends a visitor (SPEC §2), never to another site; and the screen guards (SPEC §6)."""

from __future__ import annotations

import pytest

from components.context import CurrentUser
from components.guards import (
    ACCESS_DENIED,
    DASHBOARD_LOGIN_MESSAGE,
    admin_rule,
    auth_redirect_target,
    dashboard_rule,
    feature_name,
    feature_segment,
    safe_redirect_path,
    staff_rule,
)
from tests.factories import present


def user(role: str) -> CurrentUser:
    return CurrentUser(id="u1", email="pat@example.com", name="Pat Lee", role=role)


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("patient", "/dashboard"),
        ("provider", "/provider-enrollment"),  # until enrolment is complete
        ("management", "/staff"),
        ("hr", "/staff"),
        ("support", "/staff"),
        ("owner", "/admin"),
        ("admin", "/admin"),
    ],
)
def test_without_redirect_the_role_decides(role: str, expected: str) -> None:
    assert auth_redirect_target(None, user(role)) == expected
    assert auth_redirect_target("", user(role)) == expected


def test_a_provider_who_finished_enrolment_goes_to_the_dashboard() -> None:
    provider = CurrentUser(
        id="u2", email="pro@example.com", name="Priya Shah", role="provider", enrollment_complete=True
    )
    assert auth_redirect_target(None, provider) == "/dashboard"


def test_signed_out_without_redirect_goes_to_login() -> None:
    assert auth_redirect_target(None, None) == "/login"


@pytest.mark.parametrize(
    "redirect",
    [
        "/dashboard",
        "/dashboard/appointments",
        "/services?category=iv#top",
        "/staff/help-desk",
        "/a/b/c?x=%2F%2F",
    ],
)
def test_a_same_site_path_wins_over_the_role(redirect: str) -> None:
    assert auth_redirect_target(redirect, user("owner")) == redirect
    assert auth_redirect_target(redirect, user("patient")) == redirect


@pytest.mark.parametrize(
    "redirect",
    [
        "//evil.com",
        "//evil.com/dashboard",
        "///evil.com",
        "https://evil.com",
        "http://evil.com/dashboard",
        "HTTPS://evil.com",
        "/\\evil.com",
        "\\\\evil.com",
        "\\/evil.com",
        "/dashboard\\..\\..\\evil",
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        "data:text/html,<script>alert(1)</script>",
        "evil.com",
        "dashboard",
        " /dashboard",
        "/\t/evil.com",
        "/\n/evil.com",
        "/%2F/evil.com",
        "/%5Cevil.com",
        "%2F%2Fevil.com",
        "/auth-redirect",
        "/auth-redirect?redirect=//evil.com",
        "/auth/logout",
        "/api/anything",
        "/" + "a" * 3000,
        "/login",  # a signed-in visitor on a sign-in screen goes to /auth-redirect: a loop
        "/sign-in?redirect=/dashboard",
        "/register",
        "/sign-up",
    ],
)
def test_unsafe_redirects_are_ignored(redirect: str) -> None:
    assert safe_redirect_path(redirect) is None
    assert auth_redirect_target(redirect, None) == "/login"
    assert auth_redirect_target(redirect, user("support")) == "/staff"


def test_dashboard_needs_a_signed_in_user() -> None:
    denial = dashboard_rule(None)
    assert denial is not None
    assert (denial.to, denial.title) == ("/login?redirect=/dashboard", DASHBOARD_LOGIN_MESSAGE)
    assert dashboard_rule(user("patient")) is None


@pytest.mark.parametrize("role", ["management", "hr", "support", "owner"])
def test_staff_roles_enter_the_staff_portal(role: str) -> None:
    assert staff_rule(user(role)) is None


@pytest.mark.parametrize("role", ["patient", "provider", "admin"])
def test_other_roles_are_denied_the_staff_portal(role: str) -> None:
    denial = staff_rule(user(role))
    assert denial is not None
    assert (denial.to, denial.title) == ("/", ACCESS_DENIED)
    assert denial.description == "You don't have permission to access the staff portal."


def test_signed_out_staff_visit_goes_to_login_without_a_toast() -> None:
    denial = staff_rule(None)
    assert denial is not None
    assert (denial.to, denial.title) == ("/login", None)


def test_admin_is_for_owner_and_admin() -> None:
    assert admin_rule(user("owner")) is None
    assert admin_rule(user("admin")) is None
    assert present(admin_rule(user("management"))).to == "/"
    assert present(admin_rule(user("management"))).title == ACCESS_DENIED
    assert present(admin_rule(None)).to == "/login?redirect=/admin"


@pytest.mark.parametrize(
    ("pathname", "segment", "name"),
    [
        ("/dashboard/notification-settings", "notification-settings", "Notification Settings"),
        ("/dashboard/ai-features/extra", "ai-features", "AI Features"),
        ("/dashboard/provider_wallet", "provider_wallet", "Provider Wallet"),
        ("/dashboard/", "", "This feature"),
        ("/dashboard", "", "This feature"),
    ],
)
def test_feature_names_come_from_the_path(pathname: str, segment: str, name: str) -> None:
    assert feature_segment(pathname, "/dashboard") == segment
    assert feature_name(segment) == name
