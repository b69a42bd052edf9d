"""Identity → User mapping (SPEC §3, §6): names, roles and flags, and what user-writable metadata cannot do."""

from __future__ import annotations

import pytest

from app.services.accounts import map_account
from app.settings import get_settings
from models.account import Role


@pytest.fixture
def owners(monkeypatch):
    monkeypatch.setenv("OWNER_EMAILS", "Boss@Example.com, second@example.com")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def test_name_joins_first_and_last_and_defaults_to_user() -> None:
    account = map_account(
        user_id="u1",
        email="a@b.co",
        app_metadata={},
        user_metadata={"first_name": "Ada", "last_name": "Lovelace"},
    )
    assert (account.name, account.first_name, account.last_name) == ("Ada Lovelace", "Ada", "Lovelace")
    assert map_account(user_id="u1", email="a@b.co", app_metadata={}, user_metadata={}).name == "User"
    assert (
        map_account(user_id="u1", email="a@b.co", app_metadata={}, user_metadata={"first_name": "Cher"}).name
        == "Cher"
    )


def test_default_role_is_patient_with_no_privileges() -> None:
    account = map_account(user_id="u1", email="a@b.co", app_metadata={}, user_metadata={})
    assert account.role == Role.patient
    assert not (account.is_master_admin or account.is_vip or account.has_free_access)


def test_role_and_flags_come_from_app_metadata() -> None:
    account = map_account(
        user_id="u1",
        email="a@b.co",
        app_metadata={"role": "support", "is_vip": True, "exclusive_services": ["iv-therapy", 3]},
        user_metadata={},
    )
    assert account.role == Role.support and account.is_vip and not account.is_master_admin
    assert account.exclusive_services == ["iv-therapy"]


def test_user_metadata_grants_nothing() -> None:
    account = map_account(
        user_id="u1",
        email="a@b.co",
        app_metadata={},
        user_metadata={"role": "owner", "is_master_admin": True, "is_vip": True, "has_free_access": True},
    )
    assert account.role == Role.patient
    assert not (account.is_master_admin or account.is_vip or account.has_free_access)


def test_unknown_role_in_app_metadata_falls_back_safely() -> None:
    assert (
        map_account(user_id="u", email="a@b.co", app_metadata={"role": "superuser"}, user_metadata={}).role
        == Role.patient
    )


def test_owner_emails_make_an_owner_with_every_flag(owners) -> None:
    account = map_account(user_id="u1", email="boss@example.com", app_metadata={}, user_metadata={})
    assert account.role == Role.owner
    assert account.is_master_admin and account.is_vip and account.has_free_access
