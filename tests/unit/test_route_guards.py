"""Access rules live in the route table: every /dashboard, /staff and /admin route (and checkout and My
Appointments) names one, and the rules send each kind of visitor where SPEC §6 says."""

from __future__ import annotations

import pytest

from components.context import CurrentUser
from components.guards import (
    ACCESS_DENIED,
    admin_rule,
    appointments_rule,
    checkout_rule,
    dashboard_rule,
    staff_rule,
)
from pages.routes import NOT_FOUND, SCREENS, TEST_SCREENS, match_screen
from tests.factories import present

PROTECTED_PREFIXES = ("/dashboard", "/staff", "/admin")


def user(role: str) -> CurrentUser:
    return CurrentUser(id="u1", email="pat@example.com", name="Pat Lee", role=role)


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.path)
def test_every_portal_route_has_a_rule(screen) -> None:
    if screen.path.startswith(PROTECTED_PREFIXES):
        assert screen.rule is not None, f"{screen.path} has no access rule"


def test_the_rules_are_on_the_routes_that_need_them() -> None:
    assert present(match_screen("/checkout")).rule is checkout_rule
    assert present(match_screen("/appointments")).rule is appointments_rule
    assert present(match_screen("/dashboard/anything/else")).rule is dashboard_rule
    assert present(match_screen("/staff/helpdesk")).rule is staff_rule
    assert present(match_screen("/admin")).rule is admin_rule
    assert present(match_screen("/services")).rule is None
    assert NOT_FOUND.rule is None and all(s.rule is None for s in TEST_SCREENS)


def test_rules_send_each_visitor_where_spec_says() -> None:
    assert present(dashboard_rule(None)).to == "/login?redirect=/dashboard"
    assert dashboard_rule(user("patient")) is None
    assert present(checkout_rule(None)).to == "/login?redirect=/checkout"
    assert present(appointments_rule(None)).to == "/login?redirect=/appointments"
    assert present(staff_rule(None)).to == "/login"
    denied = present(staff_rule(user("patient")))
    assert (denied.to, denied.title) == ("/", ACCESS_DENIED)
    assert staff_rule(user("support")) is None
    assert present(admin_rule(user("management"))).title == ACCESS_DENIED
    assert admin_rule(user("admin")) is None
