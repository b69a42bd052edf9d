"""Who sees which dashboard section (SPEC §2 sidebar groups, issue 12) and the six-slot bottom bar."""

from __future__ import annotations

import pytest

from components.context import CurrentUser
from components.frame.dashboard_links import GROUPS, SECTIONS, bottom_bar, visible_groups
from models.account import Role


def titles(role: Role, master_admin: bool = False) -> dict[str, list[str]]:
    return {group: [s.title for s in sections] for group, sections in visible_groups(role, master_admin)}


def test_every_section_spec_names_is_listed_once_in_a_spec_group() -> None:
    slugs = [s.slug for s in SECTIONS]
    assert len(slugs) == len(set(slugs))
    assert {s.group for s in SECTIONS} == set(GROUPS)
    # SPEC §2's dashboard paths, /dashboard/appointments and the rest.
    assert set(slugs) == {
        "appointments", "profile", "notifications", "notification-settings", "store", "contracts", "jobs",
        "marketplace", "provider-wallet", "wallet", "payout-requests", "ad-analytics", "team", "services",
        "ai-features", "automation", "settings", "support",
    }  # fmt: skip


def test_patients_see_neither_the_provider_wallet_nor_jobs_nor_administration() -> None:
    patient = titles(Role.patient)
    everything = [title for group in patient.values() for title in group]
    # Team (issue 17): a company's contact and colleagues are patients too, so organizations are for anyone.
    assert "Wallet" in everything and "Appointments" in everything and "Team" in everything
    for hidden in ("Provider Wallet", "Payout Requests", "Jobs", "Services", "Ad Analytics"):
        assert hidden not in everything
    assert "Administration" not in patient


def test_providers_see_the_provider_wallet_and_jobs_but_not_administration() -> None:
    provider = titles(Role.provider)
    assert "Provider Wallet" in provider["Finance"] and "Wallet" in provider["Finance"]
    assert "Ad Analytics" in provider["Finance"]
    assert "Jobs" in provider["Contracting"]
    assert "Services" in provider["Navigation"]
    assert "Administration" not in provider


@pytest.mark.parametrize(
    ("role", "master_admin"), [(Role.owner, False), (Role.admin, False), (Role.patient, True)]
)
def test_administration_is_for_owners_admins_and_master_admins(role: Role, master_admin: bool) -> None:
    assert titles(role, master_admin)["Administration"] == ["AI Features", "Automation"]


@pytest.mark.parametrize("role", [Role.support, Role.hr, Role.management])
def test_staff_roles_get_no_administration_group(role: Role) -> None:
    assert "Administration" not in titles(role)


def _user(role: Role, **extra: object) -> CurrentUser:
    return CurrentUser(id="u1", email="someone@example.test", role=role, **extra)


def test_the_bottom_bar_has_six_slots_with_profile_or_admin_last() -> None:
    patient = bottom_bar(_user(Role.patient))
    assert [link.label for link in patient] == [
        "Home",
        "Dashboard",
        "Bookings",
        "Services",
        "Wallet",
        "Profile",
    ]
    assert patient[3].href == "/services"  # patients browse the catalog
    provider = bottom_bar(_user(Role.provider))
    assert provider[3].href == "/dashboard/services" and provider[5].label == "Profile"
    for admin in (_user(Role.owner), _user(Role.admin), _user(Role.patient, is_master_admin=True)):
        assert bottom_bar(admin)[5].label == "Admin"
        assert bottom_bar(admin)[5].href == "/admin"
